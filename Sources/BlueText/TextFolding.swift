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
    let scalars = Array(text.unicodeScalars)
    var out = String.UnicodeScalarView()
    var cluster: [UInt32] = []
    var index = 0
    while index < scalars.count {
      let base = scalars[index].value
      index += 1
      // NUL starts no cluster: what follows it is folded as if it came first.
      guard base != 0 else {
        out.append(scalars[index - 1])
        continue
      }
      cluster.removeAll(keepingCapacity: true)
      append(base, folded: (foldedKeys, foldedStarts, foldedValues), to: &cluster)
      let keepsAll = inRanges(base, keepingAll)
      let keeps = keepsAll || inRanges(base, keepingButFirstLow)
      var first = true
      while index < scalars.count, case let mark = scalars[index].value, mark >= 0x80, inRanges(mark, extenders) {
        if keeps {
          // CoreFoundation's cluster holds 64 scalars: the extenders past it start clusters of their own.
          if cluster.count >= clusterLimit { break }
          if first && !keepsAll {
            if mark > 0x50F {
              append(mark, folded: (extenderFoldedKeys, extenderFoldedStarts, extenderFoldedValues), to: &cluster)
            }
          } else {
            let before = cluster.count
            append(mark, folded: (extenderFoldedKeys, extenderFoldedStarts, extenderFoldedValues), to: &cluster)
            if cluster.count > clusterLimit {
              cluster.removeLast(cluster.count - before)
              break
            }
          }
        }
        first = false
        index += 1
      }
      if cluster.count > 1 { orderExtenders(&cluster) }
      for value in cluster { out.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
    }
    return String(out)
  }

  private static let clusterLimit = 64

  /// Appends what `scalar` becomes in `table` (itself when it is not a key).
  private static func append(
    _ scalar: UInt32, folded table: (keys: [UInt32], starts: [UInt32], values: [UInt32]), to cluster: inout [UInt32]
  ) {
    guard let position = position(of: scalar, in: table.keys) else {
      cluster.append(scalar)
      return
    }
    cluster.append(contentsOf: table.values[Int(table.starts[position])..<Int(table.starts[position + 1])])
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
    while start > 0, cluster[start] >= 0x80, inRanges(cluster[start], extenders) { start -= 1 }
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
