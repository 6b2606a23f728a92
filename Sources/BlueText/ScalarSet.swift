/// The sets of scalars bluelib took from Foundation's `CharacterSet`, the same scalars without
/// Foundation (issue 47): `whitespaces` (General Category Zs, tab and U+200B),
/// `whitespacesAndNewlines` (those, Zl, Zp, U+000A…U+000D and U+0085) and `alphanumerics`
/// (General Categories L*, M* and N* of Foundation's Unicode, older than the standard
/// library's: ScalarSet+Tables.swift lists the newer ones). BlueTextTests compares every scalar.
package enum ScalarSet: Sendable {
  case whitespaces
  case whitespacesAndNewlines
  case alphanumerics

  /// Whether `scalar` is in the set.
  package func contains(_ scalar: Unicode.Scalar) -> Bool {
    switch self {
    case .whitespaces:
      return scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    case .whitespacesAndNewlines:
      switch scalar.value {
      case 0x09...0x0D, 0x85, 0x200B: return true
      default: break
      }
      switch scalar.properties.generalCategory {
      case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
      default: return false
      }
    case .alphanumerics:
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
        .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
        return scalar.isASCII || !TextFolding.inRanges(scalar.value, Self.newerAlphanumerics)
      default:
        return false
      }
    }
  }
}

extension StringProtocol {
  /// The text without the scalars of `set` at either end: Foundation's
  /// `trimmingCharacters(in:)`.
  package func trimming(_ set: ScalarSet) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !set.contains($0) }),
      let last = scalars.lastIndex(where: { !set.contains($0) })
    else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}
