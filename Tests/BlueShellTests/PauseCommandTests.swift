import Testing

@testable import BlueShell

/// `pause` in process, against the scripted engine: a toggle.
@Suite struct PauseCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func pausePausesWhatPlaysAndASecondResumesIt() throws {
    #expect(shell.run("pause") == ["pause: nothing is playing"])
    #expect(shell.run("play Alpha") == [])
    _ = shell.output()
    #expect(shell.run("pause") == [])
    #expect(shell.lines() == ["paused"])
    #expect(fixture.player.status()?.paused == true)
    #expect(shell.run("pause") == [])
    #expect(shell.lines() == ["playing"])
    #expect(fixture.engine.calls.suffix(2) == ["pause", "resume"])
    #expect(shell.run("pause now") == ["pause: unexpected argument 'now'"])
  }
}
