/// What reading one line of input produced.
enum LineEvent: Equatable, Sendable {
  /// A line, without its newline.
  case line(String)
  /// A line that cannot be run (invalid UTF-8, a NUL byte, too long), with the reason.
  case malformed(String)
  /// Ctrl-C: the line being typed was dropped.
  case interrupted
  /// End of input: Ctrl-D on an empty line, or the end of the script.
  case endOfInput
  /// SIGTERM or SIGHUP: save and leave.
  case terminated
  /// A browsing key pressed at an empty prompt (PageUp, PageDown, Home, End).
  case key(BrowsingKey)
}

/// The keys a person presses in a browser, which act on the scroller at an empty prompt.
enum BrowsingKey: Equatable, Sendable {
  case pageUp, pageDown, home, end
}

/// A source of input lines: libedit on a terminal, buffered bytes otherwise.
protocol LineReader: AnyObject {
  /// Reads the next line, blocking until one is complete.
  func readLine() -> LineEvent
  /// The 1-based number of the last line returned, for `SOURCE:LINE:` messages.
  var lineNumber: Int { get }
  /// Makes `line` reachable with Up and Ctrl-R (only the libedit reader has a history).
  func remember(_ line: String)
  /// Restores the terminal; the reader must not be used afterwards.
  func close()
}

extension LineReader {
  func remember(_ line: String) {}
  func close() {}
}
