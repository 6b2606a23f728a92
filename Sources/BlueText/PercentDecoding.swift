extension StringProtocol {
  /// The text with each `%XX` replaced by the byte it names, as Foundation's
  /// `removingPercentEncoding`: nil when a `%` is not followed by two hexadecimal digits or the
  /// bytes are no UTF-8.
  package var percentDecoded: String? {
    guard utf8.contains(0x25) else { return String(self) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8.count)
    var iterator = utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == 0x25 else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }
}
