import BluePlayback
import Testing

@testable import BlueShell

/// `audio` in process, against the scripted engine (issue 49, item 3): the device chosen
/// among those the engine lists, exclusive output, the equalizer, each kept in the library
/// file; every wrong word named.
@Suite struct AudioCommandTests {
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }

  init() throws {
    fixture = try PlaybackFixture()
  }

  /// What `line` printed: its errors, then its lines.
  private func said(_ line: String) -> [String] {
    let errors = shell.run(line)
    return errors + shell.lines()
  }

  @Test func aloneItSaysTheDefaults() {
    #expect(
      said("audio") == ["audio device auto (libmpv's choice)", "audio exclusive off", "equalizer off"])
  }

  @Test func theDevicesAreTheEnginesAndTheChosenOneIsKept() throws {
    #expect(
      said("audio device") == [
        "* auto — Autoselect device", "  alsa/front — Front speakers", "  pulse — Pulse",
      ])
    #expect(said("audio device pulse") == ["audio device pulse"])
    #expect(fixture.engine.calls.last == "audio pulse shared flat")
    #expect(try shell.library.audioSettings().device == "pulse")
    #expect(said("audio device").first == "  auto — Autoselect device")
    #expect(
      said("audio device hdmi") == [
        "audio: no audio device 'hdmi' (libmpv lists auto, alsa/front, pulse; 'audio device' says what each is)"
      ])
    #expect(try shell.library.audioSettings().device == "pulse")
  }

  @Test func exclusiveAndTheEqualizerReachTheEngineAndTheLibraryFile() throws {
    #expect(said("audio exclusive on") == ["audio exclusive on"])
    #expect(
      said("audio eq 6 3 0 0 0 0 0 0 0 -2") == [
        "equalizer 31 Hz +6, 62 Hz +3, 125 Hz 0, 250 Hz 0, 500 Hz 0, 1 kHz 0, 2 kHz 0, 4 kHz 0, 8 kHz 0, 16 kHz -2; preamp -6 dB"
      ])
    // Kept for the engine, which is not made until something plays, and given to it then.
    #expect(fixture.engine.calls.isEmpty)
    #expect(said("play Alpha") == ["playing \"Alpha\" (2 tracks)"])
    #expect(fixture.engine.calls.contains("audio auto exclusive +6 +3 0 0 0 0 0 0 0 -2 preamp -6"))
    let kept = try shell.library.audioSettings()
    #expect(kept.exclusive && kept.equalizer?.gains == [6, 3, 0, 0, 0, 0, 0, 0, 0, -2])
    #expect(said("audio eq 0 0 0 0 0 0 0 0 0 +2dB preamp 0").first?.hasSuffix("16 kHz +2; preamp 0 dB") == true)
    #expect(said("audio eq off") == ["equalizer off"])
    #expect(fixture.engine.calls.last == "audio auto exclusive flat")
    #expect(try shell.library.audioSettings().equalizer == nil)
    // A flat equalizer is none.
    #expect(said("audio eq 0 0 0 0 0 0 0 0 0 0") == ["equalizer off"])
  }

  @Test func wrongWordsAreNamed() {
    for (line, error) in [
      ("audio loud", "audio: audio takes 'device', 'exclusive' or 'eq', not 'loud'"),
      ("audio exclusive maybe", "audio: audio exclusive is 'on' or 'off', not 'maybe'"),
      ("audio exclusive", "audio: audio exclusive is 'on' or 'off'"),
      (
        "audio eq 1 2",
        "audio: audio eq takes 10 gains (31 Hz, 62 Hz, 125 Hz, 250 Hz, 500 Hz, 1 kHz, 2 kHz, 4 kHz, 8 kHz, 16 kHz), not 2"
      ),
      ("audio eq 13 0 0 0 0 0 0 0 0 0", "audio: audio eq's gains are from -12 to +12 dB, not '13'"),
      ("audio eq nan 0 0 0 0 0 0 0 0 0", "audio: audio eq's gains are from -12 to +12 dB, not 'nan'"),
      ("audio eq 0 0 0 0 0 0 0 0 0 0 preamp -40", "audio: audio eq's preamp is from -24 to +12 dB, not '-40'"),
      ("audio device a b", "audio: unexpected argument 'b'"),
    ] {
      #expect(said(line) == [error], "\(line)")
    }
    #expect(fixture.engine.calls.allSatisfy { !$0.hasPrefix("audio") })
  }
}
