import AlbumModel
import BlueCovers
import BlueLibrary
import BluePlayback
import BlueSystem
import BlueText
import CoverArt
import Dispatch
import ListenBrainz
import MPRIS
import MusicSource
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of the shell: set up (paths, library, reader, interpreter), the loop over input
/// lines, and tear-down (pending downloads, the memento, the exit status).
///
/// - Important: Lives on the main thread, which owns the terminal and every libedit call.
final class ShellSession {
  private let options: ShellOptions
  private let errors = OutputChannel(fileDescriptor: STDERR_FILENO, flushThreshold: 0)
  private let output = OutputChannel(fileDescriptor: STDOUT_FILENO)
  private let messages = MessageQueue()
  /// This thread's end of ``messages``: the lines to print, the plays to record.
  private let delivery: MessageDelivery
  private let library: Library
  private let paths: AppPaths
  private let reader: any LineReader
  private let source: String
  private let isInteractive: Bool
  private let style: TextStyle
  private let interpreter: Interpreter
  private let history: InputHistory
  private var coverSubscription: SubscriptionToken?
  private var anyFailed = false
  private var saveFailure: String?
  /// Lines for after the banner: what the sync with the server at start did.
  private var startNotices: [String] = []

  /// Why a session could not start, with the exit status to leave with.
  struct StartFailure: Error {
    let message: String
    let status: Int32
  }

  // MARK: - Set-up

  /// Opens the library and the input named by `options`; prints nothing yet.
  init(options: ShellOptions) throws(StartFailure) {
    self.options = options
    var paths = try Self.paths(for: options)
    // A server's albums live in a library file of their own, which starts empty.
    if let server = options.server { paths.library = paths.serverLibrary(named: server.libraryName) }
    self.paths = paths
    // Opening shows the last session's view again, which may take a while on a large
    // library: SIGTERM and SIGHUP stop it (the token, not armed yet; ``connect()`` arms it).
    do {
      library = try Library.open(
        path: paths.library, covers: Self.coverSettings(options, paths: paths),
        seed: options.server == nil ? DefaultCatalogue.albums : [], source: options.server,
        cancellation: options.cancellation)
    } catch {
      if let signalled = SignalMonitor.takeTermination() { throw StartFailure(message: "", status: signalled) }
      throw StartFailure(message: "bluelib: \(error)", status: Shell.ExitCode.cannotOpen)
    }
    delivery = MessageDelivery(messages: messages, library: library)
    if let dropped = library.takeDroppedView() {
      OutputChannel(fileDescriptor: STDERR_FILENO, flushThreshold: 0).line("bluelib: " + dropped)
    }
    let terminal = TerminalFacts(options)
    style = TextStyle(colors: terminal.colors)
    history = InputHistory(path: terminal.isTerminal ? paths.history : nil)
    // Said at once, whatever happens next (a bad --graphics still fails after it).
    if let warning = history.warning { OutputChannel(fileDescriptor: STDERR_FILENO, flushThreshold: 0).line(warning) }
    (reader, source) = try Self.reader(
      for: options.input, terminal: terminal.isTerminal, colors: terminal.colors, history: history,
      delivery: delivery)
    isInteractive = reader is EditLineReader
    let environment = try Self.environment(
      options, library: library, terminal: terminal, editor: reader as? EditLineReader, delivery: delivery,
      output: output, tokenFile: paths.listenBrainzToken)
    interpreter = Interpreter(environment: environment, registry: .standard, history: history, style: style)
    connect()
    // A write (or its undo) that a crash or kill -9 left halfway is finished before anything.
    let errors = OutputChannel(fileDescriptor: STDERR_FILENO, flushThreshold: 0)
    do {
      for notice in try library.finishInterruptedWrites() { errors.line("bluelib: " + notice) }
    } catch {
      errors.line("bluelib: \(error)")
    }
    if let server = options.server { follow(server) }
    // Listens an earlier run left (offline, or killed) go now, at a prompt, when a token is
    // set; a script sends once it plays (its start, `-c quit`, reads nothing more).
    if isInteractive { interpreter.environment.listenBrainz?.start() }
  }

  /// Brings the server's library file in step with its database (a line on standard error
  /// when the server cannot answer: the albums are then those of the last sync), and shows
  /// what following the server reports above the prompt: what it says, and, at a terminal,
  /// each change of its database the library syncs.
  private func follow(_ server: any MusicSource) {
    do {
      let synced = try library.sync()
      for notice in synced.notices { errors.line("bluelib: " + TextSanitizer.escaped(notice)) }
      if synced.changedAlbums { startNotices.append(Self.syncLine(synced, server: server)) }
    } catch {
      errors.line("bluelib: \(error)")
      anyFailed = true
    }
    let messages = messages
    library.follow(changes: isInteractive) { report in
      switch report {
      case .notice(let line):
        messages.post(TextSanitizer.escaped(line))
      case .synced(let synced):
        for notice in synced.notices { messages.post(TextSanitizer.escaped(notice)) }
        if synced.changedAlbums { messages.post(Self.syncLine(synced, server: server)) }
      case .failed(let why):
        messages.post(TextSanitizer.escaped(why))
      }
    }
    guard isInteractive else { return }
    // What another client makes the server play is told from the start, not only once this
    // shell played something.
    if !anyFailed { interpreter.environment.player?.attach() }
  }

  /// `synced with MPD at 127.0.0.1:6600: 2 added, 1 updated`.
  private static func syncLine(_ synced: Library.SourceSync, server: any MusicSource) -> String {
    ImportCommand.syncLine(synced, name: TextSanitizer.escaped(server.name))
  }

  /// What the session learns of its terminal at start.
  private struct TerminalFacts {
    /// Standard input and output are a terminal, and the commands come from standard input.
    let isTerminal: Bool
    /// The shell's own text is coloured: a terminal, and no --no-color, NO_COLOR or TERM=dumb.
    let colors: Bool
    /// How cover art is coloured.
    let colorMode: ColorMode

    init(_ options: ShellOptions) {
      isTerminal = options.input == .standardInput && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
      colors =
        isTerminal && !options.noColor && (options.environment["NO_COLOR"] ?? "").isEmpty
        && options.environment["TERM"] != "dumb"
      colorMode = ColorMode.detect(environment: options.environment, noColor: options.noColor)
    }
  }

  /// What the commands see of the session, built once and whole: the library, the output,
  /// the process environment, the signals that cancel, the window, the player, and the
  /// ways lines, status lines, progress, questions and pictures reach the terminal.
  private static func environment(
    _ options: ShellOptions, library: Library, terminal: TerminalFacts, editor: EditLineReader?,
    delivery: MessageDelivery, output: OutputChannel, tokenFile: String
  ) throws(StartFailure) -> CommandEnvironment {
    let messages = delivery.messages
    let setting: GraphicsSetting
    switch GraphicsSetting.resolve(flag: options.graphics?.rawValue, environment: options.environment) {
    case .success(let resolved): setting = resolved
    case .failure(let error): throw StartFailure(message: "bluelib: \(error)", status: Shell.ExitCode.failure)
    }
    let isInteractive = editor != nil
    // Asking needs the terminal on both ends: the question goes out on standard output,
    // the answer comes back on standard input.
    let canAsk = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    var player: Player?
    var listenBrainz: ListenBrainzSubmitter?
    if let makeEngine = options.audioEngine {
      let made = Player(engine: makeEngine, shared: options.playerOutlivesShell)
      player = made
      // What plays here (not a music server's player, whose own scrobbler tells it) goes
      // to ListenBrainz when a token is set: nothing is read or started before a track.
      if !options.playerOutlivesShell {
        listenBrainz = ListenBrainzSubmitter(
          settings: .init(
            environment: options.environment, tokenFile: tokenFile,
            userAgent: ListenBrainzCommand.userAgent(options.environment), version: bluelibVersion),
          store: LibraryListenStore(queue: library.listenQueue), player: made, say: { messages.post($0) })
      }
      // On the engine's thread: the line, or the album played, is queued, and printed or
      // recorded in the library by the terminal's owner; ListenBrainz's thread takes the
      // tracks started and listened to.
      made.observe { [listenBrainz] event in
        messages.post(event)
        listenBrainz?.handle(event)
      }
      // The library's ReplayGain mode, applied when the engine is made (at the first play).
      player?.setReplayGain((try? library.replayGainMode()) ?? .album)
      // And its audio device and equalizer (a library file without them: the defaults).
      player?.remember((try? library.audioSettings()) ?? AudioSettings())
      // The desktop's media keys and player widgets (MPRIS), where there is a session bus:
      // started at the first play; what they ask is said above the prompt.
      if let player,
        let bus = MediaPlayerBus(
          player: player, environment: options.environment, coverCache: library.coverCache,
          say: { messages.post($0) })
      {
        player.observeChanges { bus.playerChanged() }
      }
    }
    return CommandEnvironment(
      library: library, output: output, processEnvironment: options.environment,
      cancellation: options.cancellation, isInteractive: isInteractive,
      outputIsTerminal: isatty(STDOUT_FILENO) == 1, window: .ofTerminal(), colorMode: terminal.colorMode,
      coverStatus: CoverStatusReporter(messages: messages, showsTimes: isInteractive),
      deliverMessages: { [isTerminal = terminal.isTerminal] in
        // Only on a terminal: a script prints status lines in album order once all reported.
        guard isTerminal else { return }
        let lines = delivery.take()
        guard !lines.isEmpty else { return }
        for line in lines { output.line(line) }
        output.flush()
      },
      progressLine: isInteractive
        ? { text in
          // Carriage return and erase to the end of the line: the line is drawn again in
          // place, cut to the window so that it never wraps (the text comes escaped). Two
          // more columns stay free for the `^C` the terminal echoes at Ctrl-C: wrapped, the
          // erase would reach only its `C`, and the line and a `^` would stay.
          let width = max(1, WindowSize.ofTerminal().columns - 3)
          output.write("\r\u{1B}[K" + (text.map { DisplayWidth.fit($0, width: width) } ?? ""))
          output.flush()
        } : nil,
      // Only at a prompt: the question goes out on standard output, a line is read back.
      confirm: isInteractive
        ? { question in
          output.write(question + " [y/N] ")
          output.flush()
          return Self.readAnswer()
        } : nil,
      player: player, listenBrainz: listenBrainz, listenBrainzTokenFile: tokenFile,
      graphics: { [environment = options.environment, colorMode = terminal.colorMode] in
        GraphicsCapabilities.decide(
          setting: setting, environment: environment, terminal: canAsk, colorMode: colorMode
        ) {
          output.flush()
          let timeout = GraphicsProbe.timeoutMilliseconds(for: environment)
          guard let reply = GraphicsProbe.ask(timeoutMilliseconds: timeout) else { return nil }
          // Keys typed while the terminal answered are the start of the first line.
          editor?.queueTypedAhead(reply.typedAhead)
          return reply
        }
      })
  }

  /// Connects what needs the session: the check that stops a long statement, the covers'
  /// status lines, the pager and the reader's hooks.
  private func connect() {
    // A long SQLite statement (undoing a million-album import) stops for SIGTERM and SIGHUP,
    // and in a script for SIGINT too, all of which end the run; it rolls back. A wait for a
    // server's answer on this thread ends on Ctrl-C too (taken at a terminal, as a long
    // command takes it; a script ends on it).
    options.cancellation.arm(interactive: isInteractive)
    TerminalModes.enableUTF8Locale()
    // Status lines are made of outcomes only: queued and started downloads are not reported.
    if let coverStatus = interpreter.environment.coverStatus {
      coverSubscription = library.observeCovers(outcomesOnly: true) { coverStatus.handle($0) }
    }
    interpreter.afterEachCommand = { [unowned self] in deliverDueMessages() }
    if isInteractive {
      interpreter.pager = Pager.fromEnvironment(interpreter.environment.processEnvironment, disabled: options.noPager)
    }
    connectReader()
  }

  /// How covers are fetched: the options' downloads at once and timeout, the Cover Art
  /// Archive (or the mirror BLUELIB_COVERART_URL names), and bytes that must decode.
  private static func coverSettings(_ options: ShellOptions, paths: AppPaths) -> CoverSettings {
    var settings = CoverSettings(directory: paths.coverCache)
    settings.downloadsAtOnce = options.maxDownloads
    settings.timeout = .milliseconds(Int((options.downloadTimeout * 1000).rounded()))
    // MusicBrainz asks for a User-Agent that names a contact: the user's own, or none (bluelib
    // has no address of its own to give; `lookup` says once how to set one).
    settings.userAgent =
      "bluelib/\(bluelibVersion)" + (LookupCommand.contact(in: options.environment).map { " ( \($0) )" } ?? "")
    settings.additionalSources = options.coverSources
    if let mirror = options.environment["BLUELIB_COVERART_URL"], !mirror.isEmpty { settings.coverArtBase = mirror }
    if let mirror = options.environment["BLUELIB_MUSICBRAINZ_URL"], !mirror.isEmpty {
      settings.musicBrainzBase = mirror
    }
    settings.validate = { data in
      // Decoded at the smallest JPEG scale that still reads every block: a corrupt or
      // truncated file fails here, before it is cached as a success.
      do {
        _ = try ImageDecoder.decode(data, minimumSize: PixelSize(width: 1, height: 1))
        return nil
      } catch {
        return String(describing: error)
      }
    }
    return settings
  }

  /// Where the files live: `--home`, `BLUELIB_HOME`, else the XDG directories.
  private static func paths(for options: ShellOptions) throws(StartFailure) -> AppPaths {
    if let home = options.home ?? options.environment["BLUELIB_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) {
      return AppPaths(home: home)
    }
    do {
      return try AppPaths(environment: options.environment)
    } catch {
      throw StartFailure(message: "bluelib: \(error)", status: Shell.ExitCode.failure)
    }
  }

  /// The line reader for `input` and the name errors give as their source.
  private static func reader(
    for input: ShellOptions.Input, terminal: Bool, colors: Bool, history: InputHistory, delivery: MessageDelivery
  ) throws(StartFailure) -> (any LineReader, String) {
    switch input {
    case .commands(let text):
      return (StreamLineReader(text: text, stopRequested: Shell.scriptStopRequested), "-c")
    case .script(let path):
      let fd: Int32
      var status = stat()
      do {
        // Non-blocking: opening a FIFO that has no writer would wait where no signal ends it.
        fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        _ = try syscall("fstat") { fstat(fd, &status) }
      } catch {
        throw StartFailure(
          message: "bluelib: cannot read script '\(path)': \(error.reason)", status: Shell.ExitCode.failure)
      }
      let kind = status.st_mode & S_IFMT
      if kind == S_IFDIR {
        close(fd)
        throw StartFailure(
          message: "bluelib: cannot read script '\(path)': is a directory", status: Shell.ExitCode.failure)
      }
      // A FIFO (or `/dev/stdin` as a pipe) stays non-blocking, its reader waits for data with
      // poll, which a signal ends; anything else reads as before.
      let fifo = kind == S_IFIFO
      if !fifo { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
      return (
        StreamLineReader(
          fileDescriptor: fd, closeWhenDone: true, waitForWriter: fifo, stopRequested: Shell.scriptStopRequested),
        path
      )
    case .standardInput:
      if terminal, let editor = EditLineReader(colors: colors, entries: history.entries, delivery: delivery) {
        return (editor, "stdin")
      }
      return (StreamLineReader(fileDescriptor: STDIN_FILENO, stopRequested: Shell.scriptStopRequested), "stdin")
    }
  }

  /// Resizes, completion and the memento before a blocking read.
  private func connectReader() {
    let library = library
    let interpreter = interpreter
    if let editor = reader as? EditLineReader {
      editor.onResize = {
        interpreter.environment.window = .ofTerminal()
        // The row is drawn again for the new size, above the prompt (the reader has cleared
        // the prompt's rows and draws it, with the half-typed line, after this).
        interpreter.drawViewport()
        interpreter.output.flush()
      }
      // The covers the cards asked a server for landed: the row is drawn again to show them.
      editor.cardsAreReady = { interpreter.browser.cardCoversAreIn() }
      editor.drawCards = {
        interpreter.drawViewport()
        interpreter.output.flush()
      }
      let home = interpreter.environment.processEnvironment["HOME"]
      editor.completer = Completer(
        registry: interpreter.registry,
        titles: { prefix, limit in (try? library.titles(withPrefix: prefix, limit: limit)) ?? [] },
        albumCount: { (try? library.count()) ?? 0 },
        paths: { PathCompletion.entries(matching: $0, home: home) },
        fieldValues: { field, prefix, limit in (try? library.values(of: field, withPrefix: prefix, limit: limit)) ?? []
        },
        viewNames: { (try? library.savedViews().map(\.name)) ?? [] },
        firstTitles: { prefixes, limit in try? library.titles(withFirstOf: prefixes, limit: limit) })
    }
    if let stream = reader as? StreamLineReader {
      stream.beforeBlocking = { [unowned self] in
        saveState()
        output.flush()
      }
    }
  }

  /// A line typed at the terminal (cooked mode: libedit is not reading) read byte by byte,
  /// so nothing past it is taken from libedit; true for `y` or `yes`.
  static func readAnswer() -> Bool {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while bytes.count < 256 {
      guard let got = try? syscall("read", { read(STDIN_FILENO, &byte, 1) }), got == 1, byte != UInt8(ascii: "\n")
      else { break }
      bytes.append(byte)
    }
    let answer = String(decoding: bytes, as: UTF8.self).trimming(.whitespacesAndNewlines).lowercased()
    return answer == "y" || answer == "yes"
  }

  /// The command a browsing key runs: PageUp/PageDown scroll by the whole cards the
  /// window holds, Home/End go to the ends.
  private func browsingCommand(_ key: BrowsingKey) -> String {
    let card = AlbumBrowser.terminalCard
    let cards = max(1, interpreter.environment.window.columns / (card.width + card.padding))
    switch key {
    case .pageUp: return "scroll left \(cards)"
    case .pageDown: return "scroll right \(cards)"
    case .home: return "scroll home"
    case .end: return "scroll end"
    }
  }

  // MARK: - The loop

  /// Runs to the end of the input and returns the exit status.
  func run() -> Int32 {
    if isInteractive { greet() }
    let status = loop()
    return finish(status)
  }

  private func greet() {
    output.line(
      style.bold("bluelib \(bluelibVersion)") + " — " + Self.banner(library: library, server: options.server?.name)
        + " in " + TextSanitizer.escaped(paths.library) + ". Type 'help' for commands, Ctrl-D to leave.")
    for line in startNotices { output.line(line) }
    interpreter.drawViewport()
  }

  /// What the banner says of the albums: the library's count (`2,021 albums`), and in a
  /// view the view's first and the view named (`54 of 2,021 albums, view @nineties,`): the
  /// view's count alone read as the library's. Both counts are the ones opening read.
  static func banner(library: Library, server: String?) -> String {
    let total = (try? library.libraryCount()) ?? 0
    let server = server.map { " of " + TextSanitizer.escaped($0) } ?? ""
    guard let view = library.view else { return albumCount(total) + server }
    let text = view.query.text
    let name = text.hasPrefix("@") && !text.contains(" ") ? text : "'" + text + "'"
    return "\(Library.grouped(view.count)) of \(albumCount(total))\(server), view \(TextSanitizer.escaped(name)),"
  }

  /// Reads and runs lines until the input ends, `quit`, a closed output or a signal;
  /// returns the exit status the input's end calls for.
  private func loop() -> Int32 {
    let bail = options.bail && !isInteractive
    while true {
      // The memento: saved after each command, before we wait for the next input.
      // In script mode output is flushed in 64 KiB blocks, and before a read that may block
      // (the reader's `beforeBlocking`), an error line, a status line and at the end: one
      // write per block, not one per command.
      if isInteractive {
        saveState()
        (reader as? EditLineReader)?.setPromptContext(
          library.view.map { "\($0.query.text) · \(Library.grouped($0.count))" })
        output.flush()
      }
      if let failure = saveFailure {
        report(failure)
        saveFailure = nil
      }
      switch reader.readLine() {
      case .line(let line):
        // A line that sets a token is neither in the history file nor in the reader's.
        if !ListenBrainzCommand.keepsOutOfHistory(line) && history.add(line) && isInteractive {
          reader.remember(line)
        }
        let failures = interpreter.run(line: line, stopAtFirstFailure: bail)
        failures.forEach(report)
        if !failures.isEmpty && bail { return Shell.ExitCode.success }
      case .malformed(let reason):
        report(reason)
        if bail { return Shell.ExitCode.success }
      case .interrupted:
        if !isInteractive { return Shell.ExitCode.interrupted }
      case .endOfInput:
        if isInteractive { output.line() }
        if let failure = (reader as? StreamLineReader)?.readFailure {
          let what = source == "stdin" ? "standard input" : "script '\(source)'"
          output.flush()
          errors.line("bluelib: cannot read \(what): \(failure)")
          anyFailed = true
        }
        return Shell.ExitCode.success
      case .key(let key):
        // As if typed: the command shows after the prompt, then runs; it is not history.
        let line = browsingCommand(key)
        output.line(line)
        interpreter.run(line: line, stopAtFirstFailure: false).forEach(report)
      case .terminated:
        if isInteractive { output.line() }
        return SignalMonitor.terminationStatus
      }
      deliverDueMessages()
      if interpreter.quitRequested || output.isClosed { return Shell.ExitCode.success }
    }
  }

  // MARK: - Tear-down

  /// Waits for pending downloads (Ctrl-C cancels them), prints their last status lines,
  /// restores the terminal and saves the memento; returns the exit status.
  private func finish(_ status: Int32) -> Int32 {
    var status = status
    if status == Shell.ExitCode.success && !output.isClosed { waitForDownloads() }
    // A server's player plays on when the shell leaves, as it does for mpc.
    let playerStays = options.playerOutlivesShell
    if status == Shell.ExitCode.success && !output.isClosed && !isInteractive && !playerStays { playToTheEnd() }
    if !playerStays { interpreter.environment.player?.stop() }
    recordPlays()
    // The listens of the last tracks are sent before we leave, while the server answers
    // (a few seconds at most); what it does not take waits in the library file.
    interpreter.environment.listenBrainz?.finish(within: Shell.ExitCode.isSignal(status) ? 0 : 5)
    // A signal that ended the last command, or the wait for downloads, decides the status.
    if status == Shell.ExitCode.success, let signalled = SignalMonitor.takeTermination() { status = signalled }
    if status == Shell.ExitCode.success, !isInteractive, SignalMonitor.take(.interrupt) {
      status = Shell.ExitCode.interrupted
    }
    for line in delivery.take() { output.line(line) }
    reader.close()
    if let coverSubscription { library.stopObservingCovers(coverSubscription) }
    // A signal ends the run at once (SPEC §11): the downloads go with the process, which
    // writes nothing of them. Otherwise the cancelled ones end before we leave.
    if !Shell.ExitCode.isSignal(status) { library.cancelCoversAndWait() }
    saveState()
    if let failure = saveFailure { report(failure) }
    output.flush()
    if let failure = output.failure {
      // Not a closed pipe: the output the user asked for is not all there (SPEC §9).
      errors.line("bluelib: cannot write to standard output: \(failure)")
      return Shell.ExitCode.failure
    }
    if status != Shell.ExitCode.success { return status }
    return anyFailed && !isInteractive ? Shell.ExitCode.failure : Shell.ExitCode.success
  }

  /// Pending downloads finish before we leave (SPEC §3 quit); a signal cancels them.
  private func waitForDownloads() {
    guard !library.coversAreIdle else { return }
    let pending = library.pendingCoverCount
    if isInteractive && pending > 0 {
      output.line("waiting for \(Library.counted(pending, "download")) (Ctrl-C cancels)")
      output.flush()
    }
    let cancellation = interpreter.environment.cancellation
    _ = library.waitForCovers(wakingOn: cancellation.wakeUpPipe.readEnd) { cancellation.coverWaitStop() }
  }

  /// A script that started playback plays to the end of the queue before it exits, each
  /// track's line printed as it starts; SIGINT, SIGTERM or SIGHUP stop it at once (and give
  /// the exit status).
  private func playToTheEnd() {
    guard let player = interpreter.environment.player, !player.isIdle else { return }
    player.waitUntilIdle(
      wakingOn: .shared,
      isCancelled: { [cancellation = options.cancellation] in cancellation.isStopRequested },
      every: { [output] in
        self.recordPlays()
        let lines = self.delivery.take()
        guard !lines.isEmpty else { return }
        for line in lines { output.line(line) }
        output.flush()
      })
  }

  // MARK: - Helpers

  /// Records in the library the albums the player told were played (its events queue
  /// them: the library is written on this thread), and reports what could not be
  /// recorded, here or where the delivery ran before (above the prompt, in `wait`).
  private func recordPlays() {
    delivery.recordPlays()
    delivery.takeFailures().forEach(report)
  }

  /// Prints the status lines that are due. Script mode prints them once every download
  /// has reported, so they come out in album order however the servers raced (`wait`
  /// makes that point explicit).
  private func deliverDueMessages() {
    recordPlays()
    guard isInteractive || library.coversAreIdle else { return }
    for line in delivery.take() { output.line(line) }
  }

  /// Saves the current album; a failure is reported before the next prompt.
  private func saveState() {
    do {
      try library.saveSelection()
    } catch {
      saveFailure = "cannot save the current album: \(error)"
    }
  }

  /// Prints a failure: `error: …` at a terminal, `bluelib: SOURCE:LINE: …` in a script.
  private func report(_ message: String) {
    anyFailed = true
    output.flush()
    if isInteractive {
      errors.line(style.red("error:") + " " + message)
    } else {
      errors.line("bluelib: \(source):\(reader.lineNumber): \(message)")
    }
  }
}

@available(*, unavailable, message: "the session stays on the thread that owns the terminal")
extension ShellSession: Sendable {}
