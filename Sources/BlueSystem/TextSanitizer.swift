/// Makes text from the library, a file or a server safe to print on a terminal (SPEC §7).
///
/// Control characters (C0, DEL and C1) are shown as escapes — `\e`, `\n`, `\t`, `\x07`,
/// `\u{9b}` — so an imported title cannot move the cursor, change colours or set the
/// window title.
package enum TextSanitizer {
  /// `text` with every control character escaped.
  package static func escaped(_ text: String) -> String {
    // Printable ASCII (most titles) needs no look at scalars.
    let printable = text.utf8.withContiguousStorageIfAvailable { bytes in
      bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
    if printable ?? text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x1B: out += "\\e"
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case 0x09: out += "\\t"
      case 0x00...0x1F, 0x7F: out += "\\x" + hex(scalar.value, width: 2)
      default: out += "\\u{" + hex(scalar.value, width: 2) + "}"
      }
    }
    return out
  }

  /// Appends ``escaped(_:)`` of the UTF-8 `bytes` to `out`: printable ASCII as it is,
  /// without a `String`.
  package static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      out.append(contentsOf: bytes)
    } else {
      out.append(contentsOf: escaped(String(decoding: bytes, as: UTF8.self)).utf8)
    }
  }

  /// `text` escaped and cut to at most `limit` Unicode scalars (with `…`), for error messages
  /// that quote what the user typed. Scalars, not characters: one letter followed by 400,000
  /// combining accents is one character of 800 KB.
  package static func quotedWord(_ text: String, limit: Int = 40) -> String {
    let safe = escaped(text)
    guard safe.unicodeScalars.count > limit else { return "'" + safe + "'" }
    var cut = String.UnicodeScalarView()
    cut.append(contentsOf: safe.unicodeScalars.prefix(limit - 1))
    return "'" + String(cut) + "…'"
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (v >= 0x7F && v < 0xA0)
  }

  private static func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
