import AlbumModel
import BlueSystem

/// Numbers of tracks as typed after `edit ALBUM track` and `queue remove`: `3`, `1-10`,
/// `1,4,7-9`, several such words, or `all`.
enum TrackNumbers {
  /// Whether `text` is such a word: `all`, or digits with `,` and `-`.
  static func namesTracks(_ text: String) -> Bool {
    text.lowercased() == "all"
      || (text.contains { $0.isASCII && $0.isNumber }
        && text.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "," || $0 == "-" })
  }

  /// The numbers `words` name, in the order typed, each once; nil for `all` (when
  /// `allowingAll`).
  static func places(_ words: [String], allowingAll: Bool) throws(CommandError) -> [Int]? {
    if allowingAll, words.contains(where: { $0.lowercased() == "all" }) {
      guard words.count == 1 else { throw CommandError("'all' names every track; give it alone") }
      return nil
    }
    var places: [Int] = []
    var seen = Set<Int>()
    func number(_ text: Substring) throws(CommandError) -> Int {
      guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text)
      else {
        throw CommandError(
          "expected a track number or a range like 1-10, got \(TextSanitizer.quotedWord(String(text)))")
      }
      guard number >= 1 else { throw CommandError("tracks are numbered from 1, got \(number)") }
      return number
    }
    for word in words {
      for part in word.split(separator: ",", omittingEmptySubsequences: false) {
        let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count <= 2 else {
          throw CommandError(
            "expected a track number or a range like 1-10, got \(TextSanitizer.quotedWord(String(part)))")
        }
        let low = try number(bounds[0])
        let high = bounds.count == 2 ? try number(bounds[1]) : low
        guard low <= high else { throw CommandError("a range of tracks goes up: \(high)-\(low), not \(low)-\(high)") }
        for place in low...high where seen.insert(place).inserted { places.append(place) }
      }
    }
    return places
  }

  /// `11, 12, 14-20`: `numbers` ascending, runs of three or more as ranges.
  static func listed(_ numbers: [Int]) -> String { LibraryError.ranges(numbers) }
}
