import BlueLibrary
import Testing

@testable import BlueShell

/// `now` in process, against the scripted engine: the track, how far in, its place in the
/// queue, the ReplayGain applied, and the synced line sung now.
@Suite struct NowCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func nowSaysWhatPlaysWhereInItAndItsPlaceInTheQueue() throws {
    #expect(shell.run("now") == [])
    #expect(shell.lines() == ["nothing is playing"])
    #expect(shell.run("play Alpha 2; pause") == [])
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(
      shell.lines() == [
        "⏸ X — Alpha — 02 A2 (0:01), 0:00 of 0:01, track 2 of 2",
        "  ReplayGain −6.00 dB (the file has no ReplayGain tags)",
      ])
    #expect(shell.run("now please") == ["now: unexpected argument 'please'"])
  }

  /// For a track with synced lyrics, `now` shows the line sung at that moment (issue 38,
  /// item 5); a track with plain lyrics, none.
  @Test func nowShowsTheSyncedLineSungNow() throws {
    let (folder, engine) = (fixture.folder, fixture.engine)
    try folder.file("X/Alpha/01.lrc", Array("[ar:X]\n[00:05.00]First line\n[00:10.00]Second line\n".utf8))
    try folder.file("X/Alpha/02.lrc", Array("Plain words\n".utf8))
    #expect(shell.run("tap Alpha; play") == [])
    engine.advance(by: 11)
    _ = shell.output()
    #expect(shell.run("now") == [])
    #expect(shell.lines().last == "  ♪ Second line")
    engine.finishCurrent()
    engine.advance(by: 11)
    #expect(shell.run("now") == [])
    #expect(shell.lines().last?.hasPrefix("  ReplayGain") == true)
  }
}
