import Foundation
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// The queue edited on an MPD server (issue 50, item 6): `queue move`, `queue remove`,
  /// `queue shuffle` and `queue clear` are the server's `move`, `delete` and `clear`, and
  /// refused once another client changed the queue — against a real MPD on 127.0.0.1, from
  /// the built binary in a real pseudo-terminal.
  @Suite(.serialized)
  struct MPDQueueEditingTests {
    /// Types `line` at the prompt and waits for `text` after it.
    private func run(_ line: String, in terminal: PseudoTerminal, until text: String) {
      terminal.settle()
      let mark = terminal.mark
      terminal.type(line + "\r")
      let found = terminal.waitFor(text, after: mark)
      #expect(found, "\(line): no \(text) in \(terminal.transcript[mark...].debugDescription)")
    }

    @Test(.timeLimit(.minutes(1)))
    func theServersQueueIsMovedRemovedShuffledAndClearedUntilAnotherClientChangesIt() throws {
      let mpd = try MPDFixture { music in try MPDFixture.sampleMusic(music) }
      try mpd.start()
      let runner = BinaryRunner()
      defer { runner.cleanUp() }
      let terminal = try PseudoTerminal(
        arguments: ["--home", runner.home.path, "--mpd", mpd.address],
        environment: runner.environment(["NO_COLOR": "1"]), columns: 100, rows: 30)
      #expect(terminal.waitFor("bluelib> "))
      func titles() throws -> [String] {
        try mpd.mpc("-f", "%title%", "playlist").split(separator: "\n").map(String.init)
      }
      run("queue Innuendo; queue \"The Wall\"", in: terminal, until: "4 tracks in the queue")
      #expect(try titles() == ["Innuendo", "Headlong", "In the Flesh?", "Hey You"])
      run("queue move 4 to 1", in: terminal, until: "moved track 4 to 1")
      run("queue remove 2", in: terminal, until: "3 tracks in the queue")
      #expect(try titles() == ["Hey You", "Headlong", "In the Flesh?"])
      run("queue shuffle", in: terminal, until: "shuffled 3 tracks of the queue")
      #expect(try titles().sorted() == ["Headlong", "Hey You", "In the Flesh?"])
      // Another client changes the queue: its numbers are no longer bluelib's.
      _ = try mpd.mpc("del", "1")
      run(
        "queue remove 1", in: terminal,
        until: "queue: the queue on MPD at \(mpd.address) is not the one bluelib made (another client changed it)")
      #expect(try titles().count == 2)
      run("queue \"The Wall\"; queue clear", in: terminal, until: "cleared the queue")
      #expect(try titles() == [])
      terminal.type("quit\r")
      #expect(terminal.waitForExit() == 0)
    }
  }
}
