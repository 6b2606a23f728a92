import Testing

@testable import BlueShell

/// `repeat` in process, against the scripted engine (issue 38, item 3).
@Suite struct RepeatCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func repeatPlaysTheQueueAgainAfterItsEnd() throws {
    let engine = fixture.engine
    #expect(shell.run("repeat") == [])
    #expect(shell.lines() == ["repeat off"])
    #expect(shell.run("repeat on; tap Beta; play") == [])
    let player = try #require(shell.interpreter.environment.player)
    // Set before the engine existed, given to it when it was made.
    #expect(engine.calls.contains("repeat on"))
    engine.finishCurrent()
    #expect(!player.isIdle)
    #expect(player.status()?.place == 1)
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(
      shell.lines().dropFirst().first == "  ReplayGain −6.00 dB (the file has no ReplayGain tags); the queue repeats")
    #expect(shell.run("repeat off") == [])
    #expect(shell.lines() == ["repeat off"])
    engine.finishCurrent()
    #expect(player.isIdle)
    #expect(shell.run("repeat maybe") == ["repeat: repeat is 'on' or 'off', not 'maybe'"])
  }
}
