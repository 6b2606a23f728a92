import AlbumModel

// `edit ALBUM track N|RANGE|all FIELD=VALUE…`: tracks' title, artist and number, yours over
// what their files say, as one undoable step of their album; `write` puts them into the files.
extension Library {
  /// What ``editTracks(ofAlbumAt:places:_:)`` did.
  package struct TrackChange: Sendable {
    /// The album, as stored now.
    package var album: Album
    /// The tracks asked for, as `show` lists them now (with what its file says of each
    /// edited field), in the album's order.
    package var tracks: [Tracklist.Track]
    /// False when the tracks already said all of it: nothing was changed or logged.
    package var changed: Bool

    /// The first of ``tracks``.
    package var track: Tracklist.Track { tracks[0] }
  }

  /// ``editTracks(ofAlbumAt:places:_:)`` of one track.
  package func editTrack(ofAlbumAt index: Int, track place: Int, _ typed: TrackEdit) throws(LibraryError) -> TrackChange
  {
    try editTracks(ofAlbumAt: index, places: [place], typed)
  }

  /// Gives the tracks at `places` (1-based, as `show` lists the album's tracks; nil: every
  /// track) of the album at `index` what `typed` sets (nil fields are left as they are), as
  /// one undoable step (`edit "X" track 1-10 artist=Y`): one undo takes it all back. A value
  /// a file says already is no edit: the field follows the file again. The edits stay
  /// through imports of the folder (a file read again keeps the edits it does not say yet)
  /// and `write` puts them into the files.
  ///
  /// - Throws: ``LibraryError/noTrack(title:number:count:)`` for an album without that track
  ///   (or without tracks), ``LibraryError/noTracks(title:numbers:count:)`` naming every
  ///   place it does not have (nothing is changed then), or a store error.
  package func editTracks(
    ofAlbumAt index: Int, places: [Int]?, _ typed: TrackEdit
  ) throws(LibraryError) -> TrackChange {
    try editTracks(ofAlbumAt: index, places: places, typed, album: nil)
  }

  /// Gives the album at `index` the album artist `artist`, and `album`'s other fields (it
  /// is that album with more of `edit`'s fields set), as one undoable step: the album's
  /// artist, and the album-artist tag each of its files is to say, which `write` puts into
  /// them (even where it is what bluelib inferred: a compilation's "Various Artists").
  /// Throws as ``editTracks(ofAlbumAt:places:_:)``, or ``LibraryError/noTrack(title:number:count:)``
  /// for an album without tracks (not from a music folder: `artist=` is its album artist).
  package func editAlbumArtist(
    ofAlbumAt index: Int, to artist: String, with album: Album
  ) throws(LibraryError) -> TrackChange {
    var album = album
    album.artist = artist
    return try editTracks(ofAlbumAt: index, places: nil, TrackEdit(albumArtist: artist), album: album)
  }

  private func editTracks(
    ofAlbumAt index: Int, places: [Int]?, _ typed: TrackEdit, album edited: Album?
  ) throws(LibraryError) -> TrackChange {
    let album = try self.album(at: index)
    guard let id = album.id, let tracks = try tracklist(of: album)?.tracks, !tracks.isEmpty else {
      throw .noTrack(title: album.title, number: places?.first ?? 1, count: 0)
    }
    let wanted = places.map { Array(Set($0)).sorted() } ?? Array(1...tracks.count)
    let missing = wanted.filter { !tracks.indices.contains($0 - 1) }
    if missing.count == 1 { throw .noTrack(title: album.title, number: missing[0], count: tracks.count) }
    if !missing.isEmpty { throw .noTracks(title: album.title, numbers: missing, count: tracks.count) }
    let paths = wanted.map { tracks[$0 - 1].path }
    var edits: [(path: String, edit: TrackEdit)] = []
    for (path, (existing, file)) in zip(paths, try store.trackEditStates(paths: paths)) {
      var edit = existing
      if let title = typed.title { edit.title = title == file.title ? nil : title }
      if let artist = typed.artist { edit.artist = artist == (file.artist ?? "") ? nil : artist }
      if let number = typed.number { edit.number = number == file.number ? nil : number }
      if let albumArtist = typed.albumArtist { edit.albumArtist = albumArtist == file.albumArtist ? nil : albumArtist }
      if edit != existing { edits.append((path, edit)) }
    }
    let albumChanged = edited.map { $0 != album } ?? false
    guard !edits.isEmpty || albumChanged else {
      return TrackChange(album: album, tracks: wanted.map { tracks[$0 - 1] }, changed: false)
    }
    let named =
      edited != nil
      ? ""
      : places == nil
        ? " every track" : wanted.count == 1 ? " track \(wanted[0])" : " tracks " + LibraryError.ranges(wanted)
    _ = try change { (origin) throws(LibraryError) in
      try store.editTracks(
        edits, ofAlbum: id, album: albumChanged ? edited : nil, summary: "edit \"\(album.title)\"\(named)",
        origin: origin)
    }
    let now = try store.album(id: id) ?? album
    let after = try tracklist(of: now)?.tracks ?? tracks
    let shown = paths.map { path in after.first { $0.path == path } ?? tracks.first { $0.path == path }! }
    return TrackChange(album: now, tracks: shown, changed: true)
  }
}
