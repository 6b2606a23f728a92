import AlbumModel
import BlueLibrary

/// What a command did, for the ``Interpreter`` to render once the command returns. (While it
/// runs, a long command reports progress through its ``CommandEnvironment``: `announce`,
/// `progressLine` and `deliverMessages`.)
enum CommandOutcome {
  /// Nothing to show.
  case nothing
  /// Lines to print as they are (already escaped); a lazy sequence streams a long listing.
  case lines(any Sequence<String>)
  /// Text to write as it is, such as a drawn cover.
  case text(String)
  /// An album's `Field: value` rows (the decorator).
  case details(Album)
  /// Several albums' rows, one album after the other, a blank line between: the albums at
  /// these indices, read a page at a time as they are printed (`show 1-1000000` holds a
  /// page, not a million albums).
  case severalDetails([Int])
  /// Select the album at this index (of the view, when there is one) through the scroller:
  /// it centres the card and tells its delegate, the browser, which selects the album (the
  /// original's tap on a card); then the viewport is drawn.
  case select(Int)
  /// What the viewport shows changed (a view was made or dropped): draw it.
  case redraw
  /// The library changed: print `message`, bring the scroller in step, and draw the
  /// viewport unless `redraw` is false.
  case changed(String, redraw: Bool = true)
  /// An album other than the current one changed: print `message`, then that album's
  /// `Field: value` rows (the viewport would show the current album instead).
  case changedAlbum(String, Album)
  /// Something only the interpreter does (undo, help, quit …).
  case shell(ShellRequest)
}

/// The verbs the interpreter handles itself: they act on the shell, not on the library alone.
enum ShellRequest: Equatable {
  /// Take back `count` changes.
  case undo(count: Int)
  /// Re-apply `count` undone changes.
  case redo(count: Int)
  /// List the verbs, or describe one.
  case help(verb: Word?)
  /// The last `count` input lines (all when nil).
  case history(count: Int?)
  /// Stop reading input.
  case quit
}
