import Foundation
import Testing

/// What the shipped binary links (issue 47, item 6): no module of bluelib imports Foundation,
/// whose ICU data was 36 of the stripped binary's 64 MB and whose start-up ran at every
/// launch. FoundationEssentials (Data, URL, Date, FileManager, JSONDecoder) is what they use.
@Suite struct ShippedImportsTests {
  /// Sources/ holds the shipped modules and two that never ship: the benchmark and the
  /// tests' HTTP server. `make-tables.swift` is a script the build excludes.
  static let notShipped: Set<String> = ["bluelib-bench", "LoopbackHTTPServer"]

  static var sources: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources")
  }

  /// `import Foundation`, `@preconcurrency import Foundation`, `import struct Foundation.Data`,
  /// `internal import Foundation`: any import of Foundation itself (not FoundationEssentials).
  static func importsFoundation(_ line: Substring) -> Bool {
    let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
    let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
    guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
      words[..<index].allSatisfy(modifiers.contains)
    else { return false }
    var module = words[index + 1]
    if ["struct", "class", "enum", "func", "protocol", "typealias", "var", "let"].contains(module),
      index + 2 < words.count
    {
      module = words[index + 2]
    }
    return module == "Foundation" || module.hasPrefix("Foundation.")
  }

  @Test func noShippedModuleImportsFoundation() throws {
    let modules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
    var offenders: [String] = []
    var files = 0
    for module in modules.sorted() where !Self.notShipped.contains(module) {
      let root = Self.sources.appendingPathComponent(module)
      guard let walk = FileManager.default.enumerator(atPath: root.path) else { continue }
      for case let file as String in walk where file.hasSuffix(".swift") && !file.hasSuffix("make-tables.swift") {
        files += 1
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        // The branch of `#if canImport(FoundationEssentials) … #else` that Linux never builds
        // (Darwin's SDK has no FoundationEssentials module) is left out.
        var inDarwinBranch = false
        var afterEssentialsCheck = false
        for line in text.split(separator: "\n") {
          let trimmed = line.drop { $0 == " " }
          if trimmed.hasPrefix("#if") { afterEssentialsCheck = trimmed.contains("canImport(FoundationEssentials)") }
          if trimmed.hasPrefix("#else") || trimmed.hasPrefix("#elseif") { inDarwinBranch = afterEssentialsCheck }
          if trimmed.hasPrefix("#endif") { (inDarwinBranch, afterEssentialsCheck) = (false, false) }
          if !inDarwinBranch && Self.importsFoundation(trimmed) { offenders.append("\(module)/\(file): \(line)") }
        }
      }
    }
    #expect(files > 100)
    #expect(offenders == [])
  }

  @Test func theCheckSeesEveryFormOfTheImport() {
    #expect(Self.importsFoundation("import Foundation"))
    #expect(Self.importsFoundation("@preconcurrency import Foundation"))
    #expect(Self.importsFoundation("internal import Foundation"))
    #expect(Self.importsFoundation("import struct Foundation.Data"))
    #expect(!Self.importsFoundation("import FoundationEssentials"))
    #expect(!Self.importsFoundation("import struct FoundationEssentials.Data"))
    #expect(!Self.importsFoundation("// import Foundation is gone"))
  }
}
