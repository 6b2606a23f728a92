/// Text appended to a byte buffer without a `String` in between, for the lines written a
/// million times (`list`): a `String`'s `utf8` view and `String(Int)` go through generic
/// paths that cost more than the rest of a line.
extension Array where Element == UInt8 {
  /// Appends `literal`'s UTF-8 bytes.
  mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }

  /// Appends `value` in decimal, right-aligned with spaces in at least `width` columns.
  mutating func appendDecimal(_ value: Int, width: Int = 0) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for any Int
    var magnitude = value.magnitude
    var count = 0
    Swift.withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        count += 1
        buffer[buffer.count - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if value < 0 {
        count += 1
        buffer[buffer.count - count] = UInt8(ascii: "-")
      }
      if width > count { append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - count)) }
      append(contentsOf: buffer[(buffer.count - count)...])
    }
  }
}
