import BlueLibrary
import BluePlayback
import BlueSystem

/// `audio [device [NAME|auto] | exclusive on|off | eq [off|GAIN×10 [preamp DB]]]`: where
/// the audio goes out and how, remembered in the library file.
struct AudioCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "audio", group: .playback,
    synopsis: "[device [NAME|auto] | exclusive on|off | eq [off | GAINS… [preamp DB]]]",
    summary: "the output device, exclusive output, and a ten-band equalizer",
    details: """
      Alone, says all three. 'device' lists the devices libmpv can play on (the one in use
      marked *); 'device NAME' plays on that one, 'device auto' on libmpv's choice.
      'exclusive on' takes the device for bluelib alone where the output allows it (no
      mixing by the sound server; the files' own sample rate where the device takes it),
      'off' shares it. 'eq' takes ten gains in dB, from -12 to +12, for the bands at 31,
      62, 125, 250 and 500 Hz and 1, 2, 4, 8 and 16 kHz (ffmpeg's equalizer, an octave
      wide each), and a pre-amp: unless given ('preamp -4'), the largest boost taken away,
      so that a boost does not push a loud recording past full scale; 'eq off' plays the
      audio as it is. Each applies to what plays now, is kept in the library file, and is
      the next shell's too; 'now' says what is not the default. A music server (--mpd)
      plays on outputs of its own: its configuration chooses them.
      """,
    examples: [
      "audio", "audio device", "audio device alsa", "audio exclusive on", "audio eq 4 3 0 0 0 0 0 1 2 2",
      "audio eq 0 0 0 0 0 0 0 0 -6 -6 preamp 0", "audio eq off",
    ],
    arguments: [.keyword(["device", "exclusive", "eq"]), .text])

  enum Change: Equatable {
    case device(String?)
    case exclusive(Bool)
    case equalizer(Equalizer??)
  }

  /// What to change; nil says all three.
  let change: Change?

  init(arguments: [Word]) throws(CommandError) {
    guard let first = arguments.first else {
      change = nil
      return
    }
    let rest = Array(arguments.dropFirst())
    switch first.text.lowercased() {
    case "device":
      if rest.count > 1 { throw .unexpectedArgument(rest[1]) }
      change = .device(rest.first?.text)
    case "exclusive":
      guard rest.count == 1, let on = ["on": true, "off": false][rest[0].text.lowercased()] else {
        throw CommandError(
          "audio exclusive is 'on' or 'off'\(rest.first.map { ", not '\(TextSanitizer.escaped($0.text))'" } ?? "")")
      }
      change = .exclusive(on)
    case "eq", "equalizer":
      change = .equalizer(try Self.equalizer(rest.map(\.text)))
    default:
      throw CommandError(
        "audio takes 'device', 'exclusive' or 'eq', not '\(TextSanitizer.escaped(first.text))'")
    }
  }

  /// The equalizer `words` set: nil when they are none (say it), `.some(nil)` for `off`.
  static func equalizer(_ words: [String]) throws(CommandError) -> Equalizer?? {
    if words.isEmpty { return nil }
    if words.count == 1 && words[0].lowercased() == "off" { return .some(nil) }
    var gains = words
    var preamp: Double?
    if gains.count >= 2, gains[gains.count - 2].lowercased() == "preamp" {
      let word = gains[gains.count - 1]
      guard let value = Self.decibels(word), Equalizer.preampRange.contains(value) else {
        throw CommandError(
          "audio eq's preamp is from \(Int(Equalizer.preampRange.lowerBound)) to +\(Int(Equalizer.preampRange.upperBound)) dB, not '\(TextSanitizer.escaped(word))'"
        )
      }
      preamp = value
      gains.removeLast(2)
    }
    let bands = Equalizer.frequencies.count
    guard gains.count == bands else {
      throw CommandError(
        "audio eq takes \(bands) gains (\(Equalizer.frequencies.map(Equalizer.bandName).joined(separator: ", "))), not \(gains.count)"
      )
    }
    var values: [Double] = []
    for word in gains {
      guard let value = Self.decibels(word), Equalizer.gainRange.contains(value) else {
        throw CommandError(
          "audio eq's gains are from \(Int(Equalizer.gainRange.lowerBound)) to +\(Int(Equalizer.gainRange.upperBound)) dB, not '\(TextSanitizer.escaped(word))'"
        )
      }
      values.append(value)
    }
    guard let equalizer = Equalizer(gains: values, preamp: preamp) else {
      // The boosts need more headroom than a pre-amp takes (only with a pre-amp given).
      throw CommandError("audio eq: that pre-amp is out of range")
    }
    return .some(equalizer)
  }

  /// `3`, `+3`, `-2.5`, `3dB` → the number; nil otherwise (and for NaN or infinity).
  private static func decibels(_ word: String) -> Double? {
    var text = word.lowercased()
    if text.hasSuffix("db") { text.removeLast(2) }
    if text.hasPrefix("+") { text.removeFirst() }
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let player = try environment.requiredPlayer()
    var settings = player.audio
    switch change {
    case nil:
      return .lines(Self.describe(settings))
    case .device(nil):
      let devices = try player.audioDevices()
      guard !devices.isEmpty else { throw CommandError(PlaybackError.serverOutputs.description) }
      return .lines(
        devices.map { device in
          (device.name == settings.device ? "* " : "  ") + TextSanitizer.escaped(device.name) + " — "
            + TextSanitizer.escaped(device.description)
        })
    case .device(let name?):
      let devices = try player.audioDevices()
      guard !devices.isEmpty else { throw CommandError(PlaybackError.serverOutputs.description) }
      guard let device = devices.first(where: { $0.name == name }) else {
        throw CommandError(
          "no audio device '\(TextSanitizer.escaped(name))' (libmpv lists \(devices.map { TextSanitizer.escaped($0.name) }.joined(separator: ", ")); 'audio device' says what each is)"
        )
      }
      settings.device = device.name
    case .exclusive(let on):
      settings.exclusive = on
    case .equalizer(nil):
      return .lines([Self.describe(settings.equalizer)])
    case .equalizer(let equalizer?):
      settings.equalizer = equalizer.flatMap { $0.isFlat ? nil : $0 }
    }
    try player.setAudio(settings)
    try library.setAudioSettings(settings)
    switch change {
    case .device: return .lines(["audio device " + TextSanitizer.escaped(settings.device)])
    case .exclusive: return .lines([settings.exclusive ? "audio exclusive on" : "audio exclusive off"])
    default: return .lines([Self.describe(settings.equalizer)])
    }
  }

  /// The three settings, a line each.
  static func describe(_ settings: AudioSettings) -> [String] {
    [
      "audio device " + TextSanitizer.escaped(settings.device)
        + (settings.device == AudioSettings.automatic ? " (libmpv's choice)" : ""),
      settings.exclusive ? "audio exclusive on" : "audio exclusive off", describe(settings.equalizer),
    ]
  }

  /// `equalizer off`, or each band's gain and the pre-amp.
  static func describe(_ equalizer: Equalizer?) -> String {
    guard let equalizer else { return "equalizer off" }
    let bands = zip(Equalizer.frequencies, equalizer.gains).map { Equalizer.bandName($0) + " " + Equalizer.signed($1) }
    return "equalizer " + bands.joined(separator: ", ") + "; preamp " + Equalizer.signed(equalizer.preamp) + " dB"
  }

  /// What `now` says of settings that are not the default; nil for the defaults.
  static func summary(_ settings: AudioSettings) -> String? {
    var parts: [String] = []
    if settings.device != AudioSettings.automatic { parts.append("device " + TextSanitizer.escaped(settings.device)) }
    if settings.exclusive { parts.append("exclusive") }
    if settings.equalizer != nil { parts.append("equalizer on") }
    return parts.isEmpty ? nil : "audio: " + parts.joined(separator: ", ")
  }
}
