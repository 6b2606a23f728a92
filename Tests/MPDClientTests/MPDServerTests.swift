import BlueCovers
import BlueLibrary
import BluePlayback
import Foundation
import MPDClient
import MusicFolder
import MusicSource
import TestSupport
import Testing

extension RunsAlone {
  /// The client against a real MPD on 127.0.0.1 (and, for what MPD never does on purpose,
  /// a fake one): the albums, covers, stickers, refusals, timeouts and reconnection.
  @Suite(.serialized)
  struct MPDServerTests {
    private func server(_ mpd: MPDFixture, password: String? = nil, timeout: Double = 5) -> MPDServer {
      MPDServer(
        address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: mpd.port), password: password), timeout: timeout)
    }

    @Test func syncGroupsTheServersSongsAsAFolderImportGroupsFiles() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      let synced = try library.sync()
      #expect(synced.listed && synced.added == 3 && synced.tracks == 6)
      let albums = try library.allAlbums()
      let root = "mpd://127.0.0.1:\(mpd.port)"
      #expect(albums.map(\.title) == ["The Wall", "Innuendo", "Hits"])
      #expect(albums.map(\.artist) == ["Pink Floyd", "Queen", "Various Artists"])
      #expect(albums.map(\.tracks) == [2, 2, 2])
      #expect(
        albums.map(\.folder) == [root + "/Pink Floyd/The Wall", root + "/Queen/Innuendo", root + "/Various/Hits"])
      #expect(albums[1].year == 1991 && albums[1].genre == "Rock")
      #expect(albums[0].coverURL == root + "/Pink%20Floyd/The%20Wall/CD1/01%20In%20the%20Flesh.flac")
      let wall = try #require(try library.tracklist(of: albums[0]))
      #expect(wall.discs == 2)
      #expect(wall.tracks.map(\.title) == ["In the Flesh?", "Hey You"])
      #expect(wall.tracks.map(\.disc) == [1, 2])

      // The same database again: nothing listed.
      let again = try library.sync()
      #expect(!again.listed && !again.changedAlbums)
    }

    /// A song's sample rate (MPD's `Format`), composer (the `Composer` tag) and format (its
    /// extension) reach the library (issue 50, item 4); MPD says no bitrate.
    @Test func aSyncTakesTheSongsSampleRateComposerAndFormat() throws {
      let mpd = try MPDFixture { music in
        try TwinFolder.track(
          music.path("Miles Davis/Kind of Blue/01.flac"), rate: 48_000,
          tags: ["album": "Kind of Blue", "artist": "Miles Davis", "title": "So What", "composer": "Miles Davis"])
      }
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      #expect(try library.sync().added == 1)
      let album = try #require(try library.allAlbums().first)
      let tracklist = try #require(try library.tracklist(of: album))
      #expect(tracklist.tracks.map(\.sampleRate) == [48_000])
      #expect(tracklist.composer == "Miles Davis" && tracklist.format == "FLAC" && tracklist.bitrate == nil)
      #expect(try library.listing(try library.query(["samplerate:48000", "composer:davis"])).count == 1)
    }

    @Test func aSyncAfterAnUpdateWritesOnlyWhatChangedAndKeepsEdits() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let home = try TemporaryDirectory()
      let path = home.file("server.sqlite")
      #expect(try Library.sync(libraryAt: path, source: server).added == 3)
      let library = try Library.open(path: path)
      let innuendo = try #require(try library.allAlbums().first { $0.title == "Innuendo" })
      var edited = innuendo
      edited.genre = "Glam"
      try library.edit(edited)
      // A mark no sync writes: a row written again loses it (a sync writes size 0).
      _ = try sqlite(path, "UPDATE track SET size = 777")

      try MPDFixture.silence(
        2, at: "Queen/Made in Heaven/01 It's a Beautiful Day.flac", in: mpd.music,
        TagEdit(album: "Made in Heaven", artist: "Queen", title: "It's a Beautiful Day", trackNumber: "1"))
      try mpd.update()
      let synced = try Library.sync(libraryAt: path, source: server)
      #expect(synced.added == 1 && synced.updated == 0 && synced.unchanged == 3)
      // The six rows of the songs that did not change are not written again; the new one is.
      #expect(try sqlite(path, "SELECT size, count(*) FROM track GROUP BY size ORDER BY size") == "0|1\n777|6\n")
      try library.noticeChangesElsewhere()
      #expect(try library.allAlbums().first { $0.title == "Innuendo" }?.genre == "Glam")
      #expect(try library.allAlbums().contains { $0.title == "Made in Heaven" })
    }

    @Test func coversComeFromTheSongsPictureElseItsFoldersFile() async throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let source = MPDCoverSource(server: server)
      let limits = CoverLimits(timeout: .seconds(5), maxBytes: 1 << 20)
      let embedded = try await source.fetch(server.coverURL(ofTrack: "Queen/Innuendo/01 Innuendo.flac"), limits: limits)
      #expect(TestPicture.close(try TestPicture.color(of: Array(embedded)), TestPicture.red))
      let folder = try await source.fetch(
        server.coverURL(ofTrack: "Pink Floyd/The Wall/CD1/01 In the Flesh.flac"), limits: limits)
      #expect(TestPicture.close(try TestPicture.color(of: Array(folder)), TestPicture.green))
      await #expect(throws: CoverFailure.noneOnServer(server: server.name, song: "Various/Hits/01.ogg")) {
        _ = try await source.fetch(server.coverURL(ofTrack: "Various/Hits/01.ogg"), limits: limits)
      }
      await #expect(throws: CoverFailure.tooLarge(maxBytes: 100)) {
        _ = try await source.fetch(
          server.coverURL(ofTrack: "Queen/Innuendo/01 Innuendo.flac"),
          limits: CoverLimits(timeout: .seconds(5), maxBytes: 100))
      }
    }

    @Test func stickersAreSetReadFoundAndDeleted() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let song = "Queen/Innuendo/01 Innuendo.flac"
      #expect(try server.sticker("rating", ofSong: song) == nil)
      try server.setSticker("rating", to: "8", onSong: song)
      try server.setSticker("rating", to: "6", onSong: "Various/Hits/02.ogg")
      #expect(try server.sticker("rating", ofSong: song) == "8")
      // Another client sees it.
      #expect(try mpd.request("sticker get song \"\(song)\" rating").contains("sticker: rating=8"))
      let found = try server.songs(withSticker: "rating")
      #expect(found.map(\.uri) == [song, "Various/Hits/02.ogg"] && found.map(\.value) == ["8", "6"])
      #expect(try server.songs(withSticker: "rating", under: "Queen").map(\.uri) == [song])
      try server.deleteSticker("rating", ofSong: song)
      try server.deleteSticker("rating", ofSong: song)
      #expect(try server.sticker("rating", ofSong: song) == nil)
      #expect(throws: MPDError.self) { try server.setSticker("rating", to: "1", onSong: "No/Such/song.flac") }
    }

    @Test func aRefusalIsOneLineNamingTheServerAndTheCommand() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let engine = try MPDEngine(server: server)
      #expect(throws: PlaybackError("MPD at 127.0.0.1:\(mpd.port) refused 'add': No such directory (error 50)")) {
        try engine.load(["mpd://127.0.0.1:\(mpd.port)/No/such.flac"], from: 0)
      }
    }

    @Test func repeatAndReplayGainAreTheServersModes() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let engine = try MPDEngine(server: server)
      #expect(try mpd.value("repeat", of: "status") == "0")
      engine.setRepeat(true)
      #expect(try mpd.value("repeat", of: "status") == "1")
      engine.setReplayGain(.album, fallback: ReplayGainMode.fallback)
      #expect(try mpd.value("replay_gain_mode", of: "replay_gain_status") == "album")
      engine.setReplayGain(.off, fallback: ReplayGainMode.fallback)
      #expect(try mpd.value("replay_gain_mode", of: "replay_gain_status") == "off")
    }

    @Test func aClosedPortAndAWrongPasswordAreOneLineEach() throws {
      let port = try MPDFixture.freePort()
      let closed = MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: port)), timeout: 5)
      #expect(throws: SourceError("MPD at 127.0.0.1:\(port): cannot connect: connection refused")) {
        try closed.check()
      }
      let mpd = try MPDFixture(password: "secret", prepare: MPDFixture.sampleMusic)
      try mpd.start()
      #expect(
        throws: SourceError("MPD at 127.0.0.1:\(mpd.port): wrong password (the one before '@' in MPD_HOST or --mpd)")
      ) {
        try server(mpd, password: "guess").check()
      }
      #expect(
        throws: SourceError(
          "MPD at 127.0.0.1:\(mpd.port): 'stats' needs a password (MPD_HOST=PASSWORD@HOST or --mpd PASSWORD@HOST)")
      ) {
        _ = try server(mpd).fingerprint()
      }
      #expect(try !server(mpd, password: "secret").fingerprint().isEmpty)
    }

    @Test func aServerThatDoesNotAnswerTimesOut() throws {
      let fake = try FakeMPD([.silent])
      defer { fake.stop() }
      let server = MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: fake.port)), timeout: 0.5)
      let started = ContinuousClock.now
      #expect(throws: SourceError("MPD at 127.0.0.1:\(fake.port): no answer within 0.5 s (MPD_TIMEOUT)")) {
        try server.check()
      }
      #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aServerGoneMidCommandFailsThatCommandOnly() throws {
      let fake = try FakeMPD([.hangUpOnFirstCommand, .answersOK])
      defer { fake.stop() }
      let server = MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: fake.port)), timeout: 5)
      #expect(throws: SourceError("MPD at 127.0.0.1:\(fake.port): the server closed the connection")) {
        try server.check()
      }
      try server.check()
    }

    /// The listener says the server is gone once as it loses it (issue 47, item 3), then that
    /// it is back once it reconnected.
    @Test func theListenerReconnectsAfterARestartAndSaysSoOnce() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let events = LockedBox<[SourceEvent]>([])
      server.setEventHandler { event in events.update { $0.append(event) } }
      server.startFollowing()
      try server.check()
      usleep(200_000)
      try mpd.restart()
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline, !events.value.contains(.notice("\(server.name) is back; reconnected")) {
        usleep(20_000)
      }
      #expect(
        events.value.filter { $0 != .databaseChanged } == [
          .notice("\(server.name) is gone (the server closed the connection); reconnecting when it is back"),
          .notice("\(server.name) is back; reconnected"),
        ])
      // The pooled connection the restart closed is replaced without a word.
      try server.check()
      #expect(try !server.fingerprint().isEmpty)
    }

    /// A rating another client sets (a sticker) is told (`idle sticker`), so a library that
    /// follows the server takes it; the marks read as a listing reads them.
    @Test func theListenerTellsOfAStickerAnotherClientSets() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let events = LockedBox<[SourceEvent]>([])
      server.setEventHandler { event in events.update { $0.append(event) } }
      server.startFollowing()
      // Listening once `startFollowing` returns; `idle` is sent right after `commands`.
      usleep(200_000)
      #expect(try mpd.request("sticker set song \"Various/Hits/01.ogg\" rating 8") == "OK\n")
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline, !events.value.contains(.marksChanged) { usleep(20_000) }
      #expect(events.value == [.marksChanged])
      #expect(try server.marks() == ["Various/Hits/01.ogg": TrackMarks(rating: 4, favourite: false)])
    }

    /// The marks another client set are taken without listing the songs: an album's rating
    /// is the one all its songs have (none while they disagree), its favourite mark every
    /// song's; one step `undo` takes back; nothing when they are the library's already.
    @Test func marksAnotherClientSetAreTakenWithoutAListing() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      try library.sync()
      func hits() throws -> (rating: Int?, favourite: Bool) {
        let album = try library.allAlbums()[2]
        return (album.rating, album.favourite)
      }
      #expect(try mpd.request("sticker set song \"Various/Hits/01.ogg\" rating 8") == "OK\n")
      // One song of two: not the album's rating.
      #expect(try !library.syncMarks().changedAlbums)
      #expect(try hits().rating == nil)
      #expect(
        try mpd.request(
          "sticker set song \"Various/Hits/02.ogg\" rating 8", "sticker set song \"Various/Hits/01.ogg\" like 2",
          "sticker set song \"Various/Hits/02.ogg\" like 2") == "OK\nOK\nOK\n")
      let taken = try library.syncMarks()
      #expect(!taken.listed && taken.updated == 1 && taken.changedAlbums)
      #expect(taken.summary == "sync with \(server.name): 1 updated")
      #expect(try hits() == (4, true))
      #expect(try library.syncMarks().summary == nil)
      #expect(try library.undo() == "sync with \(server.name): 1 updated")
      #expect(try hits() == (nil, false))
    }

    /// The listener waits only for the subsystems the server has: `sticker` when `commands`
    /// lists it (MPD with a sticker database), never otherwise (Mopidy, which would wait for
    /// ever in `idle` on a name it does not know).
    @Test(arguments: [true, false])
    func theListenerWaitsForStickersOnlyWhereTheServerKeepsThem(listed: Bool) throws {
      let fake = try FakeMPD([
        .scripted { command in
          command == "commands"
            ? .send("command: add\ncommand: idle\n" + (listed ? "command: sticker\n" : "") + "command: status\nOK\n")
            : FakeMPD.album(command)
        }
      ])
      defer { fake.stop() }
      let server = MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: fake.port)), timeout: 5)
      defer { server.stop() }
      server.startFollowing()
      let deadline = Date().addingTimeInterval(10)
      while Date() < deadline, !fake.commands.contains(where: { $0.hasPrefix("idle") }) { usleep(20_000) }
      let idle = try #require(fake.commands.first { $0.hasPrefix("idle") })
      #expect(
        idle
          == "idle \"database\" \"player\" \"mixer\" \"playlist\"" + (listed ? " \"sticker\"" : ""))
    }

    @Test func theEngineTellsWhatStartsWhoeverStartedIt() throws {
      let mpd = try MPDFixture { music in
        for (number, title) in [(1, "One"), (2, "Two")] {
          try MPDFixture.silence(
            30, at: "A/Album/0\(number).flac", in: music,
            TagEdit(album: "Album", artist: "A", title: title, trackNumber: String(number)))
        }
        try MPDFixture.silence(
          30, at: "B/Other/01.flac", in: music, TagEdit(album: "Other", artist: "B", title: "Else"))
      }
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let engine = try MPDEngine(server: server)
      let events = LockedBox<[EngineEvent]>([])
      engine.observe { event in events.update { $0.append(event) } }
      let root = server.root
      try engine.load([root + "/A/Album/01.flac", root + "/A/Album/02.flac"], from: 0)
      func waitFor(_ event: EngineEvent) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !events.value.contains(event) { usleep(20_000) }
        return events.value.contains(event)
      }
      #expect(waitFor(.started(index: 0)))
      #expect(try mpd.value("state", of: "status") == "play")
      #expect(engine.status()?.index == 0)
      try mpd.mpc("next")
      #expect(waitFor(.started(index: 1)))
      // Another client's queue: told by what MPD says of its song.
      try mpd.mpc("clear")
      try mpd.mpc("add", "B/Other/01.flac")
      try mpd.mpc("play")
      #expect(
        waitFor(
          .startedOther(
            EngineTrack(path: root + "/B/Other/01.flac", title: "Else", artist: "B", album: "Other", duration: 30),
            index: 0, count: 1)))
      #expect(engine.status()?.other?.track.title == "Else")
    }
  }
}

/// Runs `sqlite3 path sql` and returns what it printed.
func sqlite(_ path: String, _ sql: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
  process.arguments = [path, sql]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}
