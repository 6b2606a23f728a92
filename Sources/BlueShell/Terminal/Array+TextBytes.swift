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
    // Written from the last digit back to the padding, on the stack, then appended at once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(width, 20)) { buffer in
      var start = buffer.count
      var rest = value.magnitude
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      if value < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      while start > buffer.count - width {
        start -= 1
        buffer[start] = UInt8(ascii: " ")
      }
      append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }
}
