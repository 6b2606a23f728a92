import Testing

@testable import BlueShell

/// The playback verbs in a shell without a player (playback off) say so, each the same way.
@Suite struct CommandEnvironmentPlayerTests {
  @Test(arguments: [
    "play 1", "queue", "queue 1", "pause", "next", "prev", "stop", "seek 10", "volume", "volume 50", "now", "repeat on",
  ])
  func aPlaybackVerbWithoutAPlayerSaysPlaybackIsOff(line: String) throws {
    let shell = try InProcessShell()
    let verb = line.prefix { $0 != " " }
    #expect(shell.run(line) == ["\(verb): playback is off in this shell"])
    #expect(shell.output() == "")
  }
}
