import BlueLibrary

/// What a command did, for the ``Interpreter`` to render: the one way from a command back
/// to the screen.
public enum CommandOutcome {
  /// Nothing to show.
  case nothing
  /// Lines to print as they are (already escaped); a lazy sequence streams a long listing.
  case lines(any Sequence<String>)
  /// Text to write as it is, such as a drawn cover.
  case text(String)
  /// An album's `Field: value` rows (the decorator).
  case details(Album)
  /// Several albums' rows, one album after the other, a blank line between.
  case severalDetails([Album])
  /// The selection moved: draw the viewport.
  case moved
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
public enum ShellRequest: Equatable {
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
