import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// Cover downloads in a real pseudo-terminal: status lines above the prompt, the half-typed
  /// line redrawn, Ctrl-C cancelling, quit waiting (SPEC §3 quit, §5, §6).
  ///
  /// Each test adds one album, "Remote", after "Best of Bowie" (so it is album 2 of 6) with a
  /// cover on a real HTTP server on 127.0.0.1, then drives the shell as a person would.
  @Suite(.serialized)
  struct AsyncStatusLineTests {
    private func start(_ runner: BinaryRunner, cover: String, columns: UInt16 = 100, rows: UInt16 = 30) throws
      -> PseudoTerminal
    {
      let added = try runner.run(script: "add \"Remote\" cover=\(cover)\n")
      #expect(added.status == 0 && added.stderr.isEmpty, "setting up the library failed: \(added.stderr)")
      return try PseudoTerminal(
        arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]),
        columns: columns, rows: rows)
    }

    /// A cursor-up sequence (`ESC [ n A`), which clearing a one-row input line never needs.
    private func movesUp(_ text: Substring) -> Bool {
      text.range(of: "\u{1B}\\[[0-9]*A", options: .regularExpression) != nil
    }

    /// The seconds a status line such as `cover of "Remote": 70 bytes in 1.52 s` reports.
    private func reportedSeconds(in text: Substring) -> Double? {
      guard let range = text.range(of: #"70 bytes in [0-9]+\.[0-9]{2} s"#, options: .regularExpression) else {
        return nil
      }
      return Double(text[range].dropFirst("70 bytes in ".count).dropLast(2))
    }

    @Test func statusLineAppearsAbovePromptAndHalfTypedLineIsRedrawn() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      server.route("/slow.png", .ok(CoverFixture.png(), delay: 1.5))
      let terminal = try start(runner, cover: server.url("/slow.png"))
      #expect(terminal.waitFor("bluelib> "))
      var mark = terminal.mark
      terminal.type("download 2\r")
      #expect(terminal.waitFor("downloading 1 cover", after: mark))
      #expect(terminal.waitFor("bluelib> ", after: terminal.transcript.range(of: "downloading 1 cover")?.upperBound))
      terminal.settle()

      // Half a line, no Enter, while the download is still running.
      mark = terminal.mark
      terminal.type("tap 3")
      #expect(terminal.waitFor("tap 3", after: mark))
      #expect(!terminal.transcript[mark...].contains("cover of"), "the download finished before the typing")
      let typed = terminal.mark

      #expect(terminal.waitFor("cover of \"Remote\": 70 bytes in ", after: typed, timeout: 10))
      let status = try #require(terminal.transcript.range(of: "cover of \"Remote\"", range: typed..<terminal.mark))
      // The half-typed line is cleared before the status line is written at the left margin.
      let before = terminal.transcript[typed..<status.lowerBound]
      #expect(before.contains("\r") && before.contains("\u{1B}[J"), "not cleared: \(before.debugDescription)")
      #expect(!movesUp(before), "clearing one row of input moved up: \(before.debugDescription)")
      // Below it: the prompt and the half-typed line, drawn again by libedit.
      #expect(terminal.waitFor("bluelib> ", after: status.upperBound))
      let prompt = terminal.transcript.range(of: "bluelib> ", range: status.upperBound..<terminal.mark)
      #expect(terminal.waitFor("tap 3", after: prompt?.upperBound ?? terminal.mark))
      let seconds = reportedSeconds(in: terminal.transcript[status.lowerBound...])
      #expect(seconds.map { $0 >= 1.5 && $0 < 10 } == true, "reported \(String(describing: seconds)) s")

      // Enter runs the line as typed.
      mark = terminal.mark
      terminal.type("\r")
      #expect(terminal.waitFor("3 of 6", after: mark))
      #expect(terminal.waitFor("Album: It's My Life", after: mark))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
      #expect(server.requestCount("/slow.png") == 1)
    }

    @Test func waitPrintsEachStatusLineAsItsDownloadEnds() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      server.route("/quick.png", .ok(CoverFixture.png(), delay: 0.5))
      server.route("/slow.png", .ok(CoverFixture.png(), delay: 8))
      let terminal = try start(runner, cover: server.url("/quick.png"))
      let added = try runner.run(["-c", "tap 2; add Slow cover=\(server.url("/slow.png"))"])
      #expect(added.status == 0)
      #expect(terminal.waitFor("bluelib> "))
      let mark = terminal.mark
      let started = Date()
      terminal.type("download 2; download 3; wait\r")
      #expect(terminal.waitFor("waiting for 2 downloads", after: mark))
      // The quick one reports while the slow one still runs, not when both are done.
      #expect(terminal.waitFor("cover of \"Remote\": 70 bytes", after: mark, timeout: 5))
      #expect(Date().timeIntervalSince(started) < 5)
      #expect(!terminal.transcript[mark...].contains("cover of \"Slow\""))
      terminal.type("\u{3}")
      #expect(terminal.waitFor("cancelled the pending downloads", after: mark, timeout: 5))
      terminal.type("quit\r")
      #expect(terminal.waitForExit(timeout: 5) == 0)
    }

    @Test func ctrlCDuringWaitCancelsTheDownloadsAndTheShellStaysUsable() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      server.route("/silent.png", .neverAnswer)
      let terminal = try start(runner, cover: server.url("/silent.png"))
      #expect(terminal.waitFor("bluelib> "))
      var mark = terminal.mark
      terminal.type("download 2\r")
      #expect(terminal.waitFor("downloading 1 cover", after: mark))
      terminal.type("wait\r")
      #expect(terminal.waitFor("waiting for 1 download (Ctrl-C cancels)", after: mark))
      terminal.settle()
      let waiting = terminal.mark
      terminal.type("\u{3}")
      #expect(terminal.waitFor("cancelled the pending downloads", after: waiting, timeout: 5))
      #expect(terminal.waitFor("cover of \"Remote\" failed: cancelled", after: waiting, timeout: 5))
      #expect(terminal.waitFor("bluelib> ", after: waiting))
      terminal.settle()

      // Still usable, and the cancelled download is listed as such.
      mark = terminal.mark
      terminal.type("tap 1\r")
      #expect(terminal.waitFor("1 of 6", after: mark))
      mark = terminal.mark
      terminal.type("downloads\r")
      #expect(terminal.waitFor("cover of \"Remote\" failed: cancelled", after: mark))
      #expect(terminal.waitFor("0 pending, 1 finished", after: mark))
      mark = terminal.mark
      terminal.type("list remote\r")
      #expect(terminal.waitFor("Remote · cover: failed: cancelled", after: mark))
      // Nothing is pending, so quit leaves at once.
      terminal.type("quit\r")
      #expect(terminal.waitForExit(timeout: 5) == 0)
      #expect(server.requestCount("/silent.png") == 1)
      #expect(try CoverFixture.cacheEntries(runner).isEmpty)
    }

    @Test func quitWithAPendingDownloadWaitsForIt() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      server.route("/slow.png", .ok(CoverFixture.png(), delay: 1.0))
      let terminal = try start(runner, cover: server.url("/slow.png"))
      #expect(terminal.waitFor("bluelib> "))
      let mark = terminal.mark
      terminal.type("download 2\r")
      #expect(terminal.waitFor("downloading 1 cover", after: mark))
      terminal.type("quit\r")
      #expect(terminal.waitFor("waiting for 1 download (Ctrl-C cancels)", after: mark))
      let waiting = terminal.transcript.range(of: "waiting for 1 download", range: mark..<terminal.mark)?.upperBound
      #expect(!terminal.transcript[mark...].contains("cover of"), "the download finished before quit")
      #expect(terminal.waitFor("cover of \"Remote\": 70 bytes in ", after: waiting, timeout: 10))
      #expect(terminal.waitForExit() == 0)
      #expect(try CoverFixture.cacheEntries(runner) == [CoverFixture.sha256(server.url("/slow.png"))])
    }

    @Test func ctrlCWhileQuitWaitsCancelsTheDownloadAndLeaves() throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      server.route("/silent.png", .neverAnswer)
      let terminal = try start(runner, cover: server.url("/silent.png"))
      #expect(terminal.waitFor("bluelib> "))
      let mark = terminal.mark
      terminal.type("download 2\r")
      #expect(terminal.waitFor("downloading 1 cover", after: mark))
      terminal.type("quit\r")
      #expect(terminal.waitFor("waiting for 1 download (Ctrl-C cancels)", after: mark))
      terminal.settle()
      let waiting = terminal.mark
      terminal.type("\u{3}")
      #expect(terminal.waitFor("cover of \"Remote\" failed: cancelled", after: waiting, timeout: 5))
      #expect(terminal.waitForExit(timeout: 5) == 0)
      #expect(try CoverFixture.cacheEntries(runner).isEmpty)
    }

    @Test func statusLineOnATerminalOfUnknownWidthClearsOnlyTheInputLine() throws {
      // A terminal that reports 0 columns (a pty whose size was never set, a serial line):
      // the shell must not take every typed cell for a wrapped row and erase the lines above.
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      server.route("/slow.png", .ok(CoverFixture.png(), delay: 1.0))
      let terminal = try start(runner, cover: server.url("/slow.png"), columns: 0, rows: 0)
      #expect(terminal.waitFor("bluelib> "))
      var mark = terminal.mark
      terminal.type("download 2\r")
      #expect(terminal.waitFor("downloading 1 cover", after: mark))
      #expect(terminal.waitFor("bluelib> ", after: terminal.transcript.range(of: "downloading 1 cover")?.upperBound))
      terminal.settle()
      mark = terminal.mark
      terminal.type("tap 3")
      #expect(terminal.waitFor("tap 3", after: mark))
      let typed = terminal.mark
      #expect(terminal.waitFor("cover of \"Remote\": 70 bytes in ", after: typed, timeout: 10))
      let status = try #require(terminal.transcript.range(of: "cover of \"Remote\"", range: typed..<terminal.mark))
      let before = terminal.transcript[typed..<status.lowerBound]
      #expect(!movesUp(before), "clearing one row of input moved up: \(before.debugDescription)")

      #expect(terminal.waitFor("tap 3", after: status.upperBound))
      mark = terminal.mark
      terminal.type("\r")
      #expect(terminal.waitFor("3 of 6", after: mark))
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }
  }
}
