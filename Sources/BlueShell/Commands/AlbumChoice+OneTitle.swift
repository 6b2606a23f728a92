import BlueLibrary

extension AlbumChoice {
  /// The albums `words` name, as ``init(arguments:)`` reads them, except that several words
  /// none of which is a number, range, `all` or quoted are one title typed without quotes
  /// (`rate OK Computer 5`); nil when no word was typed (the current album).
  init?(oneTitleFrom words: [Word]) throws(CommandError) {
    guard !words.isEmpty else { return nil }
    if words.count > 1, words.allSatisfy({ !$0.isQuoted && !AlbumReferences.namesByNumber($0.text) }) {
      try self.init(arguments: [try AlbumReference(restOfLine: words[...]).word])
    } else {
      try self.init(arguments: words)
    }
  }

  /// The indices `choice` names (the current album's when nil), at most
  /// ``EditCommand/maximumAlbums`` of them.
  static func indices(_ choice: AlbumChoice?, in library: Library, verb: String) throws -> [Int] {
    let indices = try choice?.indices(in: library) ?? [Optional<AlbumReference>.none.resolve(in: library)]
    guard !indices.isEmpty else { throw CommandError("no albums to \(verb) (\(library.extent(0)))") }
    guard indices.count <= EditCommand.maximumAlbums else {
      throw CommandError(
        "\(verb) changes at most \(Library.grouped(EditCommand.maximumAlbums)) albums at once, not "
          + "\(Library.grouped(indices.count)) (narrow the view with 'find')")
    }
    return indices
  }
}
