import AlbumModel
import BlueLibrary
import BlueSystem
import FoundationEssentials

/// `stats [QUERY]`: albums, tracks, length and artists, then albums per genre and decade.
struct StatsCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "stats", group: .browse, synopsis: "[QUERY]",
    summary: "counts for the view or QUERY: albums, tracks, length, genres, decades",
    details: "Bars are sized to the window. " + "QUERY is as for 'find' ('help find').",
    examples: ["stats", "stats genre:jazz", "stats added:-1m.."], arguments: [.query])

  let query: TypedQuery

  init(arguments: [Word]) throws(CommandError) {
    query = TypedQuery(words: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let stats = try library.statistics(try query.resolve(in: library))
    var lines = [
      "Albums:  \(Library.grouped(stats.albums))",
      "Tracks:  " + (stats.albumsWithTracks == 0 ? "unknown" : Library.grouped(stats.tracks))
        + (stats.albumsWithTracks > 0 && stats.albumsWithTracks < stats.albums
          ? " (on the \(Library.grouped(stats.albumsWithTracks)) albums that count them)" : ""),
      "Length:  " + (stats.albumsWithTracks == 0 ? "unknown" : Self.length(stats.length)),
      "Artists: \(Library.grouped(stats.artists))",
    ]
    guard stats.albums > 0 else { return .lines(lines) }
    let width = environment.window.columns
    lines.append("")
    lines.append("Genres")
    lines += Self.bars(
      stats.genres.map { ($0.name.isEmpty ? "(none)" : TextSanitizer.escaped($0.name), $0.count) }
        + (stats.albumsOfOtherGenres > 0 ? [("(others)", stats.albumsOfOtherGenres)] : []),
      width: width)
    lines.append("")
    lines.append("Decades")
    lines += Self.bars(stats.decades.map { ($0.decade.map { "\($0)s" } ?? "(no year)", $0.count) }, width: width)
    return .lines(lines)
  }

  /// A library's length: `show`'s `M:SS` or `H:MM:SS`, with days in front (`1 d 2:03:04`).
  static func length(_ seconds: Double) -> String {
    // Any sum a library file holds, even a huge or broken one, is shown without a trap.
    guard seconds.isFinite, seconds >= 0 else { return Album.length(0) }
    let days = Int(min(seconds, 1e15).rounded()) / 86_400
    return days > 0 ? "\(days) d " + Album.length(seconds - Double(days * 86_400)) : Album.length(seconds)
  }

  /// `Pop     ████████ 12`: labels padded, bars scaled so the largest fills the window.
  static func bars(_ rows: [(label: String, count: Int)], width: Int) -> [String] {
    let labelWidth = min(24, rows.map { DisplayWidth.width($0.label) }.max() ?? 0)
    let countWidth = rows.map { Library.grouped($0.count).count }.max() ?? 1
    let most = max(1, rows.map(\.count).max() ?? 1)
    let room = max(4, width - labelWidth - countWidth - 4)
    return rows.map { row in
      let label = DisplayWidth.fit(row.label, width: labelWidth)
      let padding = ""
      let length = max(row.count > 0 ? 1 : 0, Int((Double(row.count) / Double(most) * Double(room)).rounded()))
      let count = Library.grouped(row.count)
      return "  \(label)\(padding) \(String(repeating: "█", count: length))"
        + "\(String(repeating: " ", count: room - length)) \(String(repeating: " ", count: countWidth - count.count))\(count)"
    }
  }
}
