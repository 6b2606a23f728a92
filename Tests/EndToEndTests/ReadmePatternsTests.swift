import Foundation
import Testing

/// The README's Patterns table names, for each pattern of the original app, the one file
/// where it lives: every pattern is there, and every file it names exists.
struct ReadmePatternsTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func everyPatternNamesAFileThatExists() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let section =
      try #require(readme.components(separatedBy: "\n## Patterns\n").dropFirst().first)
      .components(separatedBy: "\n## ").first ?? ""
    var files: [String: String] = [:]
    for line in section.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| pattern") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2, cells[1].hasPrefix("`") else { continue }
      files[cells[0]] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    }
    let patterns = ["MVC", "Facade", "Adapter / delegate", "Decorator", "Observer", "Memento", "Command"]
    #expect(Set(files.keys) == Set(patterns))
    for (pattern, file) in files {
      #expect(
        FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path),
        "the README places \(pattern) in \(file), which does not exist")
    }
  }
}
