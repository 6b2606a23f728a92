import BlueLibrary
import CoverArt

/// Everything a command may touch: output, the library, the undo stack, history.
///
/// One context is built at start-up and passed to every command (no global state), so
/// tests build their own.
public final class CommandContext {
  /// Where commands print.
  public let output: OutputChannel
  /// The verbs, for `help`.
  public let registry: CommandRegistry
  /// The input history, for `history`.
  public let history: InputHistory
  /// How output is styled (colour only on a terminal that wants it).
  public let style: TextStyle
  /// True when a person is typing at a terminal.
  public let isInteractive: Bool
  /// Library changes that `undo` and `redo` step through.
  public var changes = UndoStack<any UndoableCommand>()
  /// Set by `quit`; the shell stops reading input.
  public var quitRequested = false
  /// The album view and, through it, the library (nil only in tests of the bare shell).
  public let browser: AlbumBrowser?
  /// The observer of cover downloads (status lines, the `downloads` list).
  public let coverStatus: CoverStatusReporter?
  /// How cover art is coloured (`cover`): from COLORTERM, NO_COLOR, TERM and --no-color.
  public var colorMode: ColorMode = .palette256
  /// Drawn covers by (URL, size, colour mode), so drawing one again costs nothing.
  public let renderedCovers = RenderCache()
  /// True while `redo` re-runs a change, so the change does not announce itself twice.
  public private(set) var isReplaying = false

  /// Creates a context.
  public init(
    output: OutputChannel, registry: CommandRegistry, history: InputHistory,
    style: TextStyle = .plain, isInteractive: Bool = false, browser: AlbumBrowser? = nil,
    coverStatus: CoverStatusReporter? = nil
  ) {
    self.browser = browser
    self.coverStatus = coverStatus
    self.output = output
    self.registry = registry
    self.history = history
    self.style = style
    self.isInteractive = isInteractive
  }

  /// Reverts up to `count` changes, newest first, handing each one's description to
  /// `reporting` as soon as it is undone (so a later failure does not hide earlier steps).
  public func undo(_ count: Int, reporting: (String) -> Void) throws(CommandError) {
    guard !changes.undoable.isEmpty else { throw CommandError("nothing to undo") }
    for _ in 0..<count {
      guard let change = changes.popUndoable() else { break }
      do {
        try change.undo(in: self)
      } catch {
        changes.restoreUndoable(change)
        throw error
      }
      changes.didUndo(change)
      reporting(change.undoDescription)
    }
  }

  /// Re-applies up to `count` undone changes, reporting each as ``undo(_:reporting:)`` does.
  public func redo(_ count: Int, reporting: (String) -> Void) throws(CommandError) {
    guard !changes.redoable.isEmpty else { throw CommandError("nothing to redo") }
    for _ in 0..<count {
      guard var change = changes.popRedoable() else { break }
      isReplaying = true
      defer { isReplaying = false }
      do {
        try change.execute(in: self)
      } catch {
        changes.restoreRedoable(change)
        throw error
      }
      changes.didRedo(change)
      reporting(change.undoDescription)
    }
  }

  /// The browser, or an error for a shell started without a library.
  public func requireBrowser() throws(CommandError) -> AlbumBrowser {
    guard let browser else { throw CommandError("no library is open") }
    return browser
  }

  /// The library, or an error for a shell started without one.
  public func requireLibrary() throws(CommandError) -> Library {
    try requireBrowser().library
  }

  /// Prints what a change did, unless `redo` is re-running it (redo says it instead).
  public func report(_ line: String) {
    if !isReplaying { output.line(line) }
  }
}

extension LibraryError {
  /// The library's error as a command failure (its text already names what was wrong).
  var commandError: CommandError { CommandError(description) }
}

/// Runs a library call, turning its error into a command failure.
func library<T>(_ body: () throws(LibraryError) -> T) throws(CommandError) -> T {
  do {
    return try body()
  } catch {
    throw error.commandError
  }
}
