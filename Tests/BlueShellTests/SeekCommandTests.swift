import Testing

@testable import BlueShell

/// `seek` in process, against the scripted engine: a time in the track or a move by one,
/// kept within the track.
@Suite struct SeekCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  /// The fixture's tracks are a second long (the engine says 3:00; the track, 0:01).
  @Test func seekGoesToATimeOrByOneWithinTheTrack() throws {
    #expect(shell.run("seek 1") == ["seek: nothing is playing"])
    #expect(shell.run("play Alpha") == [])
    _ = shell.output()
    #expect(shell.run("seek 0:01") == [])
    #expect(shell.lines() == ["at 0:01 of 0:01"])
    #expect(shell.run("seek -10") == [])
    #expect(shell.lines() == ["at 0:00 of 0:01"])
    #expect(shell.run("seek +90") == [])
    #expect(shell.lines() == ["at 0:01 of 0:01"])
    #expect(fixture.engine.calls.filter { $0.hasPrefix("seek") }.count == 3)
    #expect(fixture.engine.calls.last?.hasPrefix("seek ") == true)
  }

  @Test(arguments: [
    ("seek", "seek: missing TIME (like 1:30, +10 or -30)"),
    ("seek 1:75", "seek: '1:75' is not a time (like 90, 1:30, +10 or -0:30)"),
    ("seek soon", "seek: 'soon' is not a time (like 90, 1:30, +10 or -0:30)"),
    ("seek 1:2:3", "seek: '1:2:3' is not a time (like 90, 1:30, +10 or -0:30)"),
    ("seek 10 20", "seek: unexpected argument '20'"),
  ])
  func seekRejectsWhatIsNotATime(line: String, message: String) throws {
    #expect(shell.run(line) == [message])
  }
}
