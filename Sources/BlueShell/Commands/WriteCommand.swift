import AlbumModel
import BlueLibrary

/// `write [ALBUM…|all]`: write albums' fields into the tags of their music files, as one
/// step that `undo` takes back by writing the old tags.
struct WriteCommand: AlbumChoosingCommand {
  static let configuration = CommandConfiguration(
    verb: "write", group: .change, synopsis: "[ALBUM…|all]",
    summary: "write albums' fields into the tags of their files (undo writes the old tags back)",
    details: """
      Writes the album's title (as the album tag), artist (as the album-artist tag), year
      (the date tag) and genre into the tags of every one of its files: the fields that
      differ from what the files say ('show' marks them: edited; the files say …). One step
      for all of it: 'undo' writes the old tags back. Each file is written to a copy beside
      it, synced and renamed over it, so no crash leaves a half-written file; the audio is
      not touched. A read-only file or folder stops the whole step with nothing written.
      The step is recorded before the first file is written: if bluelib is killed midway,
      its next start finishes the write (or, if a file cannot be written, puts all back);
      Ctrl-C or SIGTERM cancels it, putting back the files written so far.
      Undo gives each file its rating tags back as they were, other players' included.
      Each file is compared on its own: a track's own genre or year is kept unless you
      edited that field.
      ALBUM is an index, a range (2-4) or a title, several at once; 'all' is every album of
      the view. Afterwards, importing the folder again changes nothing.
      """,
    examples: ["write", "write 3", "write 2-4 7", "write all"],
    arguments: [.album])

  let choice: AlbumChoice

  init(arguments: [Word]) throws(CommandError) {
    choice = try AlbumChoice(arguments: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let indices = try choice.indices(in: library)
    var albums: [Album] = []
    var start = 0
    // Page through the store: `write all` never loads a huge library whole.
    while start < indices.count {
      let page = indices[start..<min(start + 1000, indices.count)]
      for index in page { albums.append(try library.album(at: index)) }
      start = page.endIndex
    }
    let result: Library.TagWrite
    do throws(LibraryError) {
      result = try library.writeTags(of: albums, isCancelled: environment.cancellation.check())
    } catch {
      throw CommandError(error)
    }
    if albums.count == 1, result.albums == 0 {
      let title = quotedTitle(albums[0])
      if result.withoutFiles == 1 {
        throw CommandError("\(title) has no music files to write to (not from a music folder, or its files are gone)")
      }
      return .lines(result.notices + ["\(title): its files already say what the album says; nothing to write"])
    }
    var parts: [String] = []
    if result.albums > 0 {
      parts.append(
        "wrote " + (albums.count == 1 ? quotedTitle(albums[0]) : albumCount(result.albums)) + " to "
          + Library.counted(result.files, "file"))
    }
    if result.unchanged > 0 { parts.append("\(albumCount(result.unchanged)) already as their files say") }
    if result.withoutFiles > 0 { parts.append("\(albumCount(result.withoutFiles)) without music files") }
    let message = parts.isEmpty ? "nothing to write" : parts.joined(separator: "; ")
    // What was finished first of a write a stopped bluelib left halfway.
    guard result.summary != nil else { return .lines(result.notices + [message]) }
    return .changed((result.notices + [message]).joined(separator: "\n"), redraw: false)
  }
}
