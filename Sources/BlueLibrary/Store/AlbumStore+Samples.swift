import AlbumModel
internal import BlueSQL

// The sample albums a fresh library starts with (``DefaultCatalogue``) make room for the
// user's own: the first import into a library that holds only them, as they came, takes
// them out in the same step.
extension AlbumStore {
  /// The ids of the library's albums, in order, when it holds exactly the sample albums in
  /// their order with every field as it came (none edited, moved, deleted or added); else nil.
  static func untouchedSampleIDs(_ db: Database) throws -> [Int64]? {
    let samples = DefaultCatalogue.albums
    guard try count(db) == samples.count else { return nil }
    let stored = try Album.fetchAll(db, sql: "SELECT \(Album.selection) FROM album ORDER BY position")
    guard stored.count == samples.count, zip(stored, samples).allSatisfy({ $0.hasSameFields(as: $1) }) else {
      return nil
    }
    return stored.compactMap(\.id)
  }

  /// Takes the albums with `ids` (the untouched samples, at positions 0 to 4) out into the
  /// `before` side of `step`, an import that put its albums at positions 0, 1, … beside
  /// them (positions are not unique inside a transaction), and makes the step a `reset`:
  /// undo takes back what the import added and puts the samples back in front, redo does
  /// both again (``takeBack(_:_:)``, ``makeAgain(_:_:)``). Nothing is numbered again: a
  /// million imported albums numbered again after the samples cost four fifths of the import.
  static func retireSamples(_ ids: [Int64], from step: Int64, _ db: Database) throws {
    guard !ids.isEmpty else { return }
    for id in ids { try appendImage(id, as: .before, of: step, db) }
    let list = ids.map(String.init).joined(separator: ", ")
    try db.execute(sql: "DELETE FROM album WHERE id IN (\(list))")
    try db.execute(
      sql: "UPDATE change SET kind = ? WHERE id = ?", arguments: [ChangeKind.reset.rawValue, step])
  }

  /// `in place of the 5 sample albums`, for a step's summary.
  static func inPlaceOfSamples(_ count: Int) -> String {
    "in place of the \(Library.counted(count, "sample album"))"
  }
}
