/// What a terminal answered to ``GraphicsProbe/query``, read out of the bytes that came
/// back on its input — which may also hold keys the user typed meanwhile (kept in
/// ``typedAhead`` for the line editor).
///
/// Depends on nothing but the standard library, so that the fuzz target
/// (`Tests/Fuzz/TerminalReplyFuzzTarget.swift`) builds it alone.
struct TerminalReply: Equatable {
  /// A cell size as the terminal said it, in pixels; not yet judged plausible.
  struct AnsweredCell: Equatable {
    var width: Int
    var height: Int
  }

  /// The kitty graphics query was answered `OK`.
  var kittyGraphics = false
  /// The primary device attributes (`ESC [ ? 62 ; 4 ; … c`), once they arrived: every
  /// terminal answers them, and they come last, so they end the wait.
  var deviceAttributes: [Int]?
  /// The cell size from `ESC [ 6 ; HEIGHT ; WIDTH t` (the answer to `ESC [ 16 t`), as said.
  var cellSize: AnsweredCell?
  /// Sixel colour registers from `ESC [ ? 1 ; 0 ; N S` (the answer to XTSMGRAPHICS).
  var colorRegisters: Int?
  /// Bytes that were not part of an answer: keys typed while we waited.
  var typedAhead: [UInt8] = []
  /// The introducer (`_`, `P`, `]` or `[`) of an over-long sequence being dropped up to its
  /// end, across reads.
  private var dropping: UInt8?

  /// The longest escape sequence read as an answer or a key: a longer one (a megabyte of
  /// `ESC _G AAAA…`) is dropped whole as it arrives, never typed.
  static let maximumSequenceLength = 4096

  /// True once the device attributes arrived (attribute 4: sixel graphics).
  var isComplete: Bool { deviceAttributes != nil }

  /// Sixel graphics: attribute 4 among the device attributes.
  var supportsSixel: Bool { deviceAttributes?.dropFirst().contains(4) ?? false }

  /// Reads `bytes` from the start; returns the reply and how many bytes it consumed (an
  /// escape sequence cut off at the end is left for the next read).
  static func parse(_ bytes: [UInt8]) -> (reply: TerminalReply, consumed: Int) {
    var reply = TerminalReply()
    let consumed = reply.read(bytes)
    return (reply, consumed)
  }

  /// Adds what `bytes` say to this reply; returns how many bytes were consumed.
  mutating func read(_ bytes: [UInt8]) -> Int {
    var index = 0
    while index < bytes.count {
      if let introducer = dropping {
        guard let end = Self.end(of: introducer, in: bytes, from: index) else {
          // An ESC last may begin the ESC \ that ends the sequence: kept for the next read.
          return bytes[bytes.count - 1] == 0x1B ? bytes.count - 1 : bytes.count
        }
        dropping = nil
        index = end
        continue
      }
      guard bytes[index] == 0x1B else {
        typedAhead.append(bytes[index])
        index += 1
        continue
      }
      guard let length = sequenceLength(bytes, from: index) else {
        // Unfinished: wait for the rest, unless it is already longer than any answer.
        guard bytes.count - index > Self.maximumSequenceLength else { return index }
        dropping = bytes[index + 1]
        index += 2
        continue
      }
      // A finished sequence that long is dropped too, as when it arrives in pieces.
      if length <= Self.maximumSequenceLength {
        let sequence = Array(bytes[index..<index + length])
        if !interpret(sequence) { typedAhead += sequence }
      }
      index += length
    }
    return index
  }

  /// True while an over-long sequence is being dropped (its end has not come yet).
  var isDropping: Bool { dropping != nil }

  /// Where the body of a sequence introduced by `introducer` ends in `bytes` (the index
  /// after its terminator), searching from `start`; nil when it does not end there.
  private static func end(of introducer: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if introducer == UInt8(ascii: "[") {
        if (0x40...0x7E).contains(byte) { return index + 1 }
      } else if byte == 0x07 {
        return index + 1
      } else if byte == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
        return index + 2
      }
      index += 1
    }
    return nil
  }

  /// The length of the escape sequence at `start`, or nil when it is not complete yet.
  private func sequenceLength(_ bytes: [UInt8], from start: Int) -> Int? {
    guard start + 1 < bytes.count else { return nil }
    switch bytes[start + 1] {
    case UInt8(ascii: "_"), UInt8(ascii: "P"), UInt8(ascii: "]"):
      // APC, DCS, OSC: up to ST (ESC \) or BEL.
      var index = start + 2
      while index < bytes.count {
        if bytes[index] == 0x07 { return index + 1 - start }
        if bytes[index] == 0x1B {
          guard index + 1 < bytes.count else { return nil }
          if bytes[index + 1] == UInt8(ascii: "\\") { return index + 2 - start }
        }
        index += 1
      }
      return nil
    case UInt8(ascii: "["):
      // CSI: parameters and intermediates, then a final byte 0x40...0x7E.
      var index = start + 2
      while index < bytes.count {
        if (0x40...0x7E).contains(bytes[index]) { return index + 1 - start }
        index += 1
      }
      return nil
    default:
      // ESC and one character (Alt+key, SS3 prefix): passed on as typed.
      return 2
    }
  }

  /// Records `sequence` when it is an answer; false when it is something typed.
  private mutating func interpret(_ sequence: [UInt8]) -> Bool {
    let text = String(decoding: sequence, as: UTF8.self)
    if text.hasPrefix("\u{1B}_G") {
      // `ESC _G i=31;OK ESC \` or an error (`;EINVAL:…`) from a terminal that knows the
      // protocol but not this use of it.
      let body = text.dropFirst(3)
      let keys = body.prefix { $0 != ";" }
      if keys.split(separator: ",").contains("i=31") && body.contains(";OK") { kittyGraphics = true }
      return true
    }
    if text.hasPrefix("\u{1B}[?"), text.hasSuffix("c") {
      deviceAttributes = numbers(text.dropFirst(3).dropLast())
      return true
    }
    if text.hasPrefix("\u{1B}[?"), text.hasSuffix("S") {
      let values = numbers(text.dropFirst(3).dropLast())
      // Item 1 (colour registers), status 0 (success), the count.
      if values.count >= 3, values[0] == 1, values[1] == 0, values[2] > 0 { colorRegisters = values[2] }
      return true
    }
    if text.hasPrefix("\u{1B}[6;"), text.hasSuffix("t") {
      let values = numbers(text.dropFirst(2).dropLast())
      if values.count == 3, values[1] > 0, values[2] > 0 {
        cellSize = AnsweredCell(width: values[2], height: values[1])
      }
      return true
    }
    // Any other DCS, APC or OSC (an XTVERSION, a colour report) is an answer too.
    return text.hasPrefix("\u{1B}P") || text.hasPrefix("\u{1B}_") || text.hasPrefix("\u{1B}]")
  }

  private func numbers(_ text: Substring) -> [Int] {
    text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
  }
}
