import Testing

@testable import BlueShell

/// `replaygain` in process, against the scripted engine (issue 38, item 4).
@Suite struct ReplayGainCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func replayGainIsRememberedGivenToTheEngineAndSaidByNow() throws {
    let engine = fixture.engine
    #expect(try shell.library.replayGainMode() == .album)
    let tagged = fixture.folder.path("X/Alpha/01.mp3")
    engine.tag(tagged, album: -5.1, track: -7.3)
    #expect(shell.run("tap Alpha; play") == [])
    #expect(engine.calls.contains("replaygain album -6.0"))
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(shell.lines().dropFirst().first == "  ReplayGain album −5.10 dB")
    #expect(shell.run("replaygain track; now") == [])
    #expect(
      shell.lines().dropFirst(2).first == "  ReplayGain track −7.30 dB")
    #expect(engine.calls.last == "replaygain track -6.0")
    #expect(try shell.library.replayGainMode() == .track)
    #expect(shell.run("replaygain off; now") == [])
    #expect(shell.lines().dropFirst(2).first == "  ReplayGain off")
    #expect(shell.run("replaygain loud") == ["replaygain: replaygain is 'album', 'track' or 'off', not 'loud'"])
    #expect(try shell.library.replayGainMode() == .off)
  }
}
