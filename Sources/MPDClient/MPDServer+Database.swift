import BlueCovers
import BlueSystem
import MusicSource

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The server's database as a source of albums: its version (the time of its last update)
// and its songs, listed a few thousand at a time.
extension MPDServer {
  /// The songs one `find … window` asks for: an answer of a few megabytes at most, well
  /// under MPD's output buffer (`max_output_buffer_size`, 8 MiB by default), which one
  /// `listallinfo` of a large database overflows.
  static let songsPerRequest = 4000

  /// The most songs read in one answer from a server that ignores `window` (it answers every
  /// song each time): a few hundred megabytes at most.
  static let mostSongsAtOnce = 200_000

  /// The longest a song may be, in seconds: a year, as an album's length is capped
  /// (`Album.maximumDuration`).
  static let longestSong: Double = 366 * 86_400

  /// The tags a sync reads (`tagtypes enable`): the others are left out of the answers.
  static let tagsRead = [
    "Artist", "AlbumArtist", "Album", "Title", "Track", "Date", "Genre", "Disc", "MUSICBRAINZ_TRACKID",
    "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_RELEASEGROUPID", "Composer",
  ]

  /// The database's version, and the stickers bluelib shares (a rating set by another
  /// bluelib changes it too, so the next sync reads it). From a server whose `stats` say
  /// nothing (Mopidy: all zeros), a hash of its lists of values (``listsHash(_:)``)
  /// and a number of this server object's own, so each start lists the songs once: the
  /// lists miss a change that leaves every one of them as it was (a track's number
  /// corrected), which only a listing sees.
  package func fingerprint() throws(SourceError) -> String {
    do throws(MPDError) {
      return try withConnection { connection throws(MPDError) in
        let version = try Self.version(connection)
        if Self.saysNothing(version) {
          let lists = try listsHash(connection)
          return "lists \(lists) \(startNumber)"
        }
        listingState.withLock { $0.statsSayNothing = false }
        // What an MPD speaks is not asked here: a start with nothing changed costs what it
        // did (the stickers are asked for, and a refusal says there are none).
        let marks = knownFeatures?.has("sticker") == false ? nil : try Self.marks(connection)
        return version + " " + Self.fingerprint(of: marks ?? [:])
      }
    } catch {
      throw error.sourceError
    }
  }

  /// The stickers `rating` (0 to 10, two a star) and `like` (`2` for a favourite) of every
  /// song that has them: the marks bluelib shares through the server. None when the server
  /// keeps no stickers (no `sticker_file`); nil when it refused to find either.
  static func marks(_ connection: MPDConnection) throws(MPDError) -> [String: (rating: Int?, favourite: Bool)]? {
    var marks: [String: (rating: Int?, favourite: Bool)] = [:]
    var refused = 0
    for name in [ratingSticker, likeSticker] {
      let answer: [(name: String, value: String)]
      do throws(MPDError) {
        answer = try connection.run(MPDCommand("sticker", "find", "song", "", name))
      } catch  where error.leavesConnectionUsable {
        refused += 1
        continue
      }
      var song: String?
      for (key, value) in answer {
        if key == "file" {
          song = value
        } else if key == "sticker", let uri = song, value.hasPrefix(name + "=") {
          let text = value.dropFirst(name.count + 1)
          var mark = marks[uri] ?? (nil, false)
          if name == ratingSticker, let points = Int(text), points > 0 {
            // Capped first: any number a sticker holds (`rating=9223372036854775807`).
            mark.rating = (min(points, 10) + 1) / 2
          } else if name == likeSticker {
            mark.favourite = text == "2"
          }
          marks[uri] = mark
          song = nil
        }
      }
    }
    return refused == 2 ? nil : marks
  }

  /// The sticker that keeps a song's rating, 0 to 10 (two a star).
  static let ratingSticker = "rating"
  /// The sticker that marks a song a favourite: `2` (liked).
  static let likeSticker = "like"

  /// 16 hex digits (FNV-1a) of `marks`, in the order of their songs.
  private static func fingerprint(of marks: [String: (rating: Int?, favourite: Bool)]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for (uri, mark) in marks.sorted(by: { $0.key < $1.key }) {
      for byte in "\(uri)\u{0}\(mark.rating ?? 0)\(mark.favourite)\u{0}".utf8 {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    return String(hash, radix: 16)
  }

  /// Sets the sticker on every song in command lists of a hundred (MPD commits each sticker
  /// on its own, about 1.5 ms: a list stays well within the timeout); takes it off song by
  /// song (MPD refuses the delete of a sticker a song does not have, which would end a list).
  /// A server without stickers (Mopidy; MPD without a `sticker_file`) is not asked: it
  /// refuses, in one line.
  package func share(_ mark: SharedMark, onTracks paths: [String]) throws(SourceError) {
    let uris = paths.map(Self.uri(ofPlace:))
    if let features = knownFeatures, !features.has("sticker") {
      throw SourceError("\(name) keeps no stickers, where ratings and favourites are shared", refused: true)
    }
    let (name, value): (String, String?) =
      switch mark {
      case .rating(let stars): (Self.ratingSticker, stars.map { String(min(max($0, 1), 5) * 2) })
      case .favourite(let favourite): (Self.likeSticker, favourite ? "2" : nil)
      }
    do throws(MPDError) {
      guard let value else {
        for uri in uris { try deleteSticker(name, ofSong: uri) }
        return
      }
      var start = 0
      while start < uris.count {
        let batch = uris[start..<min(start + 100, uris.count)]
        try withConnection { connection throws(MPDError) in
          try connection.runList(batch.map { MPDCommand("sticker", "set", "song", $0, name, value) })
        }
        start += batch.count
      }
    } catch {
      throw error.sourceError
    }
  }

  /// Whether a ``version(_:)`` says nothing: no update time (Mopidy's `stats` are zeros).
  static func saysNothing(_ version: String) -> Bool {
    version.hasPrefix("0 ")
  }

  /// `stats`' `db_update` and song count: what changes when the database does.
  static func version(_ connection: MPDConnection) throws(MPDError) -> String {
    let stats = try connection.run(MPDCommand("stats"))
    let update = stats.first { $0.name == "db_update" }?.value ?? "0"
    let songs = stats.first { $0.name == "songs" }?.value ?? "0"
    return update + " " + songs
  }

  /// The song count of a ``version(_:)``; 0 when it is not a count.
  private static func songCount(of version: String) -> Int {
    version.split(separator: " ").last.flatMap { Int($0) }.map { max($0, 0) } ?? 0
  }

  /// Lists the songs a window at a time (``songsPerRequest``), each with its marks; when
  /// the database's version changed meanwhile (an update ended between two windows, which
  /// would mix two databases), lists them again, at most three times.
  package func listTracks(_ receive: (SourceListing) -> Bool) throws(SourceError) {
    do throws(MPDError) {
      try withConnection { connection throws(MPDError) in
        let features = try features(connection)
        try Self.readTags(only: Self.tagsRead, known: features.tags, connection)
        defer { if features.tags != nil { _ = try? connection.run(MPDCommand("tagtypes", "all")) } }
        // Only the songs that have a mark are held, by their place.
        let found = features.has("sticker") ? try Self.marks(connection) : nil
        guard let marks = found ?? (receive(.withoutMarks) ? [:] : nil) else { return }
        if !features.filters {
          try listByAlbum(connection, marks: marks, receive)
          return
        }
        for attempt in 0..<3 {
          if attempt > 0, !receive(.again) { return }
          let before = try Self.version(connection)
          let listed: (finished: Bool, ignoredWindow: String?)
          do throws(MPDError) {
            listed = try Self.allSongs(connection, count: Self.songCount(of: before)) { window in
              receive(.tracks(Self.marked(window, by: marks)))
            }
          } catch  where attempt == 0 && error.refusesFilters {
            // A server whose version promised filter expressions, and that refuses them.
            learnFiltersRefused()
            try listByAlbum(connection, marks: marks, receive)
            return
          }
          let (finished, ignoredWindow) = listed
          if let ignoredWindow { notify(name + ": " + ignoredWindow) }
          if !finished { return }
          if try Self.version(connection) == before { return }
        }
      }
    } catch {
      throw error.sourceError
    }
  }

  /// Asks the server for `tags` only, of those it knows (`known`: an older MPD knows fewer,
  /// Mopidy no MusicBrainz release group); nothing is asked when it did not say which.
  private static func readTags(only tags: [String], known: [String]?, _ connection: MPDConnection) throws(MPDError) {
    guard let known = known.map(Set.init) else { return }
    let wanted = tags.filter { known.contains($0) }
    try connection.run(MPDCommand("tagtypes", "clear"))
    if !wanted.isEmpty { try connection.run(MPDCommand("tagtypes", ["enable"] + wanted)) }
  }

  /// Every song, in the database's order, `songsPerRequest` at a time, of a database of
  /// `count` songs (as `stats` says), each window handed to `receive` as it arrives (a song
  /// listed twice, the database shifting under the windows, is the receiver's to drop);
  /// whether the listing ran to its end (false when `receive` stopped it), and, when the
  /// server ignores `window`, the line that says so.
  ///
  /// No answer may hold more songs than its window, but the first, which is taken whole
  /// (up to `count` songs) from a server that answers every song each time. The listing
  /// ends at the first answer of fewer songs than the window, at one that is the window
  /// before again (by a hash of its songs' places: nothing of the listing is held), or once
  /// the windows pass a `count` the server gave: a server that ignores `window` is not
  /// asked for ever.
  private static func allSongs(
    _ connection: MPDConnection, count: Int, _ receive: ([SourceTrack]) -> Bool
  ) throws(MPDError) -> (finished: Bool, ignoredWindow: String?) {
    var listed = 0
    var previous: UInt64?
    var start = 0
    func window(from start: Int) -> MPDCommand {
      MPDCommand("find", "(modified-since '0')", "window", "\(start):\(start + songsPerRequest)")
    }
    try connection.send(window(from: 0))
    while true {
      let limit = start == 0 ? min(max(songsPerRequest, count), mostSongsAtOnce) : songsPerRequest
      var reader = SongReader(limit: limit)
      try connection.streamAnswer { name, value throws(MPDError) in
        guard reader.take(name, value) else {
          throw connection.error(
            .badAnswer(
              limit > songsPerRequest
                ? "more than the \(Counting.grouped(limit)) songs of its stats in one answer to 'find … window'"
                : "more than the \(songsPerRequest) songs asked for in one answer to 'find … window'"))
        }
      }
      let chunk = reader.finish()
      let places = Self.placesHash(chunk)
      if start > 0, !chunk.isEmpty, places == previous {
        return (
          true,
          "the server ignores 'window' (it sent the same songs again); \(Counting.grouped(listed)) of "
            + "the \(Counting.grouped(count)) songs of its stats were read"
        )
      }
      previous = places
      // The next window is asked for before this one is handed over: the server finds and
      // writes it while `receive` files these (a tenth of a first sync's time, measured).
      let last = chunk.count != songsPerRequest || (count > 0 && start + songsPerRequest >= count)
      if !last { try connection.send(window(from: start + songsPerRequest)) }
      guard receive(chunk) else { return (false, nil) }
      listed += chunk.count
      if chunk.count > songsPerRequest {
        return (true, "the server ignores 'window' (it sent \(Counting.grouped(chunk.count)) songs at once)")
      }
      if last { return (true, nil) }
      start += songsPerRequest
    }
  }

  /// 64 bits (FNV-1a) of the places of `songs`, in order.
  private static func placesHash(_ songs: [SourceTrack]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for song in songs {
      var uri = song.uri
      uri.withUTF8 { bytes in
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      }
      hash = (hash ^ 0) &* 0x100_0000_01b3
    }
    return hash
  }

  package func coverURL(ofTrack path: String) -> String {
    root + "/" + LocalCover.percentEncoded(path)
  }

  /// `text` with its `%XX` sequences decoded; nil when one is malformed or the bytes are not UTF-8.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// Songs from the `NAME: VALUE` lines of a listing: each `file:` line starts one; a
/// `directory:` or `playlist:` line ends it.
struct SongReader {
  private(set) var songs: [SourceTrack] = []
  /// The song being read (while ``reading``), edited in place: an optional one, set through
  /// `current!`, was copied whole for each of its lines (two fifths of a listing's parse).
  private var current = SourceTrack(uri: "")
  private var reading = false
  /// The most songs taken.
  let limit: Int

  /// A reader of at most `limit` songs.
  init(limit: Int = .max) {
    self.limit = limit
  }

  /// Takes one line; false when it starts a song past ``limit`` (the answer is longer than
  /// asked for: stop reading it).
  mutating func take(_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
    func text() -> String { String(decoding: value, as: UTF8.self) }
    func named(_ expected: StaticString) -> Bool { MPDConnection.equals(name, expected) }
    if named("file") {
      if reading { songs.append(current) }
      guard songs.count < limit else {
        reading = false
        return false
      }
      let uri = text()
      current = SourceTrack(uri: uri)
      current.path = MPDServer.place(ofURI: uri)
      reading = true
      return true
    }
    if named("directory") || named("playlist") {
      if reading { songs.append(current) }
      reading = false
      return true
    }
    guard reading else { return true }
    // The first value of a tag given several times, as one tag.
    switch name.count {
    case 4 where named("Date"): if current.date == nil { current.date = text() }
    case 4 where named("Disc"): if current.disc == nil { current.disc = Self.leadingNumber(value) }
    case 4 where named("Time"): if current.duration == 0 { current.duration = Self.length(value) ?? 0 }
    case 5 where named("Album"): if current.album == nil { current.album = text() }
    case 5 where named("Title"): if current.title == nil { current.title = text() }
    case 5 where named("Track"): if current.track == nil { current.track = Self.leadingNumber(value) }
    case 5 where named("Genre"): if current.genre == nil { current.genre = text() }
    case 6 where named("Artist"): if current.artist == nil { current.artist = text() }
    // `44100:24:2` (rate, bits, channels; `dsd64:2`, `*` for what it does not know): the rate.
    case 6 where named("Format"): current.sampleRate = Self.leadingNumber(value) ?? 0
    case 8 where named("Composer"): if current.composer == nil { current.composer = text() }
    case 8 where named("duration"): current.duration = Self.length(value) ?? current.duration
    case 11 where named("AlbumArtist"): if current.albumArtist == nil { current.albumArtist = text() }
    case 13 where named("Last-Modified"): current.modified = Self.seconds(iso8601: value) ?? 0
    case 19 where named("MUSICBRAINZ_TRACKID"):
      if current.musicBrainzTrackID == nil { current.musicBrainzTrackID = text() }
    case 19 where named("MUSICBRAINZ_ALBUMID"):
      if current.musicBrainzAlbumID == nil { current.musicBrainzAlbumID = text() }
    case 26 where named("MUSICBRAINZ_RELEASEGROUPID"):
      if current.musicBrainzReleaseGroupID == nil { current.musicBrainzReleaseGroupID = text() }
    default: break
    }
    return true
  }

  /// A song's length from its `duration` (or `Time`), nil when it is not a number: 0
  /// (unknown) for one that is not finite, at most a year (``MPDServer/longestSong``), so no
  /// length the server sends makes a track that traps where its length is shown (`1e19`,
  /// `1e308`) or that the library cannot store (`nan`).
  static func length(_ value: UnsafeBufferPointer<UInt8>) -> Double? {
    guard value.count <= 64, let seconds = Double(String(decoding: value, as: UTF8.self)) else { return nil }
    return seconds.isFinite ? min(max(seconds, 0), MPDServer.longestSong) : 0
  }

  /// The songs read, the last one included.
  mutating func finish() -> [SourceTrack] {
    if reading { songs.append(current) }
    reading = false
    return songs
  }

  /// The number `value` starts with (`3/12` → 3), nil when none.
  static func leadingNumber(_ value: UnsafeBufferPointer<UInt8>) -> Int? {
    var number = 0
    var digits = 0
    for byte in value {
      if byte == UInt8(ascii: " ") && digits == 0 { continue }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { break }
      number = number * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
    }
    return digits > 0 ? number : nil
  }

  /// `2008-09-28T20:04:57Z` as seconds since 1970; nil when it is not that form.
  static func seconds(iso8601 value: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard value.count >= 19 else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var result: Int64 = 0
      for index in range {
        let byte = value[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        result = result * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return result
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
      let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month)
    else { return nil }
    return secondsSince1970(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  }
}
