import BlueLibrary
import BluePlayback
import CoverArt

/// What a command may use, passed in explicitly: the library, and the few facts about the
/// terminal a command needs to decide what to return.
///
/// One environment is built at start-up and handed to every command (no global state), so
/// tests build their own over ``Library/inMemory(seed:covers:)``.
final class CommandEnvironment {
  /// The library: the only door to the albums, the covers and the selection.
  let library: Library
  /// True when a person is typing at a terminal.
  let isInteractive: Bool
  /// True when standard output is a terminal (also under `-c` and `--script`).
  let outputIsTerminal: Bool
  /// The window's size in cells (80×24 when unknown); the session keeps it current.
  var window: WindowSize
  /// How cover art is coloured (`cover`): from COLORTERM, NO_COLOR, TERM and --no-color.
  var colorMode: ColorMode
  /// The observer of cover downloads (status lines, the `downloads` list).
  let coverStatus: CoverStatusReporter?
  /// Paints covers, for `cover` and the cards alike.
  let coverPainter: CoverPainter
  /// Decides how covers are drawn; called once, on first use of ``graphics``.
  private let detectGraphics: () -> GraphicsCapabilities
  private var detectedGraphics: GraphicsCapabilities?
  /// Prints a line at once, before the command returns (`wait`'s "waiting for …").
  let announce: (String) -> Void
  /// Prints the status lines that arrived so far, while a command blocks (`wait` calls
  /// it as it waits, so each download reports as it ends, not when the last one does).
  let deliverMessages: () -> Void
  /// Shows a long command's progress on one line, each call replacing what the last one
  /// showed; nil erases the line (`import DIR` calls it as it scans). Nil itself when no
  /// progress is shown: in script mode, or when the output is not a terminal.
  let progressLine: ((String?) -> Void)?
  /// Asks a person a yes/no question (`delete all`); nil where nobody can answer.
  var confirm: ((String) -> Bool)?
  /// The play queue and its engine (`play`, `queue` …); nil where playback is off.
  var player: Player?

  /// Creates an environment.
  init(
    library: Library, isInteractive: Bool = false, outputIsTerminal: Bool? = nil, window: WindowSize = .standard,
    colorMode: ColorMode = .palette256, coverStatus: CoverStatusReporter? = nil,
    announce: @escaping (String) -> Void = { _ in }, deliverMessages: @escaping () -> Void = {},
    progressLine: ((String?) -> Void)? = nil,
    graphics: @escaping () -> GraphicsCapabilities = { .blocks }
  ) {
    self.library = library
    self.isInteractive = isInteractive
    self.outputIsTerminal = outputIsTerminal ?? isInteractive
    self.window = window
    self.colorMode = colorMode
    self.coverStatus = coverStatus
    self.announce = announce
    self.deliverMessages = deliverMessages
    self.progressLine = progressLine
    self.detectGraphics = graphics
    coverPainter = CoverPainter(library: library)
  }

  /// How covers are drawn: decided on first use, asking the terminal at most once per run.
  var graphics: GraphicsCapabilities {
    if let detectedGraphics { return detectedGraphics }
    let decided = detectGraphics()
    detectedGraphics = decided
    return decided
  }

  /// Whether a long command (an import, the requests of `download all`) should stop: Ctrl-C
  /// at a terminal stops it and the shell goes on; in a script SIGINT ends the run (130),
  /// and SIGTERM or SIGHUP end it in any mode, so those are left pending for the shell to
  /// see once the command has stopped.
  func cancellation() -> () -> Bool {
    var interrupted = false
    return { [isInteractive] in
      if isInteractive ? SignalMonitor.take(.interrupt) : SignalMonitor.peek(.interrupt) {
        interrupted = true
      }
      return interrupted || SignalMonitor.terminationPending
    }
  }
}

@available(*, unavailable, message: "the shell's state stays on the thread that runs libedit")
extension CommandEnvironment: Sendable {}
