internal import CICU
import Synchronization

/// A compiled ICU regular expression: the engine (and so the syntax) of Foundation's
/// `NSRegularExpression`, from the system's libicu loaded at the first pattern (CICU; issue 47).
/// Immutable once made, and safe to use from any thread.
package final class RegularExpression: Sendable {
  /// Why a pattern cannot be used.
  package enum Failure: Error, Equatable, Sendable {
    /// ICU cannot be loaded: why not, one line.
    case unavailable(String)
    /// The pattern is none ICU compiles.
    case invalid
  }

  /// The compiled pattern clones are made of; only read.
  private let compiled: Handle
  /// A clone no search is using, kept for the next one (ICU's object holds a search's state).
  private let spare: Mutex<Handle?>

  private struct Handle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  /// Compiles `pattern` (`caseInsensitive`: ICU's UREGEX_CASE_INSENSITIVE, as `(?i)`).
  package init(_ pattern: String, caseInsensitive: Bool = false) throws(Failure) {
    if let why = cicu_unavailable() { throw .unavailable(String(cString: why)) }
    let units = Array(pattern.utf16)
    guard units.count < Int32.max,
      let pointer = cicu_regex_open(units, Int32(units.count), caseInsensitive ? UInt32(CICU_CASE_INSENSITIVE) : 0)
    else { throw .invalid }
    compiled = Handle(pointer: pointer)
    spare = Mutex(nil)
  }

  deinit {
    if let spare = spare.withLock({ $0 }) { cicu_regex_close(spare.pointer) }
    cicu_regex_close(compiled.pointer)
  }

  /// Whether the pattern matches somewhere in `text`; nil when `progress` stopped the search.
  /// ICU asks `progress` as it works (every so many steps of a match, and at each place a
  /// search starts from), as NSRegularExpression's `reportProgress` did; false stops it.
  package func matches(in text: String, progress: () -> Bool) -> Bool? {
    let units = Self.utf16(text)
    guard units.count < Int32.max else { return nil }
    guard let handle = spare.withLock({ $0.take() }) ?? cicu_regex_clone(compiled.pointer).map(Handle.init) else {
      return nil
    }
    defer {
      let unused = spare.withLock { slot -> Handle? in
        guard slot == nil else { return handle }
        slot = handle
        return nil
      }
      if let unused { cicu_regex_close(unused.pointer) }
    }
    let result = withoutActuallyEscaping(progress) { progress in
      var asker = Asker(ask: progress)
      return withUnsafeMutablePointer(to: &asker) { asker in
        cicu_regex_find(
          handle.pointer, units, Int32(units.count),
          { context in context!.assumingMemoryBound(to: Asker.self).pointee.ask() ? 1 : 0 },
          asker)
      }
    }
    switch Int(result) {
    case Int(CICU_FOUND): return true
    case Int(CICU_NOT_FOUND): return false
    default: return nil
    }
  }

  /// `text` in UTF-16, transcoded from its UTF-8 at once (`Array(text.utf16)` took ten times
  /// as long on text that is not ASCII).
  private static func utf16(_ text: String) -> [UInt16] {
    var text = text
    return text.withUTF8 { bytes in
      [UInt16](unsafeUninitializedCapacity: bytes.count) { units, count in
        var index = 0
        while index < bytes.count {
          let lead = UInt32(bytes[index])
          var scalar: UInt32
          switch lead {
          case 0..<0x80:
            scalar = lead
            index += 1
          case 0x80..<0xE0:
            scalar = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
            index += 2
          case 0xE0..<0xF0:
            scalar = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            index += 3
          default:
            scalar = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
            scalar |= UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
            index += 4
          }
          if scalar < 0x10000 {
            units[count] = UInt16(scalar)
            count += 1
          } else {
            units[count] = UInt16(0xD800 + ((scalar - 0x10000) >> 10))
            units[count + 1] = UInt16(0xDC00 + (scalar & 0x3FF))
            count += 2
          }
        }
      }
    }
  }

  private struct Asker {
    let ask: () -> Bool
  }
}
