import BlueLibrary
import CoverArt

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the shell was started: the parsed command line (SPEC §1).
public struct ShellOptions: Sendable {
  /// Where commands come from.
  public enum Input: Sendable, Equatable {
    /// Standard input: interactive on a terminal, script mode otherwise.
    case standardInput
    /// The text of `-c`.
    case commands(String)
    /// The file of `--script`.
    case script(path: String)
  }

  /// Where commands come from.
  public var input: Input
  /// `--home`: every file lives under it.
  public var home: String?
  /// `--no-color`.
  public var noColor: Bool
  /// `--bail`: stop at the first failing command.
  public var bail: Bool
  /// The process environment (BLUELIB_HOME, NO_COLOR, TERM, XDG_*, HOME).
  public var environment: [String: String]
  /// `--downloads`: cover downloads at once.
  public var maxDownloads: Int = 6
  /// `--download-timeout`: seconds before one download fails.
  public var downloadTimeout: Double = 15

  /// Creates options.
  public init(
    input: Input = .standardInput, home: String? = nil, noColor: Bool = false, bail: Bool = false,
    environment: [String: String] = [:]
  ) {
    self.input = input
    self.home = home
    self.noColor = noColor
    self.bail = bail
    self.environment = environment
  }
}

/// The version `--version` and the banner print.
public let bluelibVersion = "0.1.0"

/// The REPL: reads lines, runs them, reports errors, and decides the exit status.
public enum Shell {
  /// Exit statuses (SPEC §1).
  public enum ExitCode {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let cannotOpen: Int32 = 2
    public static let interrupted: Int32 = 130
    public static let terminated: Int32 = 143
  }

  /// Runs the shell to the end of its input and returns the exit status.
  public static func run(_ options: ShellOptions) -> Int32 {
    SignalMonitor.install()
    let errors = OutputChannel(fileDescriptor: STDERR_FILENO, flushThreshold: 0)
    let output = OutputChannel(fileDescriptor: STDOUT_FILENO)

    let paths: AppPaths
    if let home = options.home ?? options.environment["BLUELIB_HOME"].flatMap({ $0.isEmpty ? nil : $0 }) {
      paths = AppPaths(home: home)
      // Every file we write lives under the home, including what Foundation's networking
      // keeps for itself (it follows the XDG variables).
      setenv("XDG_CACHE_HOME", home + "/.foundation/cache", 1)
      setenv("XDG_DATA_HOME", home + "/.foundation/data", 1)
    } else {
      do {
        paths = try AppPaths(environment: options.environment)
      } catch {
        errors.line("bluelib: \(error)")
        return ExitCode.failure
      }
    }

    let covers = CoverLoader(
      cache: CoverCache(directory: paths.coverCache), maxConcurrent: options.maxDownloads,
      timeout: .milliseconds(Int((options.downloadTimeout * 1000).rounded())))
    let library: Library
    do {
      library = try Library.open(path: paths.library, covers: covers)
    } catch {
      errors.line("bluelib: \(error)")
      return ExitCode.cannotOpen
    }

    let interactive = options.input == .standardInput && isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    let colors =
      interactive && !options.noColor && (options.environment["NO_COLOR"] ?? "").isEmpty
      && options.environment["TERM"] != "dumb"
    let style = TextStyle(colors: colors)
    let messages = MessageQueue()
    let coverStatus = CoverStatusReporter(messages: messages, showsTimes: interactive)
    let subscription = covers.subscribe { coverStatus.handle($0) }
    defer { covers.unsubscribe(subscription) }
    let history = InputHistory(path: interactive ? paths.history : nil)

    let source: String
    let reader: any LineReader
    switch options.input {
    case .commands(let text):
      source = "-c"
      reader = StreamLineReader(text: text)
    case .script(let path):
      source = path
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        errors.line("bluelib: cannot read script '\(path)': \(String(cString: strerror(errno)))")
        return ExitCode.failure
      }
      reader = StreamLineReader(fileDescriptor: fd, closeWhenDone: true, stopRequested: scriptStopRequested)
    case .standardInput:
      source = "stdin"
      if interactive,
        let editor = EditLineReader(colors: colors, entries: history.entries, messages: messages)
      {
        reader = editor
      } else {
        reader = StreamLineReader(fileDescriptor: STDIN_FILENO, stopRequested: scriptStopRequested)
      }
    }
    let isInteractive = reader is EditLineReader
    TerminalModes.enableUTF8Locale()

    let browser = AlbumBrowser(library: library, output: output, style: style, drawsCards: isInteractive)
    let context = CommandContext(
      output: output, registry: .standard, history: history, style: style,
      isInteractive: isInteractive, browser: browser, coverStatus: coverStatus)
    context.colorMode = ColorMode.detect(environment: options.environment, noColor: options.noColor)
    browser.colorMode = context.colorMode
    let interpreter = Interpreter(context: context)

    // The memento: saved after each command, before we wait for the next input, and at exit.
    var saveFailure: String?
    func saveState() {
      do {
        try library.saveSelection()
      } catch {
        saveFailure = "cannot save the current album: \(error)"
      }
    }
    if let editor = reader as? EditLineReader {
      editor.onResize = { browser.windowDidResize() }
      let home = options.environment["HOME"]
      editor.completer = Completer(
        registry: context.registry,
        titles: { prefix, limit in (try? library.store.titles(withPrefix: prefix, limit: limit)) ?? [] },
        albumCount: { (try? library.count()) ?? 0 },
        paths: { PathCompletion.entries(matching: $0, home: home) })
    }
    if let stream = reader as? StreamLineReader {
      stream.beforeBlocking = {
        saveState()
        output.flush()
      }
    }

    if isInteractive {
      let count = (try? library.count()) ?? 0
      output.line(
        style.bold("bluelib \(bluelibVersion)") + " — \(albumCount(count)) in "
          + TextSanitizer.escaped(paths.library) + ". Type 'help' for commands, Ctrl-D to leave.")
      browser.render()
    }

    var anyFailed = false
    var status = ExitCode.success
    func report(_ message: String) {
      anyFailed = true
      output.flush()
      if isInteractive {
        errors.line(style.red("error:") + " " + message)
      } else {
        errors.line("bluelib: \(source):\(reader.lineNumber): \(message)")
      }
    }

    loop: while true {
      if isInteractive { saveState() }
      output.flush()
      if let failure = saveFailure {
        report(failure)
        saveFailure = nil
      }
      let event = reader.readLine()
      switch event {
      case .line(let line):
        if history.add(line) && isInteractive { reader.remember(line) }
        let failures = interpreter.run(line: line, stopAtFirstFailure: options.bail && !isInteractive)
        failures.forEach(report)
        if !failures.isEmpty && options.bail && !isInteractive { break loop }
      case .malformed(let reason):
        report(reason)
        if options.bail && !isInteractive { break loop }
      case .interrupted:
        if !isInteractive {
          status = ExitCode.interrupted
          break loop
        }
      case .endOfInput:
        if isInteractive { output.line() }
        break loop
      case .terminated:
        if isInteractive { output.line() }
        status = ExitCode.terminated
        break loop
      }
      // Script mode prints status lines once every download has reported, so they come
      // out in album order however the servers raced (`wait` makes that point explicit).
      if isInteractive || covers.isIdle {
        for line in messages.drain() { output.line(line) }
      }
      if context.quitRequested || output.isClosed { break }
    }
    // Pending downloads finish before we leave (SPEC §3 quit); Ctrl-C cancels them.
    let pending = covers.pendingSnapshot().count
    if !covers.isIdle && status == ExitCode.success && !output.isClosed {
      if isInteractive && pending > 0 {
        output.line("waiting for \(pending == 1 ? "1 download" : "\(pending) downloads") (Ctrl-C cancels)")
        output.flush()
      }
      _ = covers.waitForPendingBlocking(timeout: nil) { SignalMonitor.peek(.interrupt) || SignalMonitor.peek(.terminate) || SignalMonitor.peek(.hangUp) }
      if SignalMonitor.take(.interrupt) || SignalMonitor.peek(.terminate) || SignalMonitor.peek(.hangUp) {
        covers.cancelAll()
        _ = covers.waitForPendingBlocking(timeout: 5)
      }
    }
    for line in messages.drain() { output.line(line) }
    reader.close()
    saveState()
    if let failure = saveFailure { report(failure) }
    output.flush()
    if status != ExitCode.success { return status }
    return anyFailed && !isInteractive ? ExitCode.failure : ExitCode.success
  }

  /// In script mode a signal ends the run after the current command.
  private static func scriptStopRequested() -> LineEvent? {
    if SignalMonitor.take(.terminate) || SignalMonitor.take(.hangUp) { return .terminated }
    if SignalMonitor.take(.interrupt) { return .interrupted }
    return nil
  }
}
