/// How every message writes a number: in groups of three digits, and with its noun.
package enum Counting {
  /// `count` and the noun, plural unless it is 1, with thousands separators: `1 track`,
  /// `20,164 tracks`.
  package static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    count == 1 ? "1 \(noun)" : "\(grouped(count)) \(plural ?? noun + "s")"
  }

  /// `20,000`: digits in groups of three.
  package static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    guard digits.count > 3 else { return number < 0 ? "-" + digits : digits }
    var out = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return (number < 0 ? "-" : "") + out
  }
}
