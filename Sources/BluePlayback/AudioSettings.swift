/// Where and how the player's audio goes out (`audio`): the output device, exclusive use of
/// it, and an equalizer. Kept in the library file; applied when the engine is made and to
/// what plays when changed.
package struct AudioSettings: Sendable, Equatable {
  /// The output device by the engine's name for it (libmpv's `audio-device-list`), or
  /// ``automatic`` for the engine's own choice.
  package var device: String
  /// Whether the device is taken for bluelib alone (libmpv's `audio-exclusive`: no mixing
  /// by the sound server, the files' sample rate where the device takes it).
  package var exclusive: Bool
  /// The equalizer; nil plays the audio as it is.
  package var equalizer: Equalizer?

  /// The engine's choice of device.
  package static let automatic = "auto"

  package init(device: String = automatic, exclusive: Bool = false, equalizer: Equalizer? = nil) {
    self.device = device
    self.exclusive = exclusive
    self.equalizer = equalizer
  }
}

/// A device the engine can play on: its name (what `audio device NAME` takes) and what the
/// system calls it.
package struct AudioDevice: Sendable, Equatable {
  package let name: String
  package let description: String

  package init(name: String, description: String) {
    self.name = name
    self.description = description
  }
}

/// A ten-band graphic equalizer (octave bands, 31 Hz to 16 kHz) with a pre-amp.
///
/// The pre-amp leaves headroom: unless one is given, it is the largest boost taken away
/// (bands of +6 and +3 dB get a pre-amp of −6 dB), so a full-scale recording boosted by a
/// band still fits under full scale; cuts need none.
package struct Equalizer: Sendable, Equatable {
  /// The bands' centre frequencies, in hertz.
  package static let frequencies: [Int] = [31, 62, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
  /// The gains a band takes, in decibels.
  package static let gainRange = -12.0...12.0
  /// The pre-amps taken, in decibels.
  package static let preampRange = -24.0...12.0

  /// One gain a band, in decibels, in ``frequencies``' order.
  package let gains: [Double]
  /// The gain before the bands, in decibels.
  package let preamp: Double

  /// An equalizer of `gains` (one a band), with `preamp` or else the headroom its boosts
  /// need; nil when a count or a value is out of range.
  package init?(gains: [Double], preamp: Double? = nil) {
    guard gains.count == Self.frequencies.count, gains.allSatisfy({ Self.gainRange.contains($0) }) else {
      return nil
    }
    let preamp = preamp ?? -max(0, gains.max() ?? 0)
    guard Self.preampRange.contains(preamp) else { return nil }
    self.gains = gains
    self.preamp = preamp == 0 ? 0 : preamp
  }

  /// Whether every band and the pre-amp are at 0 dB (the audio passes as it is).
  package var isFlat: Bool { preamp == 0 && gains.allSatisfy { $0 == 0 } }

  /// ffmpeg's filters for it (libmpv's `af`, through `lavfi`): the pre-amp (`volume`), then
  /// one peaking `equalizer` an octave wide for each band that is not at 0 dB.
  package var filters: [String] {
    var filters = preamp == 0 ? [] : ["volume=volume=\(Self.number(preamp))dB"]
    for (frequency, gain) in zip(Self.frequencies, gains) where gain != 0 {
      filters.append("equalizer=f=\(frequency):t=o:w=1:g=\(Self.number(gain))")
    }
    return filters
  }

  /// How it is kept (the library file) and said (`audio eq`): the gains, then `preamp P`.
  package var text: String {
    gains.map(Self.signed).joined(separator: " ") + " preamp " + Self.signed(preamp)
  }

  /// The equalizer ``text`` describes; nil for any other text.
  package init?(text: String) {
    let words = text.split(separator: " ")
    guard words.count == Self.frequencies.count + 2, words[Self.frequencies.count] == "preamp" else { return nil }
    let numbers = words.enumerated().filter { $0.offset != Self.frequencies.count }.map { Double($0.element) }
    guard numbers.allSatisfy({ $0 != nil && $0!.isFinite }) else { return nil }
    let values = numbers.map { $0! }
    self.init(gains: Array(values.prefix(Self.frequencies.count)), preamp: values.last)
  }

  /// `1000` → `1 kHz`, `125` → `125 Hz`.
  package static func bandName(_ frequency: Int) -> String {
    frequency >= 1000 ? "\(frequency / 1000) kHz" : "\(frequency) Hz"
  }

  /// `3` → `+3`, `-2.5` → `-2.5`, `0` → `0`.
  package static func signed(_ value: Double) -> String {
    (value > 0 ? "+" : "") + number(value)
  }

  private static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
