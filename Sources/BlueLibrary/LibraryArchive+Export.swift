import AlbumArchive
import AlbumModel
import BlueSystem
internal import MusicFolder

extension LibraryArchive {
  /// The albums as JSON (``encodeJSON(_:)``), each album from a music folder with the tracks
  /// `library` has of it.
  package static func encodeJSON(_ albums: [Album], library: Library?) -> [UInt8] {
    encodeJSON(albums) { album in library.flatMap { try? $0.musicTracks(of: album) } }
  }

  /// Writes every album `library` holds to `path` — CSV when `csv`, else JSON — atomically
  /// and in bounded memory: the albums are read a page at a time and written as they come,
  /// so a million-album library costs the memory of one page. Where it may write, and the
  /// files it spares (the library's own), are as ``writeAtomically(_:to:sparing:)``.
  /// Returns what it wrote (``Exported``).
  ///
  /// With `playlist`, the file is an extended M3U playlist instead (`#EXTM3U`, then for each
  /// track of each album from a music folder `#EXTINF:SECONDS,ARTIST - TITLE` and its
  /// absolute path); albums without tracks are left out, and the count is of albums written.
  @discardableResult
  package static func export(
    _ library: Library, to path: String, csv: Bool, playlist: Bool = false, query: AlbumQuery? = nil
  ) throws(LibraryError) -> Exported {
    let target = try exportTarget(path)
    // With a query, only its matches (within the view); without, the whole library.
    let ids = try query.map { query throws(LibraryError) in try library.store.albumIDs(matching: library.scope(query)) }
    try refuseIfSpared(target, named: path, sparing: library.files)
    let music = csv ? try library.hasMusicFields() : false
    var written = 0
    var exported = Exported()
    do {
      try AtomicFile.write(to: target, mode: 0o666) { emit in
        var out: [UInt8] = []
        out.reserveCapacity(Self.exportBlock + 64 << 10)
        if csv { appendCSVHeader(music: music, to: &out) }
        if playlist { out += Array("#EXTM3U\n".utf8) }
        let count = try ids?.count ?? library.store.count()
        var start = 0
        while start < count {
          let range = start..<min(start + Self.exportPage, count)
          let page =
            try ids.map { ids throws(LibraryError) in try library.store.albums(ids: ids[range]) }
            ?? library.store.albums(in: range)
          for album in page {
            if playlist {
              guard let tracks = try library.musicTracks(of: album) else { continue }
              let (entries, leftOut) = appendM3U(album, tracks: tracks, to: &out)
              exported.tracks += entries
              exported.tracksLeftOut += leftOut
              // An album none of whose tracks could be written is not in the playlist.
              if entries == 0 { continue }
            } else if csv {
              appendCSV(album, music: music, to: &out)
            } else {
              appendJSON(album, tracks: try library.musicTracks(of: album), first: written == 0, to: &out)
            }
            written += 1
            if out.count >= Self.exportBlock {
              try out.withUnsafeBytes { try emit($0) }
              out.removeAll(keepingCapacity: true)
            }
          }
          guard !page.isEmpty else { break }
          start += page.count
        }
        if !csv && !playlist { endJSON(count: written, to: &out) }
        try out.withUnsafeBytes { try emit($0) }
      }
    } catch let error as LibraryError {
      throw error
    } catch let error as AtomicFileError {
      throw .cannotWrite(path: path, reason: error.reason)
    } catch {
      throw .cannotWrite(path: path, reason: String(describing: error))
    }
    exported.albums = written
    return exported
  }
}
