import BlueLibrary
import CoverArt

/// What a command may use, passed in explicitly: the library, and the few facts about the
/// terminal a command needs to decide what to return.
///
/// One environment is built at start-up and handed to every command (no global state), so
/// tests build their own over ``Library/inMemory(seed:covers:)``.
public final class CommandEnvironment {
  /// The library: the only door to the albums, the covers and the selection.
  public let library: Library
  /// True when a person is typing at a terminal.
  public let isInteractive: Bool
  /// True when standard output is a terminal (also under `-c` and `--script`).
  public let outputIsTerminal: Bool
  /// The window's size in cells (80×24 when unknown); the session keeps it current.
  public var window: WindowSize
  /// How cover art is coloured (`cover`): from COLORTERM, NO_COLOR, TERM and --no-color.
  public var colorMode: ColorMode
  /// The observer of cover downloads (status lines, the `downloads` list).
  public let coverStatus: CoverStatusReporter?
  /// Drawn covers by (URL, size, colour mode), so drawing one again costs nothing.
  public let renderedCovers = RenderCache<String>()
  /// Covers encoded for an image protocol, by (URL, size, protocol, cell size).
  public let pixelCovers = RenderCache<PixelFrame>(capacity: 32)
  /// Decides how covers are drawn; called once, on first use of ``graphics``.
  private let detectGraphics: () -> GraphicsCapabilities
  private var detectedGraphics: GraphicsCapabilities?
  /// The next kitty image id this shell gives a cover (see ``nextImageID()``).
  private var imageID: UInt32
  /// Prints a line at once, before the command returns (`wait`'s "waiting for …").
  public let announce: (String) -> Void
  /// Prints the status lines that arrived so far, while a command blocks (`wait` calls
  /// it as it waits, so each download reports as it ends, not when the last one does).
  public let deliverMessages: () -> Void
  /// Shows a long command's progress on one line, each call replacing what the last one
  /// showed; nil erases the line (`import DIR` calls it as it scans). Nil itself when no
  /// progress is shown: in script mode, or when the output is not a terminal.
  public let progressLine: ((String?) -> Void)?
  /// Asks a person a yes/no question (`delete all`); nil where nobody can answer.
  public var confirm: ((String) -> Bool)?
  /// The play queue and its engine (`play`, `queue` …); nil where playback is off.
  public var player: Player?

  /// Creates an environment.
  public init(
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
    // Ids from a random start, so this run's covers do not replace the ones an earlier
    // run left on the screen (kitty keeps images by id across programs).
    imageID = UInt32.random(in: 1...0x00FF_FFFF) << 7
  }

  /// How covers are drawn: decided on first use, asking the terminal at most once per run.
  public var graphics: GraphicsCapabilities {
    if let detectedGraphics { return detectedGraphics }
    let decided = detectGraphics()
    detectedGraphics = decided
    return decided
  }

  /// A kitty image id no other cover of this run has.
  public func nextImageID() -> UInt32 {
    imageID = imageID == UInt32.max ? 1 : imageID + 1
    return imageID
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
