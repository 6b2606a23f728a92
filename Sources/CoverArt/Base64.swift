/// Standard base64 (RFC 4648, `+/`, `=` padding), the transport of the kitty and iTerm2
/// image protocols: a table lookup per 6 bits into memory reserved up front.
enum Base64 {
  private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// How many characters `count` bytes encode to.
  static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

  /// `bytes` in base64, as ASCII bytes.
  static func encode(_ bytes: [UInt8]) -> [UInt8] {
    let count = encodedCount(bytes.count)
    return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
      bytes.withUnsafeBufferPointer { input in
        alphabet.withUnsafeBufferPointer { table in
          var out = 0
          var index = 0
          let whole = input.count - input.count % 3
          while index < whole {
            let value = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output[out] = table[Int(value >> 18)]
            output[out + 1] = table[Int(value >> 12 & 0x3F)]
            output[out + 2] = table[Int(value >> 6 & 0x3F)]
            output[out + 3] = table[Int(value & 0x3F)]
            index += 3
            out += 4
          }
          let left = input.count - whole
          if left > 0 {
            var value = UInt32(input[index]) << 16
            if left == 2 { value |= UInt32(input[index + 1]) << 8 }
            output[out] = table[Int(value >> 18)]
            output[out + 1] = table[Int(value >> 12 & 0x3F)]
            output[out + 2] = left == 2 ? table[Int(value >> 6 & 0x3F)] : UInt8(ascii: "=")
            output[out + 3] = UInt8(ascii: "=")
          }
        }
      }
      initialized = count
    }
  }
}
