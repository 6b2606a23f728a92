/// Appends bytes to memory reserved in advance: the caller sizes the buffer for the worst
/// case, so no append checks capacity or uniqueness.
struct ByteWriter {
  private let start: UnsafeMutablePointer<UInt8>
  private var cursor: UnsafeMutablePointer<UInt8>

  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    start = buffer.baseAddress!
    cursor = start
  }

  /// Bytes written so far.
  var count: Int { cursor - start }

  mutating func append(_ byte: UInt8) {
    cursor.pointee = byte
    cursor += 1
  }

  mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
    cursor[0] = a
    cursor[1] = b
    cursor[2] = c
    cursor += 3
  }

  /// `value` (0...255) in decimal, from `DecimalTable`. Always stores three bytes and
  /// advances by the digit count, so the buffer needs two bytes of slack at its end.
  mutating func appendDecimal(_ value: UInt32, _ table: UnsafePointer<UInt32>) {
    let packed = table[Int(value)]
    cursor[0] = UInt8(truncatingIfNeeded: packed >> 8)
    cursor[1] = UInt8(truncatingIfNeeded: packed >> 16)
    cursor[2] = UInt8(truncatingIfNeeded: packed >> 24)
    cursor += Int(packed & 0xFF)
  }
}

/// The decimal digits of 0...255, packed as `count | d0 << 8 | d1 << 16 | d2 << 24`.
enum DecimalTable {
  static let entries: [UInt32] = (0...255).map { value in
    let digits = Array(String(value).utf8)
    var packed = UInt32(digits.count)
    for (position, digit) in digits.enumerated() { packed |= UInt32(digit) << (8 * (position + 1)) }
    return packed
  }
}
