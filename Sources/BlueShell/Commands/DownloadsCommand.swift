import BlueLibrary
import BlueSystem

/// `downloads`: pending and finished downloads with their state.
struct DownloadsCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "downloads", group: .covers, summary: "list pending and finished cover downloads",
    details: """
      Lists at most \(shown) pending downloads and \(shown) finished ones (in album order; the
      outcomes of the last 1,000 covers are kept), then the counts.
      """,
    examples: ["download all; downloads"])

  /// The most pending downloads, and the most outcomes, listed.
  static let shown = 50

  init(arguments: [Word]) throws(CommandError) {
    try Self.expectNoArguments(arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    guard environment.library.fetchesCovers else { throw CommandError("cover downloads are off in this shell") }
    let library = environment.library
    let (pending, count) = (library.pendingCovers(limit: Self.shown), library.pendingCoverCount)
    var lines = pending.map { item in
      let state = item.state == .downloading ? "downloading" : "queued"
      return "\(state): " + item.albums.map { "\"\(TextSanitizer.escaped($0))\"" }.joined(separator: ", ")
    }
    if count > pending.count { lines.append("… and \(count - pending.count) more pending") }
    let finished = environment.coverStatus?.finished ?? []
    if finished.count > Self.shown {
      lines.append("… \(finished.count - Self.shown) earlier outcomes not shown")
    }
    lines += finished.suffix(Self.shown)
    if pending.isEmpty && finished.isEmpty {
      lines.append("no downloads yet ('download all' starts them)")
    } else {
      lines.append("\(Library.grouped(count)) pending, \(finished.count) finished")
    }
    return .lines(lines)
  }
}
