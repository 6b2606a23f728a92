import Testing

@testable import BlueShell

/// `stop` in process, against the scripted engine: the queue stays for `play`.
@Suite struct StopCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func stopStopsAndTheQueueStays() throws {
    #expect(shell.run("stop") == ["stop: nothing is playing"])
    #expect(shell.run("play Alpha") == [])
    _ = shell.output()
    #expect(shell.run("stop") == [])
    #expect(shell.lines() == ["stopped"])
    #expect(fixture.player.isIdle)
    #expect(fixture.player.queue.count == 2)
    #expect(fixture.engine.calls.last == "stop")
    #expect(shell.run("stop") == ["stop: nothing is playing"])
    #expect(shell.run("stop all") == ["stop: unexpected argument 'all'"])
  }
}
