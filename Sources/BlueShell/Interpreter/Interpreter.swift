import AlbumModel
import BlueLibrary
import BlueSystem
import CoverArt

/// Turns input lines into commands, runs them, and renders what they return: the
/// controller of the shell.
///
/// Every command goes one way — words in, the library changed through its facade, an
/// outcome out — and the follow-up happens here, once: the message is printed, the
/// scroller is brought in step with the library and the viewport is drawn. `undo`,
/// `redo`, `help`, `history` and `quit` are the interpreter's own.
///
/// - Important: Runs on the thread that owns the terminal; nothing here is thread-safe.
final class Interpreter {
  /// What commands run against.
  let environment: CommandEnvironment
  /// The verbs.
  let registry: CommandRegistry
  /// The input history, for `history`.
  let history: InputHistory
  /// The view of the library: the scroller and its delegate.
  let browser: AlbumBrowser
  /// Where outcomes are printed: the environment's output.
  let output: OutputChannel
  private let style: TextStyle
  /// Set by `quit`; the shell stops reading input.
  private(set) var quitRequested = false
  /// Called after every command, also between the commands of one line (the session
  /// prints the status lines that are due there, so `download 1; wait; list` on one line
  /// reports in the same order as on three).
  var afterEachCommand: () -> Void = {}
  /// Where output taller than the window goes on a terminal (nil: printed as it is).
  var pager: Pager?

  /// Creates an interpreter printing to the environment's output.
  init(
    environment: CommandEnvironment, registry: CommandRegistry = .standard,
    history: InputHistory = InputHistory(path: nil), style: TextStyle = .plain
  ) {
    self.environment = environment
    self.output = environment.output
    self.registry = registry
    self.history = history
    self.style = style
    browser = AlbumBrowser(
      library: environment.library, style: style, layout: environment.isInteractive ? .cards : .plain,
      painter: environment.coverPainter)
    browser.colorMode = environment.colorMode
    if let player = environment.player { browser.playingAlbumID = { player.playingAlbumID } }
  }

  /// Runs every command on `line` in order and returns the messages of those that failed
  /// (`verb: message`).
  ///
  /// A signal that asks to stop (Ctrl-C, SIGINT, SIGTERM, SIGHUP) ends the whole line, as in
  /// bash: the command it came in finishes or cancels, and no later command of the line runs
  /// — `import big.csv; delete 1` must not delete after the import was cancelled.
  ///
  /// - Parameter stopAtFirstFailure: stop after the first failing command (`--bail`).
  func run(line: String, stopAtFirstFailure: Bool = false) -> [String] {
    let commands: [[Word]]
    do {
      commands = try Tokenizer.commands(in: line)
    } catch {
      return [error.description]
    }
    var failures: [String] = []
    let stops = SignalMonitor.stopRequestCount
    for words in commands {
      let failure = run(words: words)
      afterEachCommand()
      if let failure {
        failures.append(failure)
        if stopAtFirstFailure { break }
        // `find gnre:xmas; delete all` must not delete the view (or library) shown before.
        if let verb = words.first, registry.command(named: verb.text)?.failureEndsLine == true { break }
      }
      if quitRequested || output.isClosed || SignalMonitor.stopRequestCount != stops { break }
    }
    return failures
  }

  /// Runs one command and renders its outcome; returns its error message, or nil when it
  /// succeeded.
  func run(words: [Word]) -> String? {
    guard let verb = words.first else { return nil }
    guard let type = registry.command(named: verb.text) else {
      return unknownCommandMessage(verb.text, arguments: words.dropFirst().map(\.text))
    }
    // One read transaction for the command and its drawing; ended before the shell waits
    // for anything (`wait` ends it itself).
    environment.library.beginCommand()
    defer { environment.library.endCommand() }
    do throws(CommandError) {
      let outcome = try execute(type, Array(words.dropFirst()))
      // What renumbered the albums (`undo` does it as its outcome is rendered), for a
      // number typed from a listing before it.
      defer { environment.library.noteRenumbering(by: words.map(\.text).joined(separator: " ")) }
      try render(outcome)
      if let dropped = environment.library.takeDroppedView() { output.line(dropped) }
      printSourceNote()
      return nil
    } catch {
      return verb.text.lowercased() + ": " + error.message
    }
  }

  private func execute(_ type: any Command.Type, _ arguments: [Word]) throws(CommandError) -> CommandOutcome {
    let command = try type.init(arguments: arguments)
    do {
      // Another shell may have changed the file since the last command: indices resolve
      // against what it holds now.
      try environment.library.noticeChangesElsewhere()
      environment.library.noteRenumbering(by: nil)
      return try command.execute(in: environment)
    } catch {
      throw CommandError(wrapping: error)
    }
  }

  /// Draws the viewport: the row of cards and the current album's details, then the
  /// cards' pictures over their art areas when covers are drawn in pixels.
  func drawViewport() {
    // Only a terminal's cards show art (and only they need the terminal asked).
    if environment.isInteractive { browser.graphics = environment.graphics }
    removeCardPictures()
    // A script's line and details: bytes straight into the output.
    if browser.layout == .plain {
      output.append { browser.appendPlainDrawing(to: &$0) }
      return
    }
    let drawing = browser.drawing(window: environment.window)
    for line in drawing.lines { output.line(line) }
    for picture in drawing.pictures {
      // The cursor is below the last line; a picture whose top has scrolled out of the
      // window cannot be reached (its art area stays blank).
      let linesUp = drawing.lines.count - picture.line
      guard linesUp < environment.window.rows else { continue }
      output.write(environment.coverPainter.cardOverlay(picture.frame, linesUp: linesUp, column: picture.column))
    }
  }

  /// Deletes the cards' kitty pictures from the screen: before the row is drawn again
  /// (the old row's pictures would otherwise stay, over text that has moved) and when the
  /// window is resized. Sixel and iTerm2 pictures are cells, overwritten by what is drawn
  /// there next.
  func removeCardPictures() {
    let removal = environment.coverPainter.removingCardPictures()
    if !removal.isEmpty { output.write(removal) }
  }

  // MARK: - Rendering outcomes

  /// What the library's source said of the change just made, when it did not take it all (a
  /// rating MPD could not keep), after the change's own line: the change stands.
  private func printSourceNote() {
    if let note = environment.library.takeSourceNote() { output.line(TextSanitizer.escaped(note)) }
  }

  private func render(_ outcome: CommandOutcome) throws(CommandError) {
    switch outcome {
    case .nothing:
      break
    case .lines(let lines):
      printLines(lines)
    case .text(let text):
      output.write(text)
    case .details(let album):
      // A long track list goes through the pager, as a long listing does.
      printLines(browser.showLines(for: album))
    case .severalDetails(let indices):
      printLines(
        AlbumPages(indices, library: environment.library).enumerated().lazy.flatMap { index, album in
          (index > 0 ? [""] : []) + self.browser.showLines(for: album)
        })
    case .select(let index):
      browser.select(index)
      drawViewport()
    case .redraw:
      drawViewport()
    case .changed(let message, let redraw):
      output.line(message)
      printSourceNote()
      // At a terminal, a change that reached the visible cards (an import into a short
      // library or a view) draws them again; scripts keep their output as it was.
      if redraw || (environment.isInteractive && browser.showsOtherAlbums(window: environment.window)) {
        drawViewport()
      }
    case .changedAlbum(let message, let album):
      output.line(message)
      printSourceNote()
      for line in browser.detailLines(for: album) { output.line(line) }
    case .shell(let request):
      try perform(request)
    }
  }

  private func perform(_ request: ShellRequest) throws(CommandError) {
    switch request {
    case .undo(let count):
      try step(count, saying: "undid", nothingLeft: "nothing to undo") { () throws(LibraryError) in
        try environment.library.undo()
      }
    case .redo(let count):
      try step(count, saying: "redid", nothingLeft: "nothing to redo") { () throws(LibraryError) in
        try environment.library.redo()
      }
    case .help(let verb):
      printLines(try HelpCommand.lines(for: verb, in: registry, style: style, width: environment.window.columns))
    case .history(let count):
      printLines(HistoryCommand.lines(history, count: count))
    case .quit:
      quitRequested = true
    }
  }

  /// Runs up to `count` undo or redo steps, printing each as it is done (so a later
  /// failure does not hide earlier steps) and drawing the viewport once afterwards when
  /// any step happened.
  private func step(
    _ count: Int, saying verb: String, nothingLeft: String,
    _ body: () throws(LibraryError) -> String?
  ) throws(CommandError) {
    var stepped = 0
    defer { if stepped > 0 { drawViewport() } }
    for _ in 0..<count {
      let summary: String?
      do {
        summary = try body()
      } catch {
        throw CommandError(error)
      }
      guard let summary else {
        guard stepped > 0 else { throw CommandError(nothingLeft) }
        // Asked for more steps than there were: say so rather than stop silently.
        output.line("(\(nothingLeft) after \(stepped) of \(count))")
        break
      }
      stepped += 1
      output.line(verb + " " + TextSanitizer.escaped(summary))
    }
  }

  /// Prints `lines`; on a terminal, lines that do not fit the window go through the pager.
  private func printLines(_ lines: some Sequence<String>) {
    var iterator = lines.makeIterator()
    var first: [String] = []
    if let pager, environment.isInteractive {
      // One row stays for the prompt that follows.
      let fits = max(1, environment.window.rows - 1)
      while first.count <= fits, let line = iterator.next() { first.append(line) }
      if first.count > fits {
        output.flush()
        // The user may read for a long time: no lock held meanwhile.
        environment.library.endCommand()
        switch pager.show(first, then: &iterator) {
        case .shown: return
        case .notStarted: break
        case .failed(let reason, let replay):
          // The lines are not lost: printed here, after a word on why.
          guard let replay else {
            output.line("(\(reason); output lost, use --no-pager or set PAGER)")
            return
          }
          output.line("(\(reason); printed here instead; --no-pager or PAGER= turns it off)")
          first = replay
        }
      }
    }
    if first.isEmpty, let direct = lines as? any DirectlyWritten {
      // Not paged (or all of it fits): straight to the output.
      direct.write(to: output)
      return
    }
    for line in first {
      output.line(line)
    }
    while !output.isClosed, let line = iterator.next() { output.line(line) }
  }

  private func unknownCommandMessage(_ verb: String, arguments: [String]) -> String {
    let word = TextSanitizer.quotedWord(verb)
    if let pointer = CommandRegistry.pointer(for: verb, arguments: arguments) {
      return "unknown command \(word) (did you mean '\(TextSanitizer.escaped(pointer))'?)"
    }
    if let suggestion = registry.suggestion(for: verb) {
      return "unknown command \(word) (did you mean '\(suggestion)'?)"
    }
    return "unknown command \(word) (type 'help' for the list of commands)"
  }
}

@available(*, unavailable, message: "the interpreter stays on the thread that owns the terminal")
extension Interpreter: Sendable {}
