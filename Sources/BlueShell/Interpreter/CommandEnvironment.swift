import BlueLibrary
import BluePlayback
import BlueSystem
import CoverArt
import ListenBrainz

/// What a command may use, passed in explicitly and whole: the library, the output, the
/// process environment, how it is cancelled, the player, and the few facts about the
/// terminal a command needs to decide what to return.
///
/// One environment is built at start-up, complete, and handed to every command (no global
/// state: a command reads HOME or BLUELIB_PLAYER here, not from the process), so tests
/// build their own over ``Library/inMemory(seed:covers:)``.
final class CommandEnvironment {
  /// The library: the only door to the albums, the covers and the selection.
  let library: Library
  /// Where outcomes are printed (standard output in the shell).
  let output: OutputChannel
  /// The process environment: HOME for `~/`, BLUELIB_PLAYER for `play`.
  let processEnvironment: [String: String]
  /// How a long command learns that it is to stop (the shell's: its signals).
  let cancellation: Cancellation
  /// True when a person is typing at a terminal.
  let isInteractive: Bool
  /// True when standard output is a terminal (also under `-c` and `--script`).
  let outputIsTerminal: Bool
  /// The window's size in cells (80×24 when unknown); the session keeps it current.
  var window: WindowSize
  /// How cover art is coloured (`cover`): from COLORTERM, NO_COLOR, TERM and --no-color.
  let colorMode: ColorMode
  /// The observer of cover downloads (status lines, the `downloads` list).
  let coverStatus: CoverStatusReporter?
  /// Paints covers, for `cover` and the cards alike.
  let coverPainter: CoverPainter
  /// Decides how covers are drawn; called once, on first use of ``graphics``.
  private let detectGraphics: () -> GraphicsCapabilities
  private var detectedGraphics: GraphicsCapabilities?
  /// Prints the status lines that arrived so far, while a command blocks (`wait` calls
  /// it as it waits, so each download reports as it ends, not when the last one does).
  let deliverMessages: () -> Void
  /// Shows a long command's progress on one line, each call replacing what the last one
  /// showed; nil erases the line (`import DIR` calls it as it scans). Nil itself when no
  /// progress is shown: in script mode, or when the output is not a terminal.
  let progressLine: ((String?) -> Void)?
  /// Asks a person a yes/no question (`delete all`); nil where nobody can answer.
  let confirm: ((String) -> Bool)?
  /// The play queue and its engine (`play`, `queue` …); nil where playback is off.
  let player: Player?
  /// What sends the player's listens to ListenBrainz (`listenbrainz`); nil where playback
  /// is off or a music server's (`--mpd`).
  let listenBrainz: ListenBrainzSubmitter?
  /// The file `listenbrainz token` keeps the token in.
  let listenBrainzTokenFile: String?

  /// Creates an environment; what is left out is off (no player, nobody to ask, no
  /// progress line), empty (the process environment) or never (cancellation).
  init(
    library: Library, output: OutputChannel, processEnvironment: [String: String] = [:],
    cancellation: Cancellation = .never, isInteractive: Bool = false, outputIsTerminal: Bool? = nil,
    window: WindowSize = .standard, colorMode: ColorMode = .palette256, coverStatus: CoverStatusReporter? = nil,
    deliverMessages: @escaping () -> Void = {}, progressLine: ((String?) -> Void)? = nil,
    confirm: ((String) -> Bool)? = nil, player: Player? = nil, listenBrainz: ListenBrainzSubmitter? = nil,
    listenBrainzTokenFile: String? = nil, graphics: @escaping () -> GraphicsCapabilities = { .blocks }
  ) {
    self.library = library
    self.output = output
    self.processEnvironment = processEnvironment
    self.cancellation = cancellation
    self.isInteractive = isInteractive
    self.outputIsTerminal = outputIsTerminal ?? isInteractive
    self.window = window
    self.colorMode = colorMode
    self.coverStatus = coverStatus
    self.deliverMessages = deliverMessages
    self.progressLine = progressLine
    self.confirm = confirm
    self.player = player
    self.listenBrainz = listenBrainz
    self.listenBrainzTokenFile = listenBrainzTokenFile
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

  /// Prints a line at once, before the command returns (`wait`'s "waiting for …").
  func announce(_ line: String) {
    output.line(line)
    output.flush()
  }

  /// `~/x` → `$HOME/x` as a shell would, by this environment's HOME.
  func expandingTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = processEnvironment["HOME"] else { return path }
    return home + path.dropFirst()
  }
}

@available(*, unavailable, message: "the shell's state stays on the thread that runs libedit")
extension CommandEnvironment: Sendable {}
