import Foundation
import TestSupport
import Testing

/// The scripts in `examples/` are golden tests: piped into a fresh home, their output must
/// match the checked-in `NAME.out` (stdout) and `NAME.err` (stderr, when a script shows
/// failures) byte for byte. Regenerate after a deliberate change with
/// `BLUELIB_RECORD=1 swift test --filter ExampleTests`.
@Suite(.serialized)
struct ExampleTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples")

  static var scripts: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".bluelib") }.map { String($0.dropLast(".bluelib".count)) }.sorted()
  }

  @Test func everyExampleHasExpectedOutput() {
    #expect(Self.scripts.count >= 2)
    for name in Self.scripts {
      let out = Self.directory.appendingPathComponent(name + ".out").path
      #expect(FileManager.default.fileExists(atPath: out), "examples/\(name).out is missing")
    }
  }

  @Test(arguments: scripts)
  func exampleMatchesItsExpectedOutput(name: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let script = try Data(contentsOf: Self.directory.appendingPathComponent(name + ".bluelib"))
    let result = try runner.run(input: script)
    let outURL = Self.directory.appendingPathComponent(name + ".out")
    let errURL = Self.directory.appendingPathComponent(name + ".err")
    if ProcessInfo.processInfo.environment["BLUELIB_RECORD"] == "1" {
      try result.stdoutBytes.write(to: outURL)
      if result.stderr.isEmpty {
        try? FileManager.default.removeItem(at: errURL)
      } else {
        try Data(result.stderr.utf8).write(to: errURL)
      }
    }
    let expectedOut = try String(contentsOf: outURL, encoding: .utf8)
    let expectedErr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
    #expect(result.stdout == expectedOut)
    #expect(result.stderr == expectedErr)
    #expect(result.status == (expectedErr.isEmpty ? 0 : 1))
  }
}
