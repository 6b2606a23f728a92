import Testing

@testable import BlueShell

/// `volume` in process, against the scripted engine.
@Suite struct VolumeCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  @Test func volumeSaysOrSetsTheVolume() throws {
    #expect(shell.run("volume") == [])
    #expect(shell.lines() == ["volume 100"])
    #expect(shell.run("volume 60; volume") == [])
    #expect(shell.lines() == ["volume 60", "volume 60"])
    #expect(fixture.engine.calls.last == "volume 60")
  }

  @Test(arguments: [
    ("volume 101", "volume: volume is 0 to 100, got '101'"),
    ("volume -1", "volume: volume is 0 to 100, got '-1'"),
    ("volume loud", "volume: volume is 0 to 100, got 'loud'"),
    ("volume 1 2", "volume: unexpected argument '2'"),
  ])
  func volumeRejectsWhatIsNotALevel(line: String, message: String) throws {
    #expect(shell.run(line) == [message])
    #expect(fixture.engine.calls == [])
  }
}
