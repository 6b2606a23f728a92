import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// MPD's own database file of a generated library (issue 47, item 6): the text `db` MPD
/// reads at start (format 2; MPD reads it plain as well as gzipped), so a server of 20,000
/// songs needs no audio file — its music folder is empty and `auto_update` off. The header
/// names the server's tags exactly (`tagtypes`): MPD discards a database whose tag list is
/// not its own. Then one `directory:`/`begin:` block an artist, one inside it an album, and
/// a `song_begin:` entry a song, with the tags a sync reads (those of them the server has).
///
/// The library: `albums` albums of `songs` songs between them (as even as can be), seven
/// albums an artist, every 25th album a compilation (in `Compilations/`, `Various Artists`
/// as its album artist, each song by another artist), every 20th on two discs in one folder,
/// every third with MusicBrainz ids, and some names that are not ASCII.
struct MPDDatabase: Equatable {
  var songs: Int
  var albums: Int

  /// The library the issue measures: 20,145 songs in 1,679 albums.
  static let issue = MPDDatabase(songs: 20_145, albums: 1_679)

  /// The songs of album `album` (0-based).
  func songCount(ofAlbum album: Int) -> Int {
    songs / albums + (album < songs % albums ? 1 : 0)
  }

  static func artist(_ number: Int) -> String {
    // A tenth of the artists have names that are not ASCII.
    number % 10 == 3 ? String(format: "Artiste %04d Ørsted Café", number) : String(format: "Artist %04d", number)
  }

  /// The whole file, for a server whose `tagtypes` are `tags` and whose version is `version`.
  func text(tags: [String], version: String = "0.23.12", modified: Int = 1_700_000_000) -> String {
    var out = "info_begin\nformat: 2\nmpd_version: \(version)\nfs_charset: UTF-8\n"
    for tag in tags { out += "tag: \(tag)\n" }
    out += "info_end\n"
    let known = Set(tags)
    let albumsPerArtist = 7
    func album(_ number: Int, folder: String, albumArtist: String) -> String {
      let year = 1960 + number % 60
      let title = String(format: "Album %04d", number) + (number % 9 == 4 ? " — Live à Paris" : "")
      let directory = "\(title) (\(year))"
      let path = folder + "/" + directory
      var out = "directory: \(directory)\nmtime: \(modified)\nbegin: \(path)\n"
      let count = songCount(ofAlbum: number)
      let compilation = number % 25 == 24
      let twoDiscs = number % 20 == 4
      for song in 1...count {
        let disc = twoDiscs ? (song <= count / 2 ? 1 : 2) : 1
        let trackNumber = twoDiscs && disc == 2 ? song - count / 2 : song
        out += String(format: "song_begin: %02d Song %d.flac\n", song, song)
        out += "Time: \(200 + song).000\n"
        var fields: [(String, String)] = [
          ("Artist", compilation ? Self.artist((number * 7 + song) % 300) : albumArtist),
          ("Album", title), ("Title", "Song \(song) of \(number)"), ("Track", "\(trackNumber)"),
          ("Date", number % 2 == 0 ? "\(year)-05-21" : "\(year)"),
          ("Genre", ["Rock", "Jazz", "Pop", "Folk"][number % 4]),
        ]
        if compilation || number % 4 == 1 { fields.append(("AlbumArtist", albumArtist)) }
        if twoDiscs { fields.append(("Disc", "\(disc)")) }
        if number % 3 == 0 {
          fields.append(("MUSICBRAINZ_ALBUMID", String(format: "00000000-0000-4000-8000-%012d", number)))
          fields.append(("MUSICBRAINZ_TRACKID", String(format: "00000000-0000-4000-9000-%08d%04d", number, song)))
        }
        for (name, value) in fields where known.contains(name) { out += "\(name): \(value)\n" }
        out += "mtime: \(modified)\nsong_end\n"
      }
      out += "end: \(path)\n"
      return out
    }
    var compilations: [Int] = []
    var number = 0
    var artist = 0
    while number < albums {
      let name = Self.artist(artist)
      var block = ""
      for _ in 0..<albumsPerArtist where number < albums {
        if number % 25 == 24 {
          compilations.append(number)
        } else {
          block += album(number, folder: name, albumArtist: name)
        }
        number += 1
      }
      if !block.isEmpty { out += "directory: \(name)\nmtime: \(modified)\nbegin: \(name)\n" + block + "end: \(name)\n" }
      artist += 1
    }
    if !compilations.isEmpty {
      out += "directory: Compilations\nmtime: \(modified)\nbegin: Compilations\n"
      for number in compilations { out += album(number, folder: "Compilations", albumArtist: "Various Artists") }
      out += "end: Compilations\n"
    }
    return out
  }
}

/// A real MPD (Debian's `mpd`) serving a ``MPDDatabase`` on 127.0.0.1: its configuration,
/// database, log and an empty music folder in `directory`, a null audio output, no state
/// file, no automatic update. Started twice: once without a database, to ask its
/// `tagtypes`, then with the database written for them.
final class BenchMPD {
  let directory: String
  let port: Int
  let database: MPDDatabase
  private let mpd: String
  private let environment: [String]
  private var child: BackgroundChild?

  init(mpd: String, database: MPDDatabase, in directory: String, environment: [String]) throws(SetupError) {
    self.mpd = mpd
    self.database = database
    self.directory = directory
    self.environment = environment
    port = try Loopback.freePort()
    DataSet.remove(directory)
    try DataSet.makeDirectory(directory + "/music")
    let configuration = """
      music_directory "\(directory)/music"
      db_file "\(directory)/db"
      log_file "\(directory)/log"
      bind_to_address "127.0.0.1"
      port "\(port)"
      auto_update "no"
      zeroconf_enabled "no"
      audio_output {
        type "null"
        name "null"
      }

      """
    do {
      try Data(configuration.utf8).write(to: URL(fileURLWithPath: directory + "/mpd.conf"))
    } catch {
      throw SetupError("cannot write \(directory)/mpd.conf: \(error.localizedDescription)")
    }
  }

  deinit { stop() }

  /// Asks a first start for its tags, writes the database, and starts MPD on it; waits until
  /// its `stats` count the songs.
  func start() throws(SetupError) {
    try launch(songs: 0)
    guard let answer = Loopback.mpdRequest(port: port, "tagtypes") else {
      throw SetupError("mpd did not answer 'tagtypes': \(log)")
    }
    let tags = answer.split(separator: "\n").compactMap { line in
      line.hasPrefix("tagtype: ") ? String(line.dropFirst("tagtype: ".count)) : nil
    }
    stop()
    do {
      // (MPD reads its version line and does not compare it.)
      try Data(database.text(tags: tags).utf8).write(to: URL(fileURLWithPath: directory + "/db"))
    } catch {
      throw SetupError("cannot write \(directory)/db: \(error.localizedDescription)")
    }
    try launch(songs: database.songs)
  }

  /// Starts MPD and waits (up to 30 s) until `stats` says `songs`.
  private func launch(songs: Int) throws(SetupError) {
    do {
      child = try BackgroundChild(
        executable: mpd, arguments: ["--no-daemon", "--stderr", directory + "/mpd.conf"], environment: environment,
        logPath: directory + "/stderr")
    } catch {
      throw SetupError("cannot start mpd: \(error)")
    }
    let deadline = monotonicSeconds() + 30
    while monotonicSeconds() < deadline {
      if child?.hasExited == true { throw SetupError("mpd exited: \(log)") }
      if let stats = Loopback.mpdRequest(port: port, "stats"),
        stats.contains("\nsongs: \(songs)\n")
          || stats.hasPrefix("songs: \(songs)\n")
      {
        return
      }
      usleep(50_000)
    }
    throw SetupError("mpd did not serve \(songs) songs on port \(port) within 30 s: \(log)")
  }

  func stop() {
    child?.end()
    child = nil
  }

  /// The last lines MPD wrote, for a failure.
  var log: String {
    let text = DataSet.contents(ofFileAt: directory + "/stderr") + DataSet.contents(ofFileAt: directory + "/log")
    return text.split(separator: "\n").suffix(3).joined(separator: " / ")
  }
}

extension Bench {
  /// The format `mpc` prints each song in: the tags a sync reads, its time and length.
  static let mpcFormat =
    "%file%\t%artist%\t%albumartist%\t%album%\t%title%\t%track%\t%date%\t%genre%\t%disc%\t%musicbrainz_trackid%\t"
    + "%musicbrainz_albumid%\t%musicbrainz_releasegroupid%\t%time%\t%mtime%"

  /// The first sync of an MPD serving ``MPDDatabase/issue`` (`bluelib --home FRESH --mpd
  /// 127.0.0.1:PORT -c quit`) against `mpc` fetching the same songs with the same tags, in
  /// turn.
  func runMPD() {
    let title = "first sync of an MPD of \(grouped(MPDDatabase.issue.songs)) songs"
    let ours = "bluelib --home FRESH --mpd 127.0.0.1:PORT -c quit"
    let theirs = "mpc -h 127.0.0.1 -p PORT -f '…' search '(modified-since \"0\")'"
    var row = ReferenceRow(
      title: title, bluelibCommand: ours, referenceCommand: theirs, bluelib: Measurement(), reference: Measurement(),
      goal: MPDDatabase.goal)
    defer { results.references.append(row) }
    let environment = ProcessInfo.processInfo.environment
    guard
      let mpd = findInPath("mpd", environment: environment)
        ?? (access("/usr/sbin/mpd", X_OK) == 0 ? "/usr/sbin/mpd" : nil),
      let mpc = findInPath("mpc", environment: environment)
    else {
      row.skipped = "mpd or mpc is not installed (Debian: apt install mpd mpc)"
      return
    }
    let server: BenchMPD
    do {
      log("starting mpd on a database of \(grouped(MPDDatabase.issue.songs)) songs…")
      server = try BenchMPD(mpd: mpd, database: .issue, in: work + "/mpd", environment: childEnvironment)
      try server.start()
    } catch {
      row.bluelib.failure = "setup: \(error)"
      return
    }
    defer { server.stop() }
    let port = String(server.port)
    let runs = options.runsPerScenario
    let sync = { (run: Int) throws(RunFailure) -> ChildRun in
      let directory = "\(self.work)/runs/mpd-\(run)"
      defer { DataSet.remove(directory) }
      try DataSet.freshRun(directory, making: directory + "/home")
      let child = try self.invoke(
        self.bluelib, ["--home", directory + "/home", "--mpd", "127.0.0.1:" + port, "-c", "quit"], input: .null,
        in: directory, keepOutput: true)
      try Self.expectServerAlbums(MPDDatabase.issue.albums, in: directory + "/home")
      return child
    }
    let search = ["-h", "127.0.0.1", "-p", port, "-f", Self.mpcFormat, "search", "(modified-since \"0\")"]
    let fetch = { (run: Int) throws(RunFailure) -> ChildRun in
      let directory = "\(self.work)/runs/mpc-\(run)"
      defer { DataSet.remove(directory) }
      let child = try self.invoke(mpc, search, input: .null, in: directory, keepOutput: true)
      let lines = DataSet.contents(ofFileAt: directory + "/stdout", limit: 64 << 20).utf8.count { $0 == 10 }
      guard lines == MPDDatabase.issue.songs else {
        throw RunFailure(message: "mpc printed \(lines) songs, expected \(MPDDatabase.issue.songs)")
      }
      return child
    }
    // One untimed run each: the page cache, the server's first answers.
    _ = try? sync(0)
    _ = try? fetch(0)
    (row.bluelib, row.reference) = measureInTurn(("mpd bluelib", "mpd mpc"), runs: runs, sync, fetch)
  }

  /// Checks that the one library file of a server under `home` holds `count` albums.
  static func expectServerAlbums(_ count: Int, in home: String) throws(RunFailure) {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: home + "/servers"))?.filter {
      $0.hasSuffix(".sqlite")
    }
    guard let files, files.count == 1 else {
      throw RunFailure(message: "no library file of the server in \(home)/servers")
    }
    let albums: Int
    do {
      albums = try DataSet.albumCount(at: home + "/servers/" + files[0])
    } catch {
      throw RunFailure(message: "after the sync: \(error)")
    }
    guard albums == count else {
      throw RunFailure(message: "the sync made \(grouped(albums)) albums, expected \(grouped(count))")
    }
  }
}

extension MPDDatabase {
  /// The most a first sync may take against `mpc` (issue 47, item 6).
  static let goal = 1.5
}
