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

  /// The shell's executable, nil when it is not installed (`.ci/run` installs all three).
  static func installed(_ shell: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + shell }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// `SHELL -n FILE`: the script parses in its shell.
  static func parses(_ shell: String, _ file: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(installed(shell)))
    process.arguments = ["-n", directory.appendingPathComponent(file).path]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(shell) -n rejects completions/\(file)")
  }

  @Test(.enabled(if: installed("bash") != nil, "bash is not installed"))
  func theBashScriptParses() throws { try Self.parses("bash", "bluelib.bash") }

  @Test(.enabled(if: installed("zsh") != nil, "zsh is not installed"))
  func theZshScriptParses() throws { try Self.parses("zsh", "_bluelib") }

  @Test(.enabled(if: installed("fish") != nil, "fish is not installed"))
  func theFishScriptParses() throws { try Self.parses("fish", "bluelib.fish") }
}
