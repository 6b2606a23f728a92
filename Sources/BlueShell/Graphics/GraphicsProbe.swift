import BlueLibrary
import BlueSystem
import CoverArt

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks the terminal which image protocols it speaks, the way kitty's documentation
/// recommends: the kitty graphics query, the cell size (`ESC [ 16 t`), the sixel colour
/// registers (XTSMGRAPHICS) and last the primary device attributes (`ESC [ c`), which every
/// terminal answers — so a terminal that ignores the rest still ends the wait at once.
///
/// The answers arrive on the terminal's input, where the line editor would read them as
/// keys: the query runs in non-canonical, no-echo mode before the editor reads anything,
/// reads until the device attributes came or the time ran out, and restores the modes.
/// Keys typed meanwhile are handed back (``TerminalReply/typedAhead``).
///
/// - Important: Only the thread that owns the terminal asks, outside `el_gets`.
enum GraphicsProbe {
  /// Everything asked, in one write.
  static let query =
    KittyGraphics.query + "\u{1B}[16t" + "\u{1B}[?1;1;0S" + "\u{1B}[c"

  /// How long to wait for the device attributes, which every terminal answers (a local one
  /// in well under a millisecond, over ssh in a round trip): one that answers nothing (a bare
  /// pseudo-terminal, a serial line) costs this much once per run. 150 ms proved too short
  /// for kitty on a busy machine, and for slow links; answers that come later still are
  /// dropped by the line reader, never typed. A terminal that names itself in the
  /// environment gets ``namedTerminalTimeoutMilliseconds``.
  static let timeoutMilliseconds: Int32 = 400

  /// How long to wait for a terminal that names itself in the environment
  /// (``namesItsTerminal(_:)``): it answers for sure, however late. kitty starting on a busy
  /// machine held its answer 0.76–0.98 s (a load of 14 on two cores, its software OpenGL
  /// compiling its shaders for the first frame): after 400 ms half blocks were chosen, and
  /// the answer reached whatever read the terminal next — kitty's `--hold` took its ESC for
  /// the key that closes the window.
  static let namedTerminalTimeoutMilliseconds: Int32 = 5000

  /// The variables terminals set for the programs they start (kitty, iTerm2, WezTerm,
  /// Ghostty, Apple's Terminal and VS Code's, VTE's, Konsole, xterm, Windows Terminal,
  /// Alacritty), and the `TERM` values only a terminal of its own sets (kept over ssh).
  static let terminalVariables = [
    "KITTY_WINDOW_ID", "TERM_PROGRAM", "VTE_VERSION", "KONSOLE_VERSION", "XTERM_VERSION", "WT_SESSION",
    "ALACRITTY_WINDOW_ID",
  ]
  static let terminalNames: Set = ["xterm-kitty", "xterm-ghostty", "wezterm", "alacritty", "foot", "foot-extra"]

  /// True when `environment` says which terminal this is.
  static func namesItsTerminal(_ environment: [String: String]) -> Bool {
    terminalVariables.contains { !(environment[$0] ?? "").isEmpty } || terminalNames.contains(environment["TERM"] ?? "")
  }

  /// The wait for the terminal of `environment`: longer for one that names itself.
  static func timeoutMilliseconds(for environment: [String: String]) -> Int32 {
    namesItsTerminal(environment) ? namedTerminalTimeoutMilliseconds : timeoutMilliseconds
  }

  /// Writes the query to `output`, reads the answers from `input` (both a terminal) and
  /// returns them; nil when the terminal's modes cannot be read or set.
  static func ask(
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, timeoutMilliseconds: Int32 = timeoutMilliseconds
  ) -> TerminalReply? {
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      // A read returns what is there; poll does the waiting.
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSANOW, &raw) == 0 else { return nil }
    defer { _ = tcsetattr(input, TCSANOW, &saved) }

    let bytes = Array(query.utf8)
    guard bytes.withUnsafeBytes({ POSIX.writeAll(output, $0) }) else { return nil }
    // Bytes not read as a reply yet (an answer cut off between reads); each is looked at
    // about once, so a megabyte of answer costs milliseconds.
    var pending: [UInt8] = []
    var reply = TerminalReply()
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(timeoutMilliseconds))
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    // An over-long answer still arriving at the deadline is read to its end (while bytes
    // keep coming, for at most a few seconds), so that its rest is not typed.
    let lastDeadline = deadline + .seconds(5)
    while !reply.isComplete {
      let left = deadline - clock.now
      let milliseconds: Int32
      if left > .zero {
        let (seconds, attoseconds) = left.components
        milliseconds = Int32(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      } else if reply.isDropping && clock.now < lastDeadline {
        milliseconds = 200
      } else {
        break
      }
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      // A signal cuts a call short: it is made again.
      guard let ready = try? syscall("poll", { poll(&descriptor, 1, milliseconds) }), ready > 0 else { break }
      guard
        let count = try? syscall(
          "read", { chunk.withUnsafeMutableBytes { POSIX.read(input, $0.baseAddress!, $0.count) } }),
        count > 0
      else { break }
      pending += chunk[..<count]
      pending.removeFirst(reply.read(pending))
    }
    // A sequence cut off by the timeout is returned as typed: it may be a key. Not the
    // rest of an over-long answer being dropped.
    if !reply.isDropping { reply.typedAhead += pending }
    return reply
  }
}
