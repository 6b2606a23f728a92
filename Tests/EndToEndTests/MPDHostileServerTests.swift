import Foundation
import MusicFolder
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// `bluelib --mpd` against servers that misbehave on purpose (a fake MPD on 127.0.0.1 that
  /// sends what the round-5 findings' hostile server sent), and against a real MPD that
  /// refuses: what a person sees from the built binary, its exit status and its memory.
  @Suite(.serialized)
  struct MPDHostileServerTests {
    /// A fake MPD answering every connection with `answer`.
    private func fake(
      greeting: String = "OK MPD 0.23.5\n", _ answer: @escaping @Sendable (String) -> FakeMPD.Answer
    ) throws -> FakeMPD {
      try FakeMPD([.scripted(greeting: greeting, answer)])
    }

    /// The control characters (C0 but a line's end, DEL, C1) in `text`, which a terminal
    /// would act on.
    private func controls(_ text: String) -> [UInt32] {
      text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A) || (0x7F..<0xA0).contains($0) }
    }

    /// What the findings' hostile server sent: a clipboard write (OSC 52), a window title
    /// (OSC 0), a clear screen, a bell, a carriage return, a NUL and a C1 CSI.
    private static let attack = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;PWNED\u{07}\u{1B}[2J\r\u{0}\u{9B}"
    private static let attackEscaped = #"\e]52;c;cHduZWQ=\x07\e]0;PWNED\x07\e[2J\r\x00\u{9b}"#

    // MARK: - H2: the server's words are escaped

    @Test func aGreetingThatIsNotMPDsIsQuotedEscaped() throws {
      let server = try fake(greeting: Self.attack + "\n") { _ in .hangUp }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "bluelib: MPD at \(server.address) is not an MPD server (it said '\(Self.attackEscaped)')"),
        "\(result.stderr)")
    }

    @Test func anAcknowledgementsCommandAndMessageAreEscaped() throws {
      let server = try fake { _ in .send("ACK [5@0] {st\u{1B}]0;X\u{07}ats} \(Self.attack)\n") }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          #"bluelib: MPD at \#(server.address) refused 'st\e]0;X\x07ats': \#(Self.attackEscaped) (error 5)"#),
        "\(result.stderr)")
    }

    @Test func aPermissionRefusalNamesTheCommandEscaped() throws {
      let server = try fake { _ in .send("ACK [4@0] {\u{1B}[2Jstats} you have no permission\n") }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(result.stderr.contains(#"'\e[2Jstats' needs a password"#), "\(result.stderr)")
    }

    @Test(arguments: [
      (Self.attack, Self.attackEscaped), ("OK\r", #"OK\r"#), ("\u{0}OK", #"\x00OK"#),
    ])
    func aStrayLineIsQuotedEscaped(line: String, escaped: String) throws {
      let server = try fake { _ in .send(line + "\n") }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "list"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stderr)")
      #expect(
        result.stderr.contains(
          "bluelib: MPD at \(server.address): an answer that is not MPD's protocol ('\(escaped)')"),
        "\(result.stderr)")
    }

    @Test func aCoverRefusalIsEscapedInItsStatusLine() throws {
      let server = try fake { command in
        command.hasPrefix("readpicture") || command.hasPrefix("albumart")
          ? .send("ACK [5@0] {readpicture} \(Self.attack)\n") : FakeMPD.album(command)
      }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let result = try runner.run(["--mpd", server.address, "-c", "download 1", "-c", "wait"])
      #expect(controls(result.stdout + result.stderr).isEmpty, "\(result.stdout)")
      #expect(result.stdout.contains(Self.attackEscaped), "\(result.stdout)")
    }
  }
}

/// Runs `sqlite3 path sql` and returns what it printed.
private func sqliteOutput(_ path: String, _ sql: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
  process.arguments = [path, sql]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}
