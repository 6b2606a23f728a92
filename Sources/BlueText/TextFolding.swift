/// Text without case, accents or width, as searches and MusicBrainz matches compare it: what
/// Foundation's `folding(options: [.caseInsensitive, .diacriticInsensitive,
/// .widthInsensitive], locale: nil)` gave, scalar for scalar, without Foundation (whose ICU
/// data was 36 of the binary's 66 MB; issue 47).
///
/// CoreFoundation folds a cluster at a time: a base scalar and the grapheme extenders after it.
/// The base becomes what it becomes alone (`É` → `e`, `ß` → `ss`, `Ａ` → `a`); the extenders
/// after it are dropped when the base is Latin, Greek or Cyrillic once folded (below U+0510),
/// else kept in their canonical decomposition (but a first one up to U+050F is dropped after a
/// base that folding left as it was); the kept ones are then ordered by combining class. The
/// tables (TextFolding+Tables.swift) are Foundation's own answers, which make-tables.swift
/// asked scalar by scalar; BlueTextTests compares every scalar and random clusters again.
package enum TextFolding {
  /// `text` folded.
  package static func folded(_ text: String) -> String {
    // Printable ASCII (most titles) folds to its lower case.
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
      return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
    var text = text
    return text.withUTF8 { fold($0) }
  }

  private static func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var cluster: [UInt32] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      // An ASCII base with no extender after it (an extender is never ASCII) is its lower case.
      if byte < 0x80 && (index + 1 == bytes.count || bytes[index + 1] < 0x80) {
        out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        index += 1
        continue
      }
      let (base, length) = decode(bytes, at: index)
      index += length
      // NUL starts no cluster: what follows it is folded as if it came first.
      guard base != 0 else {
        out.append(0)
        continue
      }
      cluster.removeAll(keepingCapacity: true)
      let info = info(of: base)
      append(base, info: info, to: &cluster)
      let keepsAll = info & Self.keepsAll != 0
      let keeps = keepsAll || info & Self.keepsButFirstLow != 0
      var first = true
      while index < bytes.count, bytes[index] >= 0x80 {
        let (mark, markLength) = decode(bytes, at: index)
        guard isExtender(mark) else { break }
        if keeps {
          // CoreFoundation's cluster holds 64 scalars: the extenders past it start clusters of their own.
          if cluster.count >= clusterLimit { break }
          if first && !keepsAll {
            if mark > 0x50F { appendExtender(mark, to: &cluster) }
          } else {
            let before = cluster.count
            appendExtender(mark, to: &cluster)
            if cluster.count > clusterLimit {
              cluster.removeLast(cluster.count - before)
              break
            }
          }
        }
        first = false
        index += markLength
      }
      if cluster.count > 1 { orderExtenders(&cluster) }
      for value in cluster { encode(value, to: &out) }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static let clusterLimit = 64

  // A scalar's entry: these flags, and from bit 8 its place in `foldedKeys` plus one (0: it
  // folds to itself).
  private static let keepsAll: UInt32 = 1
  private static let keepsButFirstLow: UInt32 = 2
  private static let extender: UInt32 = 4

  /// The entries of U+0000…U+05FF (Latin, Greek, Cyrillic, the combining marks), made at the
  /// first fold that needs one.
  private static let firstEntries: [UInt32] = (0..<UInt32(0x600)).map(entry)

  private static func entry(_ scalar: UInt32) -> UInt32 {
    var entry = position(of: scalar, in: foldedKeys).map { UInt32($0 + 1) << 8 } ?? 0
    if inRanges(scalar, keepingAll) { entry |= keepsAll }
    if inRanges(scalar, keepingButFirstLow) { entry |= keepsButFirstLow }
    if scalar >= 0x80 && inRanges(scalar, extenders) { entry |= extender }
    return entry
  }

  private static func info(of scalar: UInt32) -> UInt32 {
    scalar < 0x600 ? firstEntries[Int(scalar)] : entry(scalar)
  }

  private static func isExtender(_ scalar: UInt32) -> Bool {
    if scalar < 0x300 { return false }
    if scalar < 0x600 { return firstEntries[Int(scalar)] & extender != 0 }
    return inRanges(scalar, extenders)
  }

  /// Appends what the base `scalar` (whose entry is `info`) becomes alone.
  private static func append(_ scalar: UInt32, info: UInt32, to cluster: inout [UInt32]) {
    guard info >> 8 != 0 else {
      cluster.append(scalar)
      return
    }
    let position = Int(info >> 8) - 1
    cluster.append(contentsOf: foldedValues[Int(foldedStarts[position])..<Int(foldedStarts[position + 1])])
  }

  /// Appends what a kept extender becomes (its canonical decomposition).
  private static func appendExtender(_ scalar: UInt32, to cluster: inout [UInt32]) {
    guard let position = position(of: scalar, in: extenderFoldedKeys) else {
      cluster.append(scalar)
      return
    }
    cluster.append(
      contentsOf: extenderFoldedValues[Int(extenderFoldedStarts[position])..<Int(extenderFoldedStarts[position + 1])])
  }

  /// The scalar whose UTF-8 starts at `index` of the valid UTF-8 `bytes`, and its length.
  @inline(__always)
  private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
    let lead = UInt32(bytes[index])
    if lead < 0x80 { return (lead, 1) }
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2) }
    if lead < 0xF0 {
      return ((lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F), 3)
    }
    let high = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
    return (high | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F), 4)
  }

  @inline(__always)
  private static func encode(_ value: UInt32, to out: inout [UInt8]) {
    switch value {
    case 0..<0x80:
      out.append(UInt8(value))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | value >> 6))
      out.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | value >> 12))
      out.append(UInt8(0x80 | value >> 6 & 0x3F))
      out.append(UInt8(0x80 | value & 0x3F))
    default:
      out.append(UInt8(0xF0 | value >> 18))
      out.append(UInt8(0x80 | value >> 12 & 0x3F))
      out.append(UInt8(0x80 | value >> 6 & 0x3F))
      out.append(UInt8(0x80 | value & 0x3F))
    }
  }

  /// Where `value` is in the sorted `keys`, nil when it is not.
  private static func position(of value: UInt32, in keys: [UInt32]) -> Int? {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < keys.count && keys[low] == value ? low : nil
  }

  /// Whether `value` lies in one of the ranges of `bounds` (first, last, first, last…, in order).
  static func inRanges(_ value: UInt32, _ bounds: [UInt32]) -> Bool {
    var low = 0
    var high = bounds.count / 2
    while low < high {
      let middle = (low + high) / 2
      if bounds[2 * middle + 1] < value { low = middle + 1 } else { high = middle }
    }
    return low < bounds.count / 2 && bounds[2 * low] <= value
  }

  /// CoreFoundation's order of a cluster's extenders: from the last scalar that is no extender,
  /// past the leading scalars of combining class 0, a bubble sort by combining class (which, as
  /// CoreFoundation's, also moves a class-0 scalar before marks).
  private static func orderExtenders(_ cluster: inout [UInt32]) {
    var start = cluster.count - 1
    while start > 0, isExtender(cluster[start]) { start -= 1 }
    func combiningClass(_ value: UInt32) -> UInt8 {
      Unicode.Scalar(value)?.properties.canonicalCombiningClass.rawValue ?? 0
    }
    while start < cluster.count, combiningClass(cluster[start]) == 0 { start += 1 }
    guard cluster.count - start > 1 else { return }
    var changed = true
    while changed {
      changed = false
      for index in (start + 1)..<cluster.count where combiningClass(cluster[index - 1]) > combiningClass(cluster[index])
      {
        cluster.swapAt(index - 1, index)
        changed = true
      }
    }
  }
}
