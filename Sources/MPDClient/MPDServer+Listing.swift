import BlueSystem
import FoundationEssentials
import MusicSource

/// What ``MPDServer`` keeps of the listing of a server whose `stats` say nothing (Mopidy):
/// its lists' hash as last seen, for the poller to compare.
struct ListingState {
  /// ``MPDServer/listsHash(_:)`` as last seen; nil before.
  var lists: String?
  /// Whether the server's `stats` say nothing (no update time); nil until asked.
  var statsSayNothing: Bool?
  /// Whether the poller runs.
  var polling = false
  /// A number of this server object's own, part of a fingerprint made of lists
  /// (``MPDServer/fingerprint()``).
  let start = String(UInt64.random(in: 1...UInt64.max), radix: 16)
}

// The songs of a server that takes no filter expression nor `window` (Mopidy; an MPD
// before 0.21), and the changes of one whose `stats` say nothing (Mopidy).
//
// Why album by album: of the ways Mopidy answers every song with its tags, `find` of each
// album (`list album`, then `find album "X"`, fifty to a command list) is the one that
// depends on nothing but MPD's protocol, and the fastest (3,011 songs in 0.56 s, against
// 1.5 s for `lsinfo "Local media/Tracks"`, whose name is Mopidy-Local's configuration,
// which a user may change). What it misses — the songs without an album tag, and those
// past `[local] max_search_results` (100 by default) in an album that has more, which
// Mopidy cuts without a word — `list file` finds (every song's URI, uncapped, 21 ms for
// those 3,011): each it names that no `find` gave is asked alone (`find file "URI"`, two
// hundred to a list). So the listing is whole whatever the cap, in a number of requests
// that grows with the albums (one a fifty), and holds one command list's answer and a hash
// of each song's URI, not the songs.
extension MPDServer {
  /// The albums one command list of `find album` asks for.
  static let albumsPerRequest = 50
  /// The songs one command list of `find file` asks for.
  static let songsPerFind = 200

  /// The number ``ListingState/start`` of this server object.
  var startNumber: String { listingState.withLock { $0.start } }

  /// Lists every song album by album (``songsByAlbum(_:marks:_:)``); when the database
  /// changed meanwhile (its version, or, where `stats` say nothing, its lists' hash),
  /// lists them again, at most three times.
  func listByAlbum(
    _ connection: MPDConnection, marks: [String: (rating: Int?, favourite: Bool)],
    _ receive: (SourceListing) -> Bool
  ) throws(MPDError) {
    /// What tells a change: the version, else the lists.
    func stamp() throws(MPDError) -> String {
      let version = try Self.version(connection)
      return Self.saysNothing(version) ? try listsHash(connection) : version
    }
    for attempt in 0..<3 {
      if attempt > 0, !receive(.again) { return }
      let before = try stamp()
      guard try songsByAlbum(connection, marks: marks, receive) else { return }
      let after = try stamp()
      if after == before {
        listingState.withLock { state in if state.statsSayNothing == true { state.lists = after } }
        return
      }
    }
  }

  /// Every song: those of each album (`list album`, then `find album "X"` in command lists
  /// of ``albumsPerRequest``, the albums in the order of their names), then those `list
  /// file` names that no `find` gave (`find file "URI"` in lists of ``songsPerFind``), each
  /// answer handed to `receive` as it arrives; false when `receive` stopped it.
  private func songsByAlbum(
    _ connection: MPDConnection, marks: [String: (rating: Int?, favourite: Bool)],
    _ receive: (SourceListing) -> Bool
  ) throws(MPDError) -> Bool {
    var albums: [String] = []
    try connection.stream(MPDCommand("list", "album")) { name, value in
      guard MPDConnection.equals(name, "Album") else { return }
      let album = String(decoding: value, as: UTF8.self)
      // A name of blanks finds nothing (Mopidy drops it from the query); one with a line
      // break cannot be sent: their songs come by their URIs.
      if album.contains(where: { !$0.isWhitespace }), !album.contains(where: \.isNewline) { albums.append(album) }
    }
    // Mopidy lists them in no set order: in one order, the same songs make the same listing.
    albums.sort()
    // A hash of each URI handed on: what `list file` names beside them is what is missing.
    var listed = Set<UInt64>()
    func hand(_ songs: [SourceTrack]) -> Bool {
      let fresh = songs.filter { listed.insert(Self.hash($0.uri)).inserted }
      return fresh.isEmpty || receive(.tracks(Self.marked(fresh, by: marks)))
    }
    /// The songs `find TAG VALUE` finds for each of `values`, `perList` in a command list.
    func find(_ tag: String, _ values: [String], perList: Int) throws(MPDError) -> Bool {
      var start = 0
      while start < values.count {
        let batch = values[start..<min(start + perList, values.count)]
        var reader = SongReader()
        try connection.streamList(batch.map { MPDCommand("find", tag, $0) }) { name, value in
          _ = reader.take(name, value)
        }
        guard hand(reader.finish()) else { return false }
        start += batch.count
      }
      return true
    }
    guard try find("album", albums, perList: Self.albumsPerRequest) else { return false }
    var missing: [String] = []
    do throws(MPDError) {
      try connection.stream(MPDCommand("list", "file")) { name, value in
        guard MPDConnection.equals(name, "file") else { return }
        let uri = String(decoding: value, as: UTF8.self)
        if !listed.contains(Self.hash(uri)) { missing.append(uri) }
      }
    } catch  where error.leavesConnectionUsable {
      // A server without `list file`: the songs without an album tag stay unlisted.
      notify("\(name): the songs without an album tag are not listed ('list file' refused)")
    }
    missing.sort()
    return try find("file", missing, perList: Self.songsPerFind)
  }

  /// `songs` with the rating and favourite mark `marks` keeps for each (by URI).
  static func marked(_ songs: [SourceTrack], by marks: [String: (rating: Int?, favourite: Bool)]) -> [SourceTrack] {
    guard !marks.isEmpty else { return songs }
    var songs = songs
    for index in songs.indices {
      guard let mark = marks[songs[index].uri] else { continue }
      songs[index].rating = mark.rating
      songs[index].favourite = mark.favourite
    }
    return songs
  }

  /// 64 bits (FNV-1a) of `text`.
  static func hash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  /// The tags whose lists of values make ``listsHash(_:)``, beside the songs' URIs.
  static let tagsListed = ["Album", "AlbumArtist", "Artist", "Title", "Date", "Genre"]

  /// A hash of what the server lists, for a server whose `stats` say nothing: one command
  /// list of `list file` (every song's URI) and `list` of each of ``tagsListed`` it knows
  /// (each value once), mixed in any order (Mopidy lists them in none), nothing held.
  /// A song added, removed or moved changes it, and so does a change of tags that changes
  /// a list: a new album, title, artist, date or genre, one gone. One that leaves every
  /// list as it was (a track's number corrected, two titles swapped) does not.
  ///
  /// Kept as the last seen, for the poller (``startPolling()``).
  func listsHash(_ connection: MPDConnection) throws(MPDError) -> String {
    let known = Set(try features(connection).tags ?? Self.tagsListed)
    let commands =
      [MPDCommand("list", "file")] + Self.tagsListed.filter(known.contains).map { MPDCommand("list", $0) }
    var sum: UInt64 = 0
    var lines = 0
    try connection.streamList(commands) { name, value in
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in UnsafeRawBufferPointer(name) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      hash = (hash ^ 0x3A) &* 0x100_0000_01b3
      for byte in UnsafeRawBufferPointer(value) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      sum &+= hash
      lines += 1
    }
    let hash = String(sum, radix: 16) + "-\(lines)"
    listingState.withLock { state in
      state.lists = hash
      state.statsSayNothing = true
    }
    return hash
  }

  // MARK: - Polling

  /// Starts the poller, unless it runs: every ``pollInterval`` seconds, a server whose
  /// `stats` say nothing is asked for its lists' hash (``listsHash(_:)``), and a change of
  /// it is told as a change of the database, as MPD's `idle database` tells one. Mopidy
  /// tells no client of a rescan. A server whose `stats` say something is left to `idle`:
  /// the poller ends as soon as it knows.
  func startPolling() {
    guard pollInterval > 0 else { return }
    DetachedThread.start(
      name: "mpd poll", in: listingState,
      claiming: { state in
        guard !state.polling, state.statsSayNothing != false else { return false }
        state.polling = true
        return true
      },
      running: { [self] in poll() })
  }

  private func poll() {
    defer { listingState.withLock { $0.polling = false } }
    while !sleepUnlessStopped(pollInterval) {
      let (says, before) = listingState.withLock { ($0.statsSayNothing, $0.lists) }
      if says == false { return }
      let now: String?
      do throws(MPDError) {
        now = try withConnection { connection throws(MPDError) -> String? in
          if says == nil, !Self.saysNothing(try Self.version(connection)) { return nil }
          return try listsHash(connection)
        }
      } catch {
        // The server is away (the listener says so, and tells a change once it is back),
        // or refuses: looked at again after the next pause.
        continue
      }
      guard let now else {
        listingState.withLock { $0.statsSayNothing = false }
        return
      }
      if let before, before != now { tellDatabaseChanged() }
    }
  }
}

extension MPDError {
  /// Whether a `find` refused its filter expression (`ACK [2@0] {find} incorrect arguments`).
  var refusesFilters: Bool {
    if case .refused(2, "find", _) = reason { true } else { false }
  }
}
