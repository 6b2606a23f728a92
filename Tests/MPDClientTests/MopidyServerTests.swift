import AlbumModel
import BlueCovers
import BlueLibrary
import BluePlayback
import Foundation
import MusicFolder
import MusicSource
import Synchronization
import TestSupport
import Testing

@testable import MPDClient

/// The places Mopidy's songs are filed at, and back: no server needed.
struct MopidyPlaceTests {
  @Test(arguments: [
    ("local:track:Queen/Innuendo/01%20Innuendo.flac", "local:track:/Queen/Innuendo/01 Innuendo.flac"),
    ("local:track:Sigur%20R%C3%B3s/%C3%81g%C3%A6tis%20byrjun/01.flac", "local:track:/Sigur Rós/Ágætis byrjun/01.flac"),
    ("local:track:100%25%20%26%20More/a%3Fb%23c%20%2B.ogg", "local:track:/100% & More/a?b#c +.ogg"),
    ("local:track:plain/01.flac", "local:track:/plain/01.flac"),
    // A file name that is not UTF-8: kept as Mopidy wrote it.
    ("local:track:bad/%FF.flac", "local:track:bad/%FF.flac"),
    // Not as Mopidy-Local writes (a lowercase escape): kept.
    ("local:track:a%2fb.flac", "local:track:a%2fb.flac"),
    ("Queen/Innuendo/01 Innuendo.flac", "Queen/Innuendo/01 Innuendo.flac"),
    ("spotify:track:4uLU6hMCjMI75M1A2tKUQC", "spotify:track:4uLU6hMCjMI75M1A2tKUQC"),
  ])
  func aSongIsFiledAtItsDecodedPlaceAndFoundAgainByItsURI(uri: String, place: String) {
    #expect(MPDServer.place(ofURI: uri) == place)
    #expect(MPDServer.uri(ofPlace: place) == uri)
  }
}

extension RunsAlone {
  /// The client against a real Mopidy (``MopidyFixture``), beside the real MPD: the same
  /// albums from both, a listing whole past Mopidy's search cap, changes found by a
  /// fingerprint, what Mopidy lacks said once and not asked again, its player, and a burst
  /// of connections. Skipped, saying what to install, where Mopidy is not installed.
  @Suite(.serialized, .enabled(if: MopidyFixture.isInstalled, Comment(rawValue: MopidyFixture.unavailable)))
  struct MopidyServerTests {
    private func server(port: Int, timeout: Double = 10, pollInterval: Double = 10) -> MPDServer {
      MPDServer(
        address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: port)), timeout: timeout,
        pollInterval: pollInterval)
    }

    /// The sample music, a song without an album tag in a folder whose name Mopidy writes
    /// percent-encoded, and an album whose name has quotes and a backslash.
    private static func music(_ music: MusicFolderFixture) throws {
      try MPDFixture.sampleMusic(music)
      try music.track(
        "Loose Songs & Co/01 A Song.ogg", TagEdit(artist: "Nobody", title: "A Song", trackNumber: "1", date: "2001"))
      try music.track(
        "Odd/Ünïcode/01 Q.ogg", TagEdit(album: #"Say "Hi" \ Back"#, artist: "Odd", title: "Q", trackNumber: "1"))
    }

    /// What must be the same whatever the source of the albums: each album's title, artist,
    /// year, genre, track count, folder (below the source's root; Mopidy's without its
    /// `local:track:`), and its tracks' discs, numbers, titles and artists, in order.
    /// What may differ is left out: the lengths (Mopidy gives whole seconds), the covers
    /// (Mopidy gives none), the files' times, sizes and formats, the roots, MusicBrainz
    /// release groups (a tag Mopidy does not read).
    private func contract(_ library: Library, root: String) throws -> [String] {
      try library.allAlbums().map { album in
        let tracklist = try #require(try library.tracklist(of: album))
        var folder = String((album.folder ?? "").dropFirst(root.count + 1))
        if folder.hasPrefix(MPDServer.localTrackPrefix + "/") {
          folder.removeFirst(MPDServer.localTrackPrefix.count + 1)
        }
        let tracks = tracklist.tracks.map {
          "\($0.disc ?? 0).\($0.number ?? 0) \($0.title ?? "-") / \($0.artist ?? "-")"
        }
        return "\(album.title) | \(album.artist) | \(album.year ?? 0) | \(album.genre) | \(album.tracks ?? 0) | "
          + "\(folder) | \(tracks.joined(separator: ", "))"
      }.sorted()
    }

    /// The three sources are three adapters of one seam (``MusicSource``: the folder a
    /// ``MusicFolderSource``), each brought in by the library's one importer
    /// (``Library/importSource(_:named:withDeleted:progress:isCancelled:)``), each with one
    /// kind of result, by the same rules: into a library of the untouched sample albums,
    /// the first albums of any source take their place in the same step, which one `undo`
    /// takes back.
    @Test func theSameMusicImportsAsTheSameAlbumsFromAFolderAnMPDAndAMopidy() throws {
      let mpd = try MPDFixture(prepare: Self.music)
      try mpd.start()
      let mopidy = try MopidyFixture(prepare: Self.music)
      try mopidy.start()
      let folder = MusicFolderSource(mopidy.music.root)
      let mpdServer = server(port: mpd.port)
      let mopidyServer = server(port: mopidy.port)
      defer {
        mpdServer.stop()
        mopidyServer.stop()
      }
      let fromFolder = Library.inMemory(source: folder)
      let fromMPD = Library.inMemory(source: mpdServer)
      let fromMopidy = Library.inMemory(source: mopidyServer)
      let samples = DefaultCatalogue.albums.map(\.title)
      #expect(try fromMPD.allAlbums().map(\.title) == samples)
      var results: [SourceImport] = []
      for (library, source) in [(fromFolder, folder), (fromMPD, mpdServer), (fromMopidy, mopidyServer)]
        as [(Library, any MusicSource)]
      {
        results.append(try library.importSource(source))
      }
      for result in results {
        #expect(result.added == 5 && result.tracks == 8 && result.samplesLeft == 5)
        #expect(result.summary?.hasSuffix(": 5 added, in place of the 5 sample albums") == true)
      }
      #expect(results.map(\.folder) == [mopidy.music.root, mpdServer.root, mopidyServer.root])
      let mpdSync = results[1]
      let mopidySync = results[2]
      #expect(mpdSync.added == 5 && mpdSync.tracks == 8)
      #expect(mopidySync.added == 5 && mopidySync.tracks == 8)

      let folderAlbums = try contract(fromFolder, root: mopidy.music.root)
      #expect(folderAlbums.count == 5)
      #expect(try contract(fromMPD, root: mpdServer.root) == folderAlbums)
      #expect(try contract(fromMopidy, root: mopidyServer.root) == folderAlbums)

      // Mopidy's albums are filed under its songs' URIs, decoded: a folder and a title as
      // the files' names read.
      let loose = try #require(try fromMopidy.allAlbums().first { $0.artist == "Nobody" })
      #expect(loose.title == "Loose Songs & Co")
      #expect(loose.folder == mopidyServer.root + "/local:track:/Loose Songs & Co")
      #expect(
        try fromMopidy.allAlbums().contains { $0.folder == mopidyServer.root + "/local:track:/Pink Floyd/The Wall" })
      // The lengths: MPD's to the millisecond, Mopidy's whole seconds.
      for (one, other) in zip(try fromMPD.allAlbums(), try fromMopidy.allAlbums()) {
        #expect(abs((one.duration ?? 0) - (other.duration ?? 0)) <= Double(one.tracks ?? 0))
      }
      // Nothing changed: the folder is not read again (its walk is the last scan's); the MPD
      // is not listed again; Mopidy, whose stats say nothing, is compared by its lists, and
      // its songs are the very ones of the last sync.
      let folderAgain = try fromFolder.sync()
      #expect(!folderAgain.listed && folderAgain.filesOpened == 0 && folderAgain.summary == nil)
      #expect(folderAgain.unchanged == 5)
      #expect(!(try fromMPD.sync().listed))
      let again = try fromMopidy.sync()
      #expect(!again.changedAlbums && again.summary == nil)
      // One undo: the samples back, the server's albums gone.
      #expect(try fromMPD.undo() != nil)
      #expect(try fromMPD.allAlbums().map(\.title) == samples)
    }

    @Test func anAlbumPastMopidysSearchCapIsListedWhole() throws {
      // `find` answers at most 3 songs: an album of 5, two albums named alike (4 songs in
      // one `find album`), a song without an album.
      let mopidy = try MopidyFixture(searchLimit: 3) { music in
        for number in 1...5 {
          try music.track(
            "Big/Long One/0\(number).flac",
            TagEdit(album: "Long One", artist: "Big", title: "Part \(number)", trackNumber: "\(number)"))
        }
        for artist in ["X", "Y"] {
          for number in 1...2 {
            try music.track(
              "\(artist)/Hits/0\(number).ogg",
              TagEdit(album: "Hits", artist: artist, title: "\(artist) \(number)", trackNumber: "\(number)"))
          }
        }
        try music.track("Loose/01.mp3", TagEdit(artist: "Z", title: "Alone"))
      }
      try mopidy.start()
      let capped = try mopidy.request("find album \"Long One\"").components(separatedBy: "file: ").count - 1
      #expect(capped == 3, "Mopidy cuts the answer at its max_search_results")
      let proxy = try MPDProxy(to: mopidy.port)
      defer { proxy.stop() }
      let server = server(port: proxy.port)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      let synced = try library.sync()
      #expect(synced.tracks == 10 && synced.added == 4)
      let albums = try library.allAlbums()
      #expect(albums.map(\.title).sorted() == ["Hits", "Hits", "Long One", "Loose"])
      let long = try #require(albums.first { $0.title == "Long One" })
      #expect(try library.tracklist(of: long)?.tracks.map(\.title) == (1...5).map { "Part \($0)" })
      // Requests: the features, the stats, the tags asked for, the lists' hash before and
      // after, `list album`, one list of `find album`, `list file`, one list of `find file`.
      #expect(proxy.requests <= 16, "\(proxy.lines)")
      #expect(!proxy.lines.contains { $0.hasPrefix("sticker") }, "Mopidy has no stickers: none is asked for")
      #expect(!proxy.lines.contains { $0.contains("window") || $0.contains("modified-since") })
    }

    @Test func aRescanOfMopidyIsSeenByTheNextSyncAndEachStartListsOnce() throws {
      let mopidy = try MopidyFixture(prepare: MPDFixture.sampleMusic)
      try mopidy.start()
      let home = try TemporaryDirectory()
      let path = home.file("mopidy.sqlite")
      let first = server(port: mopidy.port)
      defer { first.stop() }
      #expect(try Library.sync(libraryAt: path, source: first).added == 3)
      // Nothing changed, the same server object: its lists are the same, nothing is listed.
      #expect(!(try Library.sync(libraryAt: path, source: first).listed))

      try MPDFixture.silence(
        1, at: "Queen/Made in Heaven/01 Heaven.ogg", in: mopidy.music,
        TagEdit(album: "Made in Heaven", artist: "Queen", title: "Heaven", trackNumber: "1"))
      try mopidy.scan()
      let synced = try Library.sync(libraryAt: path, source: first)
      #expect(synced.listed && synced.added == 1 && synced.unchanged == 3)

      // A new start (a server object of its own) lists the songs once: the one way to see a
      // change that no list shows. They are the very songs of the last sync: nothing changes.
      let second = server(port: mopidy.port)
      defer { second.stop() }
      let restart = try Library.sync(libraryAt: path, source: second)
      #expect(restart.listed && !restart.changedAlbums)
    }

    @Test(.timeLimit(.minutes(2)))
    func aShellFollowingMopidyIsToldOfARescanByPolling() throws {
      let mopidy = try MopidyFixture(prepare: MPDFixture.sampleMusic)
      try mopidy.start()
      let server = server(port: mopidy.port, pollInterval: 0.2)
      defer { server.stop() }
      let changes = Mutex(0)
      server.setEventHandler { event in
        if event == .databaseChanged { changes.withLock { $0 += 1 } }
      }
      let library = Library.inMemory(seed: [], source: server)
      #expect(try library.sync().added == 3)
      server.startFollowing()
      try MPDFixture.silence(
        1, at: "Queen/Made in Heaven/01 Heaven.ogg", in: mopidy.music,
        TagEdit(album: "Made in Heaven", artist: "Queen", title: "Heaven", trackNumber: "1"))
      try mopidy.scan()
      let deadline = Date().addingTimeInterval(60)
      while changes.withLock({ $0 }) == 0 && Date() < deadline { usleep(20_000) }
      #expect(changes.withLock { $0 } >= 1, "the poller saw the rescan")
      #expect(try library.sync().added == 1)
    }

    @Test func whatMopidyLacksIsSaidOnceAndNotAskedAgain() async throws {
      let mopidy = try MopidyFixture(prepare: MPDFixture.sampleMusic)
      try mopidy.start()
      let proxy = try MPDProxy(to: mopidy.port)
      defer { proxy.stop() }
      let server = server(port: proxy.port)
      defer { server.stop() }
      let notices = Mutex<[String]>([])
      server.setEventHandler { event in
        if case .notice(let line) = event { notices.withLock { $0.append(line) } }
      }
      let library = Library.inMemory(seed: [], source: server)
      try library.sync()

      // ReplayGain: Mopidy lists `replay_gain_mode` and answers "Not implemented".
      let engine = try MPDEngine(server: server)
      engine.setReplayGain(.album, fallback: -6)
      engine.setReplayGain(.track, fallback: -6)
      #expect(proxy.lines.filter { $0.hasPrefix("replay_gain_mode") }.count == 1)
      #expect(
        notices.withLock { $0 }
          == [
            "MPD at 127.0.0.1:\(proxy.port) has no ReplayGain ('replay_gain_mode' refused): it plays the files as they are"
          ]
      )

      // Ratings: no sticker is asked for; the refusal is one line, the rating stays here.
      let album = try #require(try library.allAlbums().first)
      let index = try #require(try library.allAlbums().firstIndex { $0.id == album.id })
      let stickers = proxy.lines.filter { $0.hasPrefix("sticker") }.count
      #expect(throws: SourceError.self) {
        try server.share(.rating(4), onTracks: ["local:track:a.flac", "local:track:b.flac"])
      }
      #expect(proxy.lines.filter { $0.hasPrefix("sticker") }.count == stickers)
      _ = try library.rate(at: [index], stars: 4)
      #expect(
        library.takeSourceNote()?.hasSuffix(
          "keeps no stickers, where ratings and favourites are shared (kept in this library only)") == true)
      #expect(try library.allAlbums()[index].rating == 4)

      // Covers: said by the source, asked of nobody.
      let covers = MPDCoverSource(server: server)
      #expect(
        covers.setupProblem
          == "MPD at 127.0.0.1:\(proxy.port) gives no covers (it has neither 'readpicture' nor 'albumart')")
      let before = proxy.lines.count
      await #expect(throws: CoverFailure.downloadFailed(covers.setupProblem ?? "")) {
        _ = try await covers.fetch(album.coverURL, limits: CoverLimits(timeout: .seconds(5), maxBytes: 1 << 20))
      }
      // No picture is asked for (the library's own poller may ask the server something else
      // meanwhile: a line of it failed this once).
      let asked = proxy.lines.dropFirst(before).filter { $0.hasPrefix("readpicture") || $0.hasPrefix("albumart") }
      #expect(asked.isEmpty, "\(proxy.lines.dropFirst(before))")

      // Idle: never a subsystem the server does not name.
      #expect(try server.features().idleSubsystems(["database", "player", "sticker"]) == ["database", "player"])
    }

    @Test(.timeLimit(.minutes(1)))
    func mopidysPlayerSaysWhatPlaysRightAfterPlayAndItsLength() throws {
      let mopidy = try MopidyFixture { music in
        for number in 1...2 {
          try MPDFixture.silence(
            30, at: "Long/0\(number).ogg", in: music,
            TagEdit(album: "Long", artist: "L", title: "L\(number)", trackNumber: "\(number)"))
        }
      }
      try mopidy.start()
      let server = server(port: mopidy.port)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      try library.sync()
      let album = try #require(try library.allAlbums().first)
      let paths = try #require(try library.tracklist(of: album)).tracks.map(\.path)
      let engine = try MPDEngine(server: server)
      try engine.load(paths, from: 0)
      // Mopidy starts playing a moment after `play`: the status right after says it plays.
      let playing = try #require(engine.status())
      #expect(playing.index == 0 && playing.duration == 30)
      #expect(engine.skip(by: 1))
      let next = try #require(engine.status())
      #expect(next.index == 1 && next.duration == 30)
      engine.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aBurstOfRequestsToMopidyAllGetAnAnswer() throws {
      let mopidy = try MopidyFixture(prepare: MPDFixture.sampleMusic)
      try mopidy.start()
      let pid = try #require(mopidy.processIdentifier)
      // Mopidy takes connections from a backlog of one: of eight opened at once while it is
      // busy (stopped for half a second here), some are never greeted. Opened one at a
      // time, each greeted before the next is opened, all are.
      let server = server(port: mopidy.port, timeout: 8)
      defer { server.stop() }
      let failures = Mutex<[String]>([])
      kill(pid, SIGSTOP)
      let done = DispatchSemaphore(value: 0)
      for _ in 0..<8 {
        // Threads of their own, all waiting at once (the shared pool would start a few).
        Thread {
          do throws(SourceError) {
            try server.check()
          } catch {
            failures.withLock { $0.append(error.description) }
          }
          done.signal()
        }.start()
      }
      usleep(500_000)
      kill(pid, SIGCONT)
      for _ in 0..<8 { done.wait() }
      #expect(failures.withLock { $0 } == [])
    }
  }
}

extension RunsAlone {
  /// The listing album by album against a fake server: one whose version promises filter
  /// expressions and that refuses them, and one of MPD 0.20's protocol.
  @Suite(.serialized)
  struct ListingByAlbumTests {
    /// A server of two albums and a song without an album tag, greeting as `version`, whose
    /// `find` refuses filter expressions.
    private static func fake(version: String) throws -> FakeMPD {
      try FakeMPD([
        .scripted(greeting: "OK MPD \(version)\n") { command in
          let song = { (uri: String, album: String?) in
            "file: \(uri)\nTime: 3\nArtist: R\n" + (album.map { "Album: \($0)\n" } ?? "") + "Title: \(uri)\n"
          }
          switch command {
          case "stats": return .send("songs: 3\ndb_update: 1\nOK\n")
          case _ where command.hasPrefix("find \"(modified-since"):
            return .send("ACK [2@0] {find} incorrect arguments\n")
          case "list \"album\"": return .send("Album: One\nAlbum: Two\nOK\n")
          case "find \"album\" \"One\"": return .send(song("R/One/01.flac", "One") + "OK\n")
          case "find \"album\" \"Two\"": return .send(song("R/Two/01.flac", "Two") + "OK\n")
          case "list \"file\"": return .send("file: R/One/01.flac\nfile: R/Two/01.flac\nfile: R/Loose/01.flac\nOK\n")
          case "find \"file\" \"R/Loose/01.flac\"": return .send(song("R/Loose/01.flac", nil) + "OK\n")
          case _ where command.hasPrefix("idle"): return .bytes([])
          default: return FakeMPD.album(command)
          }
        }
      ])
    }

    @Test(arguments: ["0.23.5", "0.20.0"])
    func aServerWithoutFilterExpressionsIsListedAlbumByAlbumAndWhole(version: String) throws {
      let fake = try Self.fake(version: version)
      defer { fake.stop() }
      let server = MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: fake.port)), timeout: 5)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      let synced = try library.sync()
      #expect(synced.tracks == 3 && synced.added == 3)
      #expect(try library.allAlbums().map(\.title).sorted() == ["Loose", "One", "Two"])
      // A filter expression is sent once at most: when the version promised it, and was refused.
      let filters = { fake.commands.filter { $0.hasPrefix("find \"(modified-since") }.count }
      #expect(filters() == (version == "0.23.5" ? 1 : 0))
      var listed = 0
      try server.listTracks { listing in
        if case .tracks(let songs) = listing { listed += songs.count }
        return true
      }
      #expect(listed == 3)
      #expect(filters() == (version == "0.23.5" ? 1 : 0), "not sent again")
    }
  }
}
