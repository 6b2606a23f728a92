import BlueCovers
import BlueLibrary
import BluePlayback
import MusicSource

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the shell was started: the parsed command line (SPEC §1).
package struct ShellOptions: Sendable {
  /// Where commands come from.
  package enum Input: Sendable, Equatable {
    /// Standard input: interactive on a terminal, script mode otherwise.
    case standardInput
    /// The text of `-c`.
    case commands(String)
    /// The file of `--script`.
    case script(path: String)
  }

  /// Where commands come from.
  package var input: Input
  /// `--home`: every file lives under it.
  package var home: String?
  /// `--no-color`.
  package var noColor: Bool
  /// `--bail`: stop at the first failing command.
  package var bail: Bool
  /// `--no-pager`: print long output on a terminal as it is, not through `$PAGER`.
  package var noPager = false
  /// The process environment (BLUELIB_HOME, NO_COLOR, TERM, XDG_*, HOME).
  package var environment: [String: String]
  /// `--downloads`: cover downloads at once.
  package var maxDownloads: Int = 6
  /// `--download-timeout`: seconds before one download fails.
  package var downloadTimeout: Double = 15
  /// `--graphics`: how covers are drawn; nil leaves it to `BLUELIB_GRAPHICS`, else `auto`.
  package var graphics: GraphicsSetting?
  /// Makes the audio engine `play` uses (when first needed); nil turns playback off.
  package var audioEngine: (@Sendable () throws(PlaybackError) -> any AudioEngine)?
  /// The music server whose albums the shell browses (`--mpd`), or nil for the library file
  /// of this machine. Its albums live in a library file of its own under the home, synced
  /// at start and, at a terminal, whenever the server's database changes.
  package var server: (any MusicSource)?
  /// Cover sources of further schemes (the server's covers).
  package var coverSources: [any CoverSource] = []
  /// The player plays on a server: a script does not wait for the end of its queue, and
  /// leaving the shell leaves it playing.
  package var playerOutlivesShell = false

  /// Creates options.
  package init(
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
package let bluelibVersion = "0.1.0"

/// The REPL: reads lines, runs them, reports errors, and decides the exit status.
package enum Shell {
  /// Exit statuses (SPEC §1).
  enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let cannotOpen: Int32 = 2
    static let interrupted: Int32 = 130

    /// Whether `status` is one a signal calls for: 129 (SIGHUP), 130 (SIGINT), 143 (SIGTERM).
    static func isSignal(_ status: Int32) -> Bool {
      status == interrupted || status == 128 + SIGTERM || status == 128 + SIGHUP
    }
  }

  /// Runs the shell to the end of its input and returns the exit status.
  ///
  /// - Important: The process is to exit right after: the session is not freed (its
  ///   memory goes with the process). After `download all` on a million albums, freeing
  ///   what the session remembers of each took seconds between SIGTERM and the exit.
  package static func run(_ options: ShellOptions) -> Int32 {
    SignalMonitor.install()
    do {
      let session = try ShellSession(options: options)
      _ = Unmanaged.passRetained(session)
      return session.run()
    } catch {
      if !error.message.isEmpty { OutputChannel(fileDescriptor: STDERR_FILENO, flushThreshold: 0).line(error.message) }
      return error.status
    }
  }

  /// Whether SIGTERM, SIGHUP or SIGINT arrived and was not taken yet: a wait outside the
  /// shell (libmpv opening its audio output) stops for it.
  package static var isStopRequested: Bool { SignalMonitor.terminationPending || SignalMonitor.peek(.interrupt) }

  /// In script mode a signal ends the run after the current command.
  static func scriptStopRequested() -> LineEvent? {
    if SignalMonitor.takeTermination() != nil { return .terminated }
    if SignalMonitor.take(.interrupt) { return .interrupted }
    return nil
  }
}
