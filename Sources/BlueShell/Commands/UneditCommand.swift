import AlbumModel
import BlueLibrary

/// `unedit [ALBUM] [FIELD…]`: let fields of an album from a music folder follow its files
/// again — set them back to what the files said at the last import, so the next import
/// updates them as the tags change.
struct UneditCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "unedit", group: .change, synopsis: "[ALBUM] [FIELD…]",
    summary: "let edited fields of a music-folder album follow its files again",
    details: """
      An edit of an album imported from a music folder sticks: importing the folder again
      keeps it, whatever the tags say, and 'show' marks the field (edited; the files say …);
      so do a rating ('rate') and a favourite mark ('fav') that differ from the files'.
      unedit sets the FIELDs (title, artist, genre, year, cover, rating, fav; every edited
      one when none is given) back to what the files said at the last import, as one step
      for undo; the next import then follows the files.
      """,
    examples: ["unedit", "unedit 3 artist", "unedit \"OK Computer\" title year"],
    arguments: [.album, .keyword(AlbumField.allCases.map(\.rawValue))])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    let fields = CommandConfiguration.Argument.keyword(AlbumField.allCases.map(\.rawValue))
    return position == 0 ? [.album, fields] : [fields]
  }

  let album: AlbumReference?
  let fields: [AlbumField]

  init(arguments: [Word]) throws(CommandError) {
    var words = arguments[...]
    if let first = words.first, first.isQuoted || AlbumField(rawValue: first.text.lowercased()) == nil {
      album = AlbumReference(word: first)
      words = words.dropFirst()
    } else {
      album = nil
    }
    var fields: [AlbumField] = []
    for word in words {
      do throws(LibraryError) {
        fields.append(try AlbumField(parsing: word.text, among: AlbumField.allCases))
      } catch {
        throw CommandError(error.description)
      }
    }
    self.fields = fields
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let index = try album.resolve(in: library)
    let before = try library.album(at: index)
    guard let filesSay = try library.filesSay(of: before) else {
      throw CommandError("\(quotedTitle(before)) did not come from a music folder: its fields have no files to follow")
    }
    let edited = before.editedFields(comparedWith: filesSay)
    let chosen = fields.isEmpty ? edited : fields.filter(edited.contains)
    guard !chosen.isEmpty else {
      let which =
        fields.isEmpty
        ? "has no edited field"
        : (fields.map(\.rawValue).joined(separator: ", ") + (fields.count > 1 ? " were" : " was") + " not edited")
      return .lines(["\(quotedTitle(before)) \(which); nothing changed"])
    }
    let (_, after) = try library.edit(before.followingFiles(filesSay, in: chosen))
    let message = "\(quotedTitle(after)) follows its files again: " + chosen.map(\.rawValue).joined(separator: ", ")
    return index == library.selection ? .changed(message) : .changedAlbum(message, after)
  }
}
