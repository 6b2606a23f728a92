import AlbumModel
internal import MusicFolder

// `write`: an album's fields into the tags of its files, as one step undo takes back, kept
// in a journal until the last file is written (see AlbumStore+WriteJournal.swift).
extension Library {
  /// What ``writeTags(of:)`` did.
  package struct TagWrite: Sendable, Equatable {
    /// Albums whose files were written.
    package var albums: Int
    /// Files written.
    package var files: Int
    /// Albums whose files already say what the album says: nothing to write.
    package var unchanged: Int
    /// Albums with no files to write: not from a music folder, or their files gone.
    package var withoutFiles: Int
    /// The step `undo` takes back, nil when nothing was written.
    package var summary: String?
    /// What was done first about writes a stopped bluelib left halfway (see
    /// ``finishInterruptedWrites()``), one line each.
    package var notices: [String] = []
  }

  /// Writes each of `albums`' title (as the album tag), artist (as the album-artist tag),
  /// year (the date tag), genre, and the rating and favourite mark you gave it, into the
  /// tags of its files, as one step: `undo` writes
  /// the old tags back. Each file is compared with the album on its own: it gets the
  /// album's title and artist where its tags say another, and the album's genre and year
  /// where it has none — or, for a field you edited (it differs from what the files say),
  /// wherever its tag differs; a file that already says all of it is not touched.
  ///
  /// The step and every file's tags before and after are committed first, as a journal;
  /// then each file is written safely (a copy beside it, synced and renamed over it: never a
  /// half-written file); the journal is closed after the last. When one file cannot be
  /// written the files written before it are put back and the step dropped, and the error
  /// names it; so they are when a signal stops the write (SIGTERM; SIGINT in a script) or
  /// `isCancelled` says so (Ctrl-C at a terminal): it is cancelled.
  /// Killed midway, the next bluelib finishes it (``finishInterruptedWrites()``). A file whose
  /// rating or favourite mark is written has every rating tag it holds kept first, as it
  /// holds it, for undo to put back.
  /// Afterwards what the files say is what the albums say, so the next import of their
  /// folder changes nothing.
  ///
  /// - Throws: ``LibraryError/cannotWrite(path:reason:)`` naming the file or folder,
  ///   ``LibraryError/changedBeforeWriting(title:)``, ``LibraryError/writeInProgress(summary:pid:)``,
  ///   ``LibraryError/cancelled`` on a signal (the files as they were), or a store error.
  package func writeTags(of albums: [Album], isCancelled: () -> Bool = { false }) throws(LibraryError) -> TagWrite {
    endCommand()
    var result = TagWrite(albums: 0, files: 0, unchanged: 0, withoutFiles: 0)
    result.notices = try finishInterruptedWrites()
    var writes: [AlbumStore.AlbumWrite] = []
    var folders: [Set<String>] = []  // the folders of each write's files
    // A server's files are reached only through its protocol, which writes no tags.
    if let first = albums.first, let server = Self.server(of: first), albums.allSatisfy({ Self.server(of: $0) != nil })
    {
      throw .filesOnServer(title: first.title, server: server)
    }
    for album in albums {
      if Self.server(of: album) != nil {
        result.withoutFiles += 1
        continue
      }
      guard let id = album.id, let key = album.sourceKey, let folder = album.folder,
        let said = try store.scannedAlbum(forKey: key), let tracklist = try store.tracklist(forKey: key),
        !tracklist.missing, !tracklist.tracks.isEmpty
      else {
        result.withoutFiles += 1
        continue
      }
      let edited = Set(album.editedFields(comparedWith: said))
      let step = try store.step(ofAlbum: id)
      // A track artist you edited would leave the tracks without one artist they share: the
      // album artist then goes into every file that lacks the tag, or the next import would
      // call the album "Various Artists".
      let pinsAlbumArtist = !album.artist.isEmpty && tracklist.tracks.contains { $0.fileSays[.artist] != nil }
      var files: [AlbumStore.FileWrite] = []
      for track in tracklist.tracks {
        guard case .track(let tags) = TrackTags.read(track.path) else {
          throw .cannotWrite(path: track.path, reason: "it cannot be read as audio; nothing was written")
        }
        var edit = Self.edit(of: tags, toSay: album, edited: edited, filesSaid: said, track: track)
        if pinsAlbumArtist, tags.albumArtist == nil { edit.albumArtist = album.artist }
        guard edit != AlbumStore.FileTags() else { continue }
        if album.year == 0, edit.date != nil {
          throw .cannotWrite(
            path: folder,
            reason: "year 0 cannot be written to a tag (a date of 0000 reads as no year); nothing was written")
        }
        var file = AlbumStore.FileWrite(path: track.path, before: .init(of: tags, touchedBy: edit), after: edit)
        if edit.rating != nil || edit.favourite != nil {
          // Every rating tag as the file holds it (other players' too), for undo to put back.
          do {
            file.ratingTags = try TagEdit.ratingTags(of: track.path)
          } catch {
            throw .cannotWrite(
              path: track.path,
              reason: (error.keepsAPlayCount ? TagEdit.playCountReason : "its rating tags cannot be read")
                + "; nothing was written")
          }
        }
        files.append(file)
      }
      guard !files.isEmpty else {
        result.unchanged += 1
        continue
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
          album: written, step: step, oldKey: key,
          filesSaidBefore: .init(
            album: said.title, albumArtist: said.artist, date: said.year.map(String.init),
            genre: said.genre, rating: said.rating.map(String.init), favourite: said.favourite ? "1" : ""),
          filesSayAfter: .init(
            album: album.title, albumArtist: album.artist, date: album.year.map(String.init),
            genre: album.genre, rating: album.rating.map(String.init), favourite: album.favourite ? "1" : ""),
          files: files))
      folders.append(Set(tracklist.tracks.compactMap { AlbumStore.parent(of: $0.path) }))
    }
    guard !writes.isEmpty else { return result }
    try refuseJoiningFoldersBeside(writes, folders: folders)
    let files = writes.flatMap(\.files)
    try AlbumStore.checkWritable(files.map(\.path))
    let summary =
      writes.count == 1
      ? "write \"\(writes[0].album.title)\" to \(Self.counted(files.count, "file"))"
      : "write \(Self.albumCount(writes.count)) to \(Self.counted(files.count, "file"))"
    let step = try change { (origin) throws(LibraryError) in
      try store.beginWrite(writes, summary: summary, origin: origin)
    }
    try finishJournal(of: step, undoing: nil, isCancelled: isCancelled)
    result.albums = writes.count
    result.files = files.count
    result.summary = step.summary
    return result
  }

  /// What a file with `tags` must be given to say what `album` says (nil for a tag left
  /// alone): title and artist wherever the file says another one (every file of an album
  /// says the same, as the scan groups them by these), genre and year where it has none;
  /// and a field in `edited` wherever it differs. A track's own genre or year (a
  /// compilation's) is kept unless you edited that field. The rating and favourite mark are
  /// written only when you changed them (they differ from what the files said `said`). A
  /// track whose artist was the album artist the files said gets the album's new one; a
  /// track's title, artist, number and album artist you edited (`track`) go into its file.
  private static func edit(
    of tags: TrackTags, toSay album: Album, edited: Set<AlbumField>, filesSaid said: Album, track: Tracklist.Track
  ) -> AlbumStore.FileTags {
    var edit = AlbumStore.FileTags()
    // The track's own fields you edited, wherever the file says another.
    if track.fileSays[.title] != nil, let title = track.title, tags.title != title { edit.title = title }
    if track.fileSays[.number] != nil, let number = track.number, tags.trackNumber != number {
      edit.number = String(number)
    }
    if track.fileSays[.artist] != nil {
      if (tags.artist ?? "") != (track.artist ?? "") { edit.artist = track.artist ?? "" }
    } else if edited.contains(.artist), !said.artist.isEmpty, let artist = tags.artist,
      artist.lowercased() == said.artist.lowercased(), artist != album.artist
    {
      // The track artist follows an album artist you changed where it was the old one (the
      // artist tag and the album-artist tag agreed, and still do); a guest's stays.
      edit.artist = album.artist
    }
    if (tags.album ?? "") != album.title, edited.contains(.title) || tags.album != nil {
      edit.album = album.title
    }
    if (tags.albumArtist ?? "") != album.artist, edited.contains(.artist) || tags.albumArtist != nil {
      edit.albumArtist = album.artist
    }
    // The album artist you gave the track's file (`edit ALBUM albumartist=…`), wherever it
    // says another, or none.
    if track.fileSays[.albumartist] != nil, let albumArtist = track.albumArtist {
      edit.albumArtist = tags.albumArtist == albumArtist ? nil : albumArtist
    }
    if (tags.genre ?? "") != album.genre, edited.contains(.genre) || tags.genre == nil {
      edit.genre = album.genre
    }
    if tags.year != album.year, edited.contains(.year) || tags.year == nil {
      edit.date = album.year.map(String.init) ?? ""
    }
    // Yours alone: written only when you rated (or marked) the album since its files said
    // otherwise, into each file that says another.
    if edited.contains(.rating), tags.rating != album.rating {
      edit.rating = album.rating.map(String.init) ?? ""
    }
    if edited.contains(.fav), tags.favourite != album.favourite {
      edit.favourite = album.favourite ? "1" : ""
    }
    return edit
  }

  /// Refuses a write that gives an album the title and artist of an album in a folder
  /// beside one of its own (the same parent): the next import would join the two into one
  /// album (a two-disc set in `CD1/` and `CD2/` is one) and leave the other behind.
  private func refuseJoiningFoldersBeside(
    _ writes: [AlbumStore.AlbumWrite], folders: [Set<String>]
  ) throws(LibraryError) {
    var after: [String: (title: String, artist: String, year: Int?)] = [:]
    for write in writes {
      after[write.oldKey] = (write.album.title, write.album.artist, write.album.year)
    }
    for (write, own) in zip(writes, folders) {
      let album = write.album
      guard
        write.files.contains(where: { $0.after.album != nil || $0.after.albumArtist != nil || $0.after.date != nil })
      else { continue }
      for other in try store.albumsBeside(own) where other.key != write.oldKey {
        let (title, artist, year) = after[other.key] ?? (other.title, other.artist, other.year)
        guard title == album.title, artist == album.artist, year == nil || album.year == nil || year == album.year
        else { continue }
        throw .cannotWrite(
          path: album.folder ?? "",
          reason: "the folder beside it, '\(other.folder)', holds \"\(title)\" by \(artist) too, and the next import "
            + "would join them into one album; nothing was written")
      }
    }
  }

  /// Writes the files of `step`'s journal (a write; an undo when `undoing` is true, a redo
  /// when false) and turns a roll-back into the error that names the file. A signal, or
  /// `isCancelled`, cancels it: the files written are put back, and ``LibraryError/cancelled``
  /// thrown.
  func finishJournal(of step: ChangeStep, undoing: Bool?, isCancelled: () -> Bool = { false }) throws(LibraryError) {
    let end = try store.runJournal(
      step.id, shouldStop: { store.interruptRequested || isCancelled() }, whenStopped: .cancel)
    if case .cancelled(_, let stuck) = end {
      guard let first = stuck.first else { throw .cancelled }
      throw .cannotWrite(
        path: first,
        reason: "cancelled, and \(Self.counted(stuck.count, "file")) written before could not be put back: "
          + stuck.map { "'\($0)'" }.joined(separator: ", "))
    }
    guard case .rolledBack(let path, let reason, let putBack, let stuck) = end else { return }
    let nothing = undoing.map { $0 ? "nothing undone" : "nothing redone" } ?? "nothing changed"
    guard stuck.isEmpty else {
      throw .cannotWrite(
        path: path,
        reason: reason + "; and \(Self.counted(stuck.count, "file")) written before it could not be put back: "
          + stuck.map { "'\($0)'" }.joined(separator: ", "))
    }
    let back =
      putBack == 0
      ? "" : "; the \(Self.counted(putBack, "file")) written before it \(putBack == 1 ? "was" : "were") put back"
    throw .cannotWrite(path: path, reason: reason + back + "; " + nothing)
  }

  /// Finishes the writes (or their undo or redo) that a bluelib stopped by a crash or a
  /// `kill -9` left halfway, whose journal is still open: each file is given what the
  /// journal writes, unless another program changed it since; when one cannot be, every
  /// file is put back and the library with them. One a signal cancelled (a bluelib that died
  /// putting its files back) is put back. The hidden copies the stopped writer left are
  /// removed. Returns one line for each, to tell the user; none usually. The shell calls it
  /// at start; `write`, `undo` and `redo` call it first.
  package func finishInterruptedWrites() throws(LibraryError) -> [String] {
    var notices: [String] = []
    for journal in try store.abandonedJournals() {
      let name: String
      switch journal.direction {
      case .write: name = LibraryError.quoted(journal.summary)
      case .undo: name = "the undo of " + LibraryError.quoted(journal.summary)
      case .redo: name = "the redo of " + LibraryError.quoted(journal.summary)
      }
      let end = try store.runJournal(
        journal.step, shouldStop: { store.interruptRequested }, whenStopped: .leave)
      func listed(_ paths: [String]) -> String {
        paths.prefix(3).map { LibraryError.quoted($0) }.joined(separator: ", ") + (paths.count > 3 ? ", …" : "")
      }
      switch end {
      case .finished(let written, let files, let leftAlone):
        var line =
          "finished \(name), which a stopped bluelib left halfway: \(Self.grouped(written)) of "
          + "\(Self.counted(files, "file")) written now"
        if !leftAlone.isEmpty {
          line +=
            "; \(Self.counted(leftAlone.count, "file")) left as \(leftAlone.count == 1 ? "it was" : "they were")"
            + " (their tags changed since: another program?): " + listed(leftAlone)
        }
        notices.append(line)
      case .rolledBack(let path, let reason, let putBack, let stuck):
        var line =
          "could not finish \(name), which a stopped bluelib left halfway: cannot write "
          + "\(LibraryError.quoted(path)): \(reason); \(Self.counted(putBack, "file")) put back as before, "
          + "and the library with them"
        if !stuck.isEmpty { line += "; \(Self.counted(stuck.count, "file")) could not be put back: " + listed(stuck) }
        notices.append(line)
      case .cancelled(let putBack, let stuck):
        var line =
          "put back \(name), which a stopped bluelib was cancelling: \(Self.counted(putBack, "file")) put back as "
          + "before now, and the library with them"
        if !stuck.isEmpty { line += "; \(Self.counted(stuck.count, "file")) could not be put back: " + listed(stuck) }
        notices.append(line)
      }
    }
    return notices
  }
}
