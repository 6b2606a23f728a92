import Testing

@testable import BlueShell

/// `next` in process, against the scripted engine.
@Suite struct NextCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func nextPlaysTheNextTrackUntilTheLast() throws {
    #expect(shell.run("next") == ["next: no next track in the queue"])
    #expect(shell.run("play Alpha") == [])
    _ = fixture.statusLines()
    #expect(shell.run("next") == [])
    #expect(fixture.statusLines() == ["▶ X — Alpha — 02 A2 (0:01)"])
    #expect(fixture.player.status()?.place == 2)
    #expect(shell.run("next") == ["next: no next track in the queue"])
    #expect(shell.run("next 2") == ["next: unexpected argument '2'"])
  }

  /// A repeating queue has no end (issue 49, item 4): `next` at its last track plays the
  /// first, `prev` at its first plays the last.
  @Test func aRepeatingQueueWrapsAroundBothWays() throws {
    #expect(shell.run("repeat on; play Alpha 2") == [])
    _ = fixture.statusLines()
    #expect(shell.run("next") == [])
    #expect(fixture.statusLines() == ["▶ X — Alpha — 01 A1 (0:01)"])
    #expect(fixture.player.status()?.place == 1)
    #expect(shell.run("prev") == [])
    #expect(fixture.statusLines() == ["▶ X — Alpha — 02 A2 (0:01)"])
    #expect(fixture.player.status()?.place == 2)
    // Repeat off: the ends are ends again.
    #expect(shell.run("repeat off; next") == ["next: no next track in the queue"])
  }
}
