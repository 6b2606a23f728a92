import BlueLibrary

/// What a user probably meant when a query matched nothing: the syntax of a field that
/// reads like the words typed (`1990s` is `year:1990..1999`, `cover:none` is `art:none`).
enum QueryHints {
  /// `did you mean 'year:1990..1999'?`, or nil when no word reads like another syntax.
  static func hint(for words: [String]) -> String? {
    var changed = false
    let rewritten = words.map { word -> String in
      if let better = better(word) {
        changed = true
        return better
      }
      return word
    }
    return changed ? "did you mean '\(rewritten.joined(separator: " "))'?" : nil
  }

  /// The word as the query language spells what it seems to mean, or nil.
  static func better(_ word: String) -> String? {
    let lowered = word.lowercased()
    // A decade: `1990s`, `1990's`, `90s`.
    var digits = Substring(lowered)
    if digits.hasSuffix("'s") {
      digits = digits.dropLast(2)
    } else if digits.hasSuffix("s") {
      digits = digits.dropLast()
    }
    if digits.allSatisfy(\.isASCIINumber), let number = Int(digits), number % 10 == 0 {
      let start: Int? =
        digits.count == 4 ? number : digits.count == 2 ? (number >= 30 ? 1900 + number : 2000 + number) : nil
      if let start { return "year:\(start)..\(start + 9)" }
    }
    // Copies of a release are a field (beets' `duplicates` is a plug-in's verb).
    if ["dupes", "dups", "duplicates", "duplicate", "twins"].contains(lowered) { return "duplicate:true" }
    // Where a cover stands is `art`, not `cover` (the URL).
    for state in ["none", "local", "downloaded", "url"]
    where lowered == "cover:" + state || lowered == "covers:" + state {
      return "art:" + state
    }
    return nil
  }
}

extension Character {
  fileprivate var isASCIINumber: Bool { isASCII && isNumber }
}
