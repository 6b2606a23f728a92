import AlbumModel

// `edit ALBUM track N FIELD=VALUE…`: one track's title, artist and number, yours over what
// its file says, as an undoable step of its album; `write` puts them into the file.
extension Library {
  /// What ``editTrack(ofAlbumAt:track:_:)`` did.
  package struct TrackChange: Sendable {
    /// The album, as stored now.
    package var album: Album
    /// The track, as `show` lists it now (with what its file says of each edited field).
    package var track: Tracklist.Track
    /// False when the track already said all of it: nothing was changed or logged.
    package var changed: Bool
  }

  /// Gives the `place`th track (1-based, as `show` lists the album's tracks) of the album at
  /// `index` what `typed` sets (nil fields are left as they are), as one undoable step
  /// (`edit "X" track 3`). A value the file says already is no edit: the field follows the
  /// file again. The edit stays through imports of the folder (a file read again keeps the
  /// edits it does not say yet) and `write` puts it into the file.
  ///
  /// - Throws: ``LibraryError/noTrack(title:number:count:)`` for an album without that track
  ///   (or without tracks), or a store error.
  package func editTrack(ofAlbumAt index: Int, track place: Int, _ typed: TrackEdit) throws(LibraryError) -> TrackChange
  {
    let album = try self.album(at: index)
    guard let id = album.id, let tracks = try tracklist(of: album)?.tracks, !tracks.isEmpty else {
      throw .noTrack(title: album.title, number: place, count: 0)
    }
    guard tracks.indices.contains(place - 1) else {
      throw .noTrack(title: album.title, number: place, count: tracks.count)
    }
    let path = tracks[place - 1].path
    let (existing, file) = try store.trackEditState(path: path)
    var edit = existing
    if let title = typed.title { edit.title = title == file.title ? nil : title }
    if let artist = typed.artist { edit.artist = artist == (file.artist ?? "") ? nil : artist }
    if let number = typed.number { edit.number = number == file.number ? nil : number }
    guard edit != existing else { return TrackChange(album: album, track: tracks[place - 1], changed: false) }
    _ = try change { (origin) throws(LibraryError) in
      try store.editTrack(
        path: path, ofAlbum: id, to: edit, summary: "edit \"\(album.title)\" track \(place)", origin: origin)
    }
    let now = try self.album(at: index)
    let track = try tracklist(of: now)?.tracks.first { $0.path == path } ?? tracks[place - 1]
    return TrackChange(album: now, track: track, changed: true)
  }
}
