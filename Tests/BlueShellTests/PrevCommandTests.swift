import Testing

@testable import BlueShell

/// `prev` in process, against the scripted engine.
@Suite struct PrevCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func prevPlaysThePreviousTrackUntilTheFirst() throws {
    #expect(shell.run("play Alpha 2") == [])
    _ = fixture.statusLines()
    #expect(shell.run("prev") == [])
    #expect(fixture.statusLines() == ["▶ X — Alpha — 01 A1 (0:01)"])
    #expect(fixture.player.status()?.place == 1)
    #expect(shell.run("prev") == ["prev: no previous track in the queue"])
    #expect(shell.run("prev 1") == ["prev: unexpected argument '1'"])
  }
}
