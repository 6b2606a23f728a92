import Testing

@testable import BlueShell

/// The byte appenders the hot lines use (`list`, a script's row) write what `String` would.
@Suite struct TextBytesTests {
  @Test(arguments: [0, 1, 9, 10, 99, 100, 1_000, 99_999, 100_000, 123_456_789, -1, -10, -987, Int.max, Int.min])
  func aDecimalIsItsDescription(value: Int) {
    for width in [0, 1, 3, 8, 25] {
      var bytes: [UInt8] = []
      bytes.appendDecimal(value, width: width)
      let text = String(value)
      #expect(
        String(decoding: bytes, as: UTF8.self) == String(repeating: " ", count: max(0, width - text.count)) + text)
    }
  }
}
