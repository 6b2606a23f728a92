import AlbumModel
import BlueLibrary

/// `FIELD=VALUE` as typed after `add` and `edit`.
struct FieldAssignment: Equatable {
  let field: AlbumField
  let value: String

  /// Parses `word` as an assignment; nil when it has no `=`.
  static func parse(_ word: Word) throws(CommandError) -> FieldAssignment? {
    guard let equals = word.text.firstIndex(of: "=") else { return nil }
    let name = String(word.text[..<equals])
    switch AlbumField(rawValue: name.lowercased()) {
    case .rating: throw CommandError("the rating is set with 'rate [ALBUM…] N' (0 to 5 stars), not rating=")
    case .fav: throw CommandError("a favourite is marked with 'fav [ALBUM…]' and 'unfav [ALBUM…]', not fav=")
    default: break
    }
    do {
      let field = try AlbumField(parsing: name)
      return FieldAssignment(field: field, value: String(word.text[word.text.index(after: equals)...]))
    } catch {
      throw CommandError(error)
    }
  }

  /// Applies assignments to `album`, validating each value.
  static func apply(_ assignments: [FieldAssignment], to album: Album) throws(CommandError) -> Album {
    var result = album
    do {
      for assignment in assignments {
        result = try result.setting(assignment.field, to: assignment.value)
      }
    } catch {
      throw CommandError(error)
    }
    return result
  }
}
