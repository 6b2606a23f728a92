import Foundation
import TestSupport
import Testing

/// The shell completion scripts in `completions/` are generated from the argument parser;
/// these tests fail when they drift from what the built binary generates. Regenerate with
/// `bluelib --generate-completion-script bash > completions/bluelib.bash` (zsh: `_bluelib`,
/// fish: `bluelib.fish`).
@Suite(.serialized)
struct CompletionScriptTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("completions")

  @Test(arguments: [("bash", "bluelib.bash"), ("zsh", "_bluelib"), ("fish", "bluelib.fish")])
  func checkedInScriptMatchesTheGenerator(shell: String, file: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let generated = try runner.run(["--generate-completion-script", shell], useHome: false)
    #expect(generated.status == 0)
    let checkedIn = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
    #expect(generated.stdout == checkedIn, "completions/\(file) is out of date; regenerate it")
    for flag in ["--home", "--script", "--bail", "--no-color"] {
      #expect(checkedIn.contains(flag.dropFirst(2)), "\(file) does not complete \(flag)")
    }
  }

  @Test(arguments: [("bash", "bluelib.bash"), ("zsh", "_bluelib"), ("fish", "bluelib.fish")])
  func scriptParsesInItsShell(shell: String, file: String) throws {
    let path = ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + shell }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else { return }  // that shell is not installed here
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-n", Self.directory.appendingPathComponent(file).path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(shell) -n rejects completions/\(file)")
  }
}
