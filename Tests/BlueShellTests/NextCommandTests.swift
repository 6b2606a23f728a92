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
}
