internal import MusicFolder

// `write`: an album's fields into the tags of its files, as one step undo takes back.
extension Library {
  /// What ``writeTags(of:)`` did.
  public struct TagWrite: Sendable, Equatable {
    /// Albums whose files were written.
    public var albums: Int
    /// Files written.
    public var files: Int
    /// Albums whose files already say what the album says: nothing to write.
    public var unchanged: Int
    /// Albums with no files to write: not from a music folder, or their files gone.
    public var withoutFiles: Int
    /// The step `undo` takes back, nil when nothing was written.
    public var summary: String?
  }

  /// Writes each of `albums`' title (as the album tag), artist (as the album-artist tag),
  /// year (the date tag) and genre, those that differ from what its files say, into the
  /// tags of every one of its files, as one step: `undo` writes the old tags back. Each
  /// file is written safely (a copy beside it, synced and renamed over it: never a
  /// half-written file) and all or nothing: when one file cannot be written (read-only, say)
  /// the files written before it are put back and the error names it. Afterwards what the
  /// files say is what the albums say, so the next import of their folder changes nothing.
  ///
  /// - Throws: ``LibraryError/cannotWrite(path:reason:)`` naming the file or folder, or a
  ///   store error; nothing is written then.
  public func writeTags(of albums: [Album]) throws(LibraryError) -> TagWrite {
    endCommand()
    var result = TagWrite(albums: 0, files: 0, unchanged: 0, withoutFiles: 0)
    var writes: [AlbumStore.AlbumWrite] = []
    for album in albums {
      guard let key = album.sourceKey, let folder = album.folder, let said = try store.scannedAlbum(forKey: key),
        let tracklist = try store.tracklist(forKey: key), !tracklist.missing, !tracklist.tracks.isEmpty
      else {
        result.withoutFiles += 1
        continue
      }
      let fields = Set(album.editedFields(comparedWith: said))
      guard !fields.subtracting([.cover]).isEmpty else {
        result.unchanged += 1
        continue
      }
      let edit = AlbumStore.FileTags(
        album: fields.contains(.title) ? album.title : nil, albumArtist: fields.contains(.artist) ? album.artist : nil,
        date: fields.contains(.year) ? album.year.map(String.init) ?? "" : nil,
        genre: fields.contains(.genre) ? album.genre : nil)
      var files: [AlbumStore.FileWrite] = []
      for track in tracklist.tracks {
        guard case .track(let tags) = TrackTags.read(track.path) else {
          throw .cannotWrite(path: track.path, reason: "it cannot be read as audio; nothing was written")
        }
        files.append(AlbumStore.FileWrite(path: track.path, before: .init(of: tags, touchedBy: edit), after: edit))
      }
      // The key the next scan gives the album (unless the scan gave it a copy's suffix).
      var written = album
      if key == MusicAlbum.key(folder: folder, artist: said.artist, title: said.title) {
        let newKey = MusicAlbum.key(folder: folder, artist: album.artist, title: album.title)
        // Two albums of one folder with one title and artist would be one album to the next
        // import: refused before a file is touched.
        if newKey != key, try store.keyIsTaken(newKey) || writes.contains(where: { $0.album.sourceKey == newKey }) {
          throw .cannotWrite(
            path: folder,
            reason: "another album of this folder is \"\(album.title)\" by \(album.artist); its files would make them "
              + "one album. Nothing was written")
        }
        written.sourceKey = newKey
      }
      writes.append(
        AlbumStore.AlbumWrite(
          album: written, oldKey: key,
          filesSaidBefore: .init(
            album: said.title, albumArtist: said.artist, date: said.year.map(String.init),
            genre: said.genre),
          filesSayAfter: .init(
            album: album.title, albumArtist: album.artist, date: album.year.map(String.init),
            genre: album.genre),
          files: files))
    }
    guard !writes.isEmpty else { return result }
    let files = writes.flatMap(\.files)
    try AlbumStore.writeFiles(files)
    let summary =
      writes.count == 1
      ? "write \"\(writes[0].album.title)\" to \(Self.counted(files.count, "file"))"
      : "write \(Self.albumCount(writes.count)) to \(Self.counted(files.count, "file"))"
    let step: ChangeStep
    do {
      step = try change { (origin) throws(LibraryError) in
        try store.recordWrite(writes, summary: summary, origin: origin)
      }
    } catch {
      // The library could not record it: the files go back as they were.
      try? AlbumStore.writeFiles(files, back: true)
      throw error
    }
    result.albums = writes.count
    result.files = files.count
    result.summary = step.summary
    return result
  }
}
