import AlbumModel
import BlueSystem

/// A listing that printed album numbers (`list`, `list sun`): what the user reads numbers
/// from, kept in the library file so that a number typed after a restart means what it
/// meant (issue 50, item 1).
package struct NumberedListing: Sendable, Equatable {
  /// The command that printed it, as typed (`list sun`).
  package let source: String
  /// The numbering it showed (``Library/numbering()``).
  package let numbering: String
}

/// What the albums' numbers are now, and what the user saw them be.
///
/// A number (`write 890`, `tap 3`, `delete 2-4`) means the album the user last saw with it:
/// the current numbering when it is the one the last listing showed, or when it is the
/// current album's, which the cards drawn since show (`3 of 54`, a script's `[3/54]`; the
/// other cards of a row are pictures to a reader, not numbers read). When the albums were
/// numbered anew since that listing — another view (`find`), a delete, an import, an undo,
/// another shell's change — any other number is refused, and the refusal says which listing
/// it came from and what renumbered the albums since. A library nobody listed takes numbers
/// as they are.
///
/// The numbering is the view's ids in order (their FNV-1a digest), or, with no view, the
/// library's order, counted by the store whenever a step moves albums (``AlbumStore/numberingCount()``).
struct NumberingState {
  /// The latest listing, this session's or the last one's (read from the file at start).
  var listing: NumberedListing?
  /// The numbering when the cards were last drawn, and the indices whose numbers they showed.
  var cards: (numbering: String, shown: ClosedRange<Int>)?
  /// The command after which the numbering first differed from the listing's, if this
  /// session saw it change (nil: unknown, as after a restart).
  var renumberedBy: String?
  /// The numbering as of the end of the last command.
  var known: String?
  /// ``Library/numbering()`` as last made, and the state it was made in.
  var cached: (view: Int, writes: Int, dataVersion: Int, numbering: String)?
}

extension Library {
  /// The current numbering: what album number N means now, as a text two numberings are
  /// compared by (equal texts, equal numbers). Made again only after a change.
  package func numbering() throws(LibraryError) -> String {
    if let view {
      // The view's ids change only when it is set again.
      if let cached = numberingState.cached, cached.view == viewChanges { return cached.numbering }
      // FNV-1a over the ids in order: the same in every process, unlike `Hasher`.
      var digest: UInt64 = 0xcbf2_9ce4_8422_2325
      for id in view.ids {
        var value = UInt64(bitPattern: id)
        for _ in 0..<8 {
          digest = (digest ^ (value & 0xFF)) &* 0x100_0000_01b3
          value >>= 8
        }
      }
      let numbering = "view \(view.ids.count) \(String(digest, radix: 16))"
      numberingState.cached = (viewChanges, -1, -1, numbering)
      return numbering
    }
    let writes = store.writeCount.load(ordering: .relaxed)
    let version = dataVersion ?? -1
    if let cached = numberingState.cached, cached.view == viewChanges, cached.writes == writes,
      cached.dataVersion == version
    {
      return cached.numbering
    }
    let numbering = "library \(try store.numberingCount())"
    numberingState.cached = (viewChanges, writes, version, numbering)
    return numbering
  }

  /// Records that `source` (`list sun`, as typed) printed album numbers in the current
  /// numbering; kept in the library file for the next start.
  package func noteListing(_ source: String) {
    guard let numbering = try? numbering() else { return }
    let listing = NumberedListing(source: source, numbering: numbering)
    numberingState.renumberedBy = nil
    numberingState.known = numbering
    guard listing != numberingState.listing else { return }
    numberingState.listing = listing
    try? store.setListing(source: source, numbering: numbering)
  }

  /// Records that the cards drawn now show the numbers of `indices` (0-based): the current
  /// album's.
  package func noteCardsShown(_ indices: ClosedRange<Int>) {
    guard numberingState.listing != nil, let numbering = try? numbering() else { return }
    numberingState.cards = (numbering, indices)
  }

  /// Notes, after a command (`command`, as typed) or before one (nil: another shell's
  /// change, noticed), whether the albums were numbered anew since the last look.
  package func noteRenumbering(by command: @autoclosure () -> String?) {
    guard let listing = numberingState.listing, let numbering = try? numbering() else { return }
    defer { numberingState.known = numbering }
    guard let known = numberingState.known else { return }
    if numbering == listing.numbering {
      numberingState.renumberedBy = nil
    } else if numbering != known, numberingState.renumberedBy == nil {
      numberingState.renumberedBy = command() ?? "another shell's change"
    }
  }

  /// Why the album numbers `numbers` (1-based, as typed: one, or a range) cannot be taken to
  /// mean what the current numbering gives them, or nil when they can (see ``NumberingState``).
  package func refusal(ofNumbers numbers: ClosedRange<Int>) -> String? {
    guard let listing = numberingState.listing, let numbering = try? numbering(), listing.numbering != numbering
    else { return nil }
    if let cards = numberingState.cards, cards.numbering == numbering, numbers.lowerBound > Int.min,
      cards.shown.contains(numbers.lowerBound - 1), cards.shown.contains(numbers.upperBound - 1)
    {
      return nil
    }
    let source = "'" + TextSanitizer.escaped(listing.source) + "'"
    let since =
      numberingState.renumberedBy.map { " before '" + TextSanitizer.escaped($0) + "'" }
      ?? ", and the albums were numbered anew since (by another shell, or before this session)"
    return "numbers come from \(source)\(since); list again to number the albums"
  }

  /// The listing the last session left in the library file, read at start.
  func restoreListing() {
    guard let stored = try? store.listing() else { return }
    numberingState.listing = NumberedListing(source: stored.source, numbering: stored.numbering)
  }
}
