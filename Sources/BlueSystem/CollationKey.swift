/// Text as a reader sorts it: the key `sort`, `scroll to`, completion and grouping compare,
/// in SQL (the `title_key` and `artist_key` columns, Schema version 19) and in Swift alike.
///
/// The key is the text at the Unicode Collation Algorithm's primary strength for Latin
/// script, as its default table (DUCET, the root collation of CLDR and ICU) weighs it: case
/// and accents do not count (`Émile` sorts with `emile`, `Ólafur` with `olafur`, `Åkesson`
/// with `akesson`: their letters decompose to a base letter and a mark), the letters DUCET
/// expands are expanded (`ß` → `ss`, `æ` → `ae`, `œ` → `oe`, `þ` → `th`), and the letters it
/// weighs as their base letter with a secondary difference (`ø`, `đ`, `ł`, `ħ`: an
/// overlaid stroke, since UCA 6.2) are their base letter. So `Øystein` sorts among the O's,
/// as MPD sorts (its `IcuCollate`, ICU's collator), and not after Z as byte order (and
/// beets' `LOWER()` in SQL) put it. Danish, Norwegian and Swedish readers file Å, Æ and Ø
/// after Z; a library of one language could want that tailoring, but the root order is the
/// one every other reader expects. Fullwidth ASCII is its ASCII; other scripts are their
/// lower case (Unicode's own mapping, no locale). Ties (`Emile`, `Émile`) keep library order.
///
/// Made over UTF-8 bytes: ASCII (most titles) is one comparison a byte, and the Latin
/// letters are read from a table made once, from the scalars' Unicode names (`LATIN SMALL
/// LETTER O WITH STROKE` is an `o`), with no Foundation and no ICU.
package enum CollationKey {
  /// The key of `text`.
  package static func key(_ text: String) -> String {
    var copy = text
    return copy.withUTF8 { bytes in
      if !bytes.contains(where: { $0 >= 0x80 || ($0 >= 0x41 && $0 <= 0x5A) }) { return text }
      return String(decoding: keyBytes(bytes), as: UTF8.self)
    }
  }

  /// The key of `text` when it differs from `text` with its ASCII letters in lower case
  /// (SQLite's `lower()`), which is the key of every ASCII text; nil otherwise. What the
  /// library stores: a key column is NULL for the ASCII titles of most libraries.
  package static func storedKey(_ text: String) -> String? {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      let key = keyBytes(bytes)
      // An empty key (a title of marks alone) would read as "not keyed yet": none is stored.
      if key.isEmpty || key.count == bytes.count && zip(key, bytes).allSatisfy({ $0 == asciiLower($1) }) {
        return nil
      }
      return String(decoding: key, as: UTF8.self)
    }
  }

  /// Whether `text`'s key starts with `prefix`'s key: `scroll to R` finds `Røyksopp`, and
  /// not `Greatest Hits`.
  package static func key(of text: String, startsWith prefix: String) -> Bool {
    key(text).utf8.starts(with: key(prefix).utf8)
  }

  @inline(__always)
  private static func asciiLower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
  }

  private static func keyBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        out.append(asciiLower(byte))
        index += 1
        continue
      }
      let (value, length) = decode(bytes, at: index)
      index += length
      append(value, to: &out)
    }
    return out
  }

  private static func append(_ value: UInt32, to out: inout [UInt8]) {
    switch value {
    case 0x80..<0x250:
      out.append(contentsOf: latin[Int(value - 0x80)])
    case 0x1E00..<0x1F00:
      out.append(contentsOf: latinAdditional[Int(value - 0x1E00)])
    // Combining marks: a decomposed accent weighs nothing at the primary strength.
    case 0x300..<0x370, 0x1AB0..<0x1B00, 0x1DC0..<0x1E00, 0x20D0..<0x2100, 0xFE20..<0xFE30:
      break
    // Fullwidth ASCII.
    case 0xFF01...0xFF5E:
      out.append(asciiLower(UInt8(value - 0xFEE0)))
    default:
      guard let scalar = Unicode.Scalar(value) else { return }
      out.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
    }
  }

  /// The keys of U+0080…U+024F (Latin-1, Latin Extended-A and -B).
  private static let latin: [[UInt8]] = (UInt32(0x80)..<0x250).map(latinKey)
  /// The keys of U+1E00…U+1EFF (Latin Extended Additional: Vietnamese, Welsh…).
  private static let latinAdditional: [[UInt8]] = (UInt32(0x1E00)..<0x1F00).map(latinKey)

  /// A Latin letter's key, read from its Unicode name: `LATIN CAPITAL LETTER E WITH
  /// ACUTE` is `e`, `LATIN SMALL LIGATURE OE` is `oe`, `LATIN SMALL LETTER SHARP S` is
  /// `ss`; anything else is its lower case.
  private static func latinKey(_ value: UInt32) -> [UInt8] {
    guard let scalar = Unicode.Scalar(value) else { return [] }
    if value == 0xA0 { return [0x20] }  // NO-BREAK SPACE
    let lower = Array(scalar.properties.lowercaseMapping.utf8)
    guard let name = scalar.properties.name else { return lower }
    let prefixes = ["LATIN CAPITAL LETTER ", "LATIN SMALL LETTER ", "LATIN CAPITAL LIGATURE ", "LATIN SMALL LIGATURE "]
    guard let prefix = prefixes.first(where: name.hasPrefix) else { return lower }
    var base = Substring(name.dropFirst(prefix.count))
    if let with = base.firstRange(of: " WITH ") { base = base[..<with.lowerBound] }
    switch base {
    case "SHARP S": return Array("ss".utf8)
    case "ETH": return Array("d".utf8)
    case "THORN": return Array("th".utf8)
    case "DOTLESS I": return Array("i".utf8)
    case "DOTLESS J": return Array("j".utf8)
    case "LONG S": return Array("s".utf8)
    case "ENG": return Array("n".utf8)
    default:
      // One or two letters: `O`, `AE`, `OE`, `IJ`, `DZ`, `LJ`, `NJ`.
      guard (1...2).contains(base.utf8.count), base.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return lower }
      return base.utf8.map { $0 | 0x20 }
    }
  }

  /// The scalar whose UTF-8 starts at `index` of the valid UTF-8 `bytes`, and its length.
  @inline(__always)
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
    let lead = UInt32(bytes[index])
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
    if lead < 0xF0 {
      return ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
    }
    let high = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
    return (high | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F), 4)
  }
}
