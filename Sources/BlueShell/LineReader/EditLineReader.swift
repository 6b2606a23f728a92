import BlueLibrary
import BlueSystem
internal import CEditLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines from a person at a terminal through libedit: prompt, emacs bindings,
/// history on Up/Down and Ctrl-R, Ctrl-C clears the line, Ctrl-D on an empty line quits.
///
/// libedit reads characters through our own function, which `poll`s stdin and the
/// ``WakeUpPipe``: when background work queued lines (``MessageQueue``) they are printed
/// above the prompt and the half-typed line is redrawn where it was (the LLDB `PrintAsync`
/// algorithm); when a signal arrived it is handled on this thread, never in signal context.
///
/// - Important: Every `el_*` and `history` call happens on the thread that created the
///   reader, which owns the terminal while it exists.
final class EditLineReader: LineReader {
  /// The prompt's visible text.
  static let promptText = "bluelib> "

  private(set) var lineNumber = 0
  private let editLine: OpaquePointer
  private let history: OpaquePointer
  private let delivery: MessageDelivery
  private let pipe: WakeUpPipe
  private var prompt: UnsafeMutablePointer<CChar>
  /// The prompt's width in cells, for placing the cursor.
  private var promptWidth = EditLineReader.promptText.count
  private let colors: Bool
  private var interruptedByKey = false
  private var stopEvent: LineEvent?
  private var pendingBytes: [UInt8] = []
  /// Characters to hand libedit before reading more: a bracketed paste, or the bytes read
  /// ahead to tell a paste from another escape sequence.
  private var pendingInput: [Unicode.Scalar] = []
  /// A browsing key seen at an empty prompt: the read ends with it.
  private var pressedKey: BrowsingKey?
  private var isClosed = false
  /// Called on this thread when the window was resized (the shell re-lays out its view).
  var onResize: (() -> Void)?
  /// Asked on this thread, at the prompt, when covers the cards asked for landed: whether
  /// all those the cards on the screen waited for are in (or failed), so they are to be
  /// drawn again.
  var cardsAreReady: (() -> Bool)?
  /// Draws the cards again above the prompt (the reader has cleared the prompt's rows, and
  /// draws it, with the half-typed line, after this).
  var drawCards: (() -> Void)?
  /// Tab completion; nil leaves Tab without effect.
  var completer: Completer?

  /// Starts libedit on stdin/stdout; nil when the terminal cannot be set up.
  ///
  /// - Parameters:
  ///   - colors: draw the prompt in colour.
  ///   - entries: earlier history, oldest first, reachable with Up.
  ///   - delivery: what background work queued: lines to print above the prompt, and plays
  ///     it records as they come.
  init?(colors: Bool, entries: [String], delivery: MessageDelivery, pipe: WakeUpPipe = .shared) {
    TerminalModes.enableUTF8Locale()
    TerminalModes.saveForExit()
    guard let editLine = CEditLine_initStandardStreams("bluelib") else { return nil }
    guard let history = history_init() else {
      el_end(editLine)
      return nil
    }
    self.editLine = editLine
    self.history = history
    self.delivery = delivery
    self.pipe = pipe
    self.colors = colors
    prompt = strdup(Self.promptString(context: nil, colors: colors))

    CEditLine_historySetSize(history, 1000)
    CEditLine_historySetUnique(history, 1)
    for entry in entries { CEditLine_historyEnter(history, entry) }

    CEditLine_setClientData(editLine, Unmanaged.passUnretained(self).toOpaque())
    CEditLine_setEditor(editLine, "emacs")
    // Signals are ours (flag + wake-up pipe); libedit's handlers re-raise to the whole
    // process group and leave the tty cooked mid-line.
    CEditLine_setSignal(editLine, 0)
    CEditLine_setPrompt(editLine, { el in EditLineReader.reader(el)?.prompt }, 1)
    CEditLine_setHistory(editLine, history)
    CEditLine_setReadFunction(editLine) { el, character in
      guard let reader = EditLineReader.reader(el), let character else { return -1 }
      return reader.readCharacter(into: character)
    }
    // Ctrl-C while editing is a key, not SIGINT: it ends the line with a flag we check
    // (go-libedit's approach). While a command runs, ^C still raises SIGINT. (EL_SETTY
    // "-d intr=" does not reach the terminal in libedit 3.1, so readCharacter does it.)
    CEditLine_addFunction(editLine, "bluelib-interrupt", "Drop the line being typed") { el, _ in
      guard let reader = EditLineReader.reader(el) else { return UInt8(CC_NEWLINE) }
      reader.interruptedByKey = true
      reader.showInterrupt()
      return UInt8(CC_NEWLINE)
    }
    CEditLine_bind(editLine, "^C", "bluelib-interrupt")
    CEditLine_bind(editLine, "^R", "em-inc-search-prev")
    CEditLine_addFunction(editLine, "bluelib-complete", "Complete the word being typed") { el, _ in
      EditLineReader.reader(el)?.completeWord() ?? UInt8(CC_ERROR)
    }
    CEditLine_bind(editLine, "^I", "bluelib-complete")
    for (key, function) in Self.extraBindings { CEditLine_bind(editLine, key, function) }
  }

  deinit {
    close()
    free(prompt)
  }

  /// Keys terminals send that libedit's emacs map leaves unbound.
  private static let extraBindings: [(String, String)] = [
    ("\\e[H", "ed-move-to-beg"), ("\\e[F", "ed-move-to-end"),
    ("\\e[1~", "ed-move-to-beg"), ("\\e[4~", "ed-move-to-end"),
    ("\\eOH", "ed-move-to-beg"), ("\\eOF", "ed-move-to-end"),
    ("\\e[3~", "ed-delete-next-char"),
    ("\\e[1;5C", "em-next-word"), ("\\e[1;5D", "ed-prev-word"),
    ("\\e[1;3C", "em-next-word"), ("\\e[1;3D", "ed-prev-word"),
  ]

  /// The control sequences (after ESC) handed to libedit: those it or ``extraBindings``
  /// binds. Any other (PageUp `[5~`, PageDown `[6~`, Insert, F5, Shift+arrows) is dropped:
  /// libedit would insert its last character (`~`, `C`) into the line.
  private static let boundSequences: Set<[UInt8]> = Set(
    ["[A", "[B", "[C", "[D", "[H", "[F", "[1~", "[3~", "[4~", "[1;5C", "[1;5D", "[1;3C", "[1;3D"].map {
      Array($0.utf8)
    })

  func readLine() -> LineEvent {
    guard !isClosed else { return .endOfInput }
    flushQueuedMessages(redraw: false)
    interruptedByKey = false
    stopEvent = nil
    var count: Int32 = 0
    // Bracketed paste while editing only: a pasted block arrives marked, so it becomes
    // text to edit instead of lines that run at once.
    writeToTerminal("\u{1B}[?2004h")
    _ = CEditLine_stopTerminalEcho(STDIN_FILENO)
    let raw = el_gets(editLine, &count)
    writeToTerminal("\u{1B}[?2004l")
    // Copy at once: libedit reuses the buffer on the next call.
    let text = raw.map { String(cString: $0) }
    if let stopEvent { return stopEvent }
    if interruptedByKey {
      interruptedByKey = false
      return .interrupted
    }
    guard var line = text, count > 0 else { return .endOfInput }
    lineNumber += 1
    if line.hasSuffix("\n") { line.removeLast() }
    return .line(line)
  }

  /// Input read before the editor started (keys typed while the terminal answered a
  /// query), handed to libedit before anything else is read.
  func queueTypedAhead(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    pendingInput += String(decoding: bytes, as: UTF8.self).unicodeScalars
  }

  func remember(_ line: String) {
    CEditLine_historyEnter(history, line)
  }

  func close() {
    guard !isClosed else { return }
    isClosed = true
    history_end(history)
    el_end(editLine)
  }

  // MARK: - Reading characters

  private static func reader(_ el: OpaquePointer?) -> EditLineReader? {
    guard let el, let data = CEditLine_clientData(el) else { return nil }
    return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
  }

  /// libedit's read function: one wide character into `out`; 1 read, 0 EOF, -1 error.
  private func readCharacter(into out: UnsafeMutablePointer<wchar_t>) -> Int32 {
    CEditLine_disableInterruptKey(STDIN_FILENO)
    if !pendingInput.isEmpty {
      out.pointee = wchar_t(bitPattern: pendingInput.removeFirst().value)
      return 1
    }
    while true {
      var fds = [
        pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
        pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      // A signal's handler also writes to the pipe, so an interrupted poll is simply
      // retried: it returns at once with the pipe readable.
      guard (try? syscall("poll", { poll(&fds, 2, -1) })) != nil else { return -1 }
      if fds[1].revents != 0 {
        pipe.drain()
        if let event = handleSignals() {
          stopEvent = event
          errno = EINTR  // el_gets then returns at once, as for a read a signal cut short
          return -1
        }
        flushQueuedMessages(redraw: true)
      }
      guard fds[0].revents != 0 else { continue }
      var byte: UInt8 = 0
      let n: Int
      do throws(SystemError) {
        n = try syscall("read") { POSIX.read(STDIN_FILENO, &byte, 1) }
      } catch  where error.wouldBlock {
        continue  // non-blocking stdin with nothing after all: back to poll
      } catch {
        return -1
      }
      if n == 0 { return 0 }
      if byte == 0x1B && pendingBytes.isEmpty {
        pendingInput = readEscapeOrPaste()
        if let key = pressedKey {
          pressedKey = nil
          stopEvent = .key(key)
          errno = EINTR  // el_gets returns at once, as for a signal
          return -1
        }
        if pendingInput.isEmpty { continue }  // a terminal's answer, not keys
        out.pointee = wchar_t(bitPattern: pendingInput.removeFirst().value)
        return 1
      }
      if let scalar = decode(byte) {
        out.pointee = wchar_t(bitPattern: scalar.value)
        return 1
      }
    }
  }

  /// PageUp, PageDown, Home and End as terminals send them (after ESC).
  private static let browsingKeys: [[UInt8]: BrowsingKey] = [
    Array("[5~".utf8): .pageUp, Array("[6~".utf8): .pageDown,
    Array("[H".utf8): .home, Array("[1~".utf8): .home, Array("[F".utf8): .end, Array("[4~".utf8): .end,
  ]

  /// Whether nothing is typed on the line.
  private func lineIsEmpty() -> Bool {
    guard let info = el_wline(editLine) else { return false }
    return info.pointee.buffer == info.pointee.lastchar
  }

  // MARK: - Bracketed paste

  static let pasteStart = Array("[200~".utf8)
  static let pasteEnd = Array("\u{1B}[201~".utf8)
  /// The most bytes one paste keeps (the rest is dropped, as a line that long could not run).
  static let pasteLimit = 1 << 20

  /// After an ESC: the characters to hand libedit. A paste (`ESC [200~ … ESC [201~`)
  /// becomes its text, its lines joined with `; ` (so Enter runs them in order) and tabs as
  /// spaces (a tab would complete). A terminal's answer to the graphics query that arrives
  /// after its wait (a slow link): kitty's `ESC _G…ESC \`, the device attributes
  /// `ESC [?…c`, the sixel registers `ESC [?…S` and the cell size `ESC […t` — none of them a
  /// key — is dropped (empty). Any other sequence passes through as it came.
  private func readEscapeOrPaste() -> [Unicode.Scalar] {
    func passThrough(_ bytes: [UInt8]) -> [Unicode.Scalar] {
      ["\u{1B}"] + String(decoding: bytes, as: UTF8.self).unicodeScalars
    }
    guard let first = readByte(waiting: 50) else { return ["\u{1B}"] }
    var ahead = [first]
    if first == UInt8(ascii: "_") {
      guard let second = readByte(waiting: 50) else { return passThrough(ahead) }
      ahead.append(second)
      guard second == UInt8(ascii: "G") else { return passThrough(ahead) }
      // Dropped to its end however long (a megabyte of answer is no key either).
      var previous: UInt8 = 0
      while let next = readByte(waiting: 200) {
        if next == 0x07 || (previous == 0x1B && next == UInt8(ascii: "\\")) { break }
        previous = next
      }
      return []
    }
    guard first == UInt8(ascii: "[") else { return passThrough(ahead) }
    // A control sequence: parameters and intermediates (0x20–0x3F), then a final byte.
    while ahead.count < 64, let next = readByte(waiting: 50) {
      ahead.append(next)
      if next >= 0x40 && next <= 0x7E { break }
      if next < 0x20 || next > 0x3F { return passThrough(ahead) }
    }
    let final = ahead.count > 1 ? ahead[ahead.count - 1] : 0
    let isPrivate = ahead.count > 2 && ahead[1] == UInt8(ascii: "?")
    if final == UInt8(ascii: "t") || (isPrivate && (final == UInt8(ascii: "c") || final == UInt8(ascii: "S"))) {
      return []
    }
    if let key = Self.browsingKeys[ahead], lineIsEmpty() {
      pressedKey = key
      return []
    }
    guard ahead == Self.pasteStart else {
      // A finished sequence no binding knows is no text either.
      let finished = (0x40...0x7E).contains(final) && ahead.count > 1
      return finished && !Self.boundSequences.contains(ahead) ? [] : passThrough(ahead)
    }
    var pasted: [UInt8] = []
    var tail: [UInt8] = []  // the last bytes read, to see the end marker past the limit too
    while tail != Self.pasteEnd, let next = readByte(waiting: 1000) {
      tail.append(next)
      if tail.count > Self.pasteEnd.count { tail.removeFirst() }
      if pasted.count < Self.pasteLimit { pasted.append(next) }
    }
    if pasted.suffix(Self.pasteEnd.count).elementsEqual(Self.pasteEnd) { pasted.removeLast(Self.pasteEnd.count) }
    let text = String(decoding: pasted, as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    let joined = lines.map { $0.replacing("\t", with: " ") }.joined(separator: "; ")
    let scalars = Array(joined.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    // An empty paste still needs a character to return: a space does no harm.
    return scalars.isEmpty ? [" "] : scalars
  }

  /// One byte of input if it arrives within `milliseconds`, else nil.
  private func readByte(waiting milliseconds: Int32) -> UInt8? {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    guard (try? syscall("poll", { poll(&descriptor, 1, milliseconds) })) == 1 else { return nil }
    var byte: UInt8 = 0
    guard (try? syscall("read") { POSIX.read(STDIN_FILENO, &byte, 1) }) == 1 else { return nil }
    return byte
  }

  private func writeToTerminal(_ text: String) {
    fflush(nil)
    _ = Array(text.utf8).withUnsafeBytes { POSIX.writeAll(STDOUT_FILENO, $0) }
  }

  /// Feeds one byte to the UTF-8 decoder; a scalar when a sequence is complete. Invalid
  /// bytes are dropped, as libedit's own reader does.
  private func decode(_ byte: UInt8) -> Unicode.Scalar? {
    if byte & 0xC0 == 0x80 {
      guard !pendingBytes.isEmpty else { return nil }
      pendingBytes.append(byte)
    } else {
      pendingBytes = [byte]
    }
    let lead = pendingBytes[0]
    let length =
      switch lead {
      case 0x00..<0x80: 1
      case 0xC2...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF4: 4
      default: 0
      }
    guard length > 0 else {
      pendingBytes = []
      return nil
    }
    guard pendingBytes.count == length else { return nil }
    defer { pendingBytes = [] }
    return String(validating: pendingBytes, as: UTF8.self)?.unicodeScalars.first
  }

  /// What a signal that arrived while editing asks for.
  private func handleSignals() -> LineEvent? {
    if SignalMonitor.takeTermination() != nil { return .terminated }
    if SignalMonitor.take(.windowChange) {
      // The terminal has re-flowed a line that wraps to the new width: clear from the row
      // the prompt now starts on and draw it again, so no stale piece of it stays behind.
      let columns = Int(CEditLine_windowSize(STDOUT_FILENO).ws_col)
      let rowsUp = columns > 0 ? cursorColumn() / columns : 0
      writeToTerminal("\r" + (rowsUp > 0 ? "\u{1B}[\(rowsUp)A" : "") + "\u{1B}[J")
      el_resize(editLine)
      onResize?()
      CEditLine_refresh(editLine)
    }
    if SignalMonitor.take(.resume) {
      // Back from Ctrl-Z: the shell that ran `fg` has written its own lines, so draw the
      // prompt and the half-typed line again where the cursor now is.
      CEditLine_refresh(editLine)
    }
    if SignalMonitor.take(.interrupt) {
      showInterrupt()
      return .interrupted
    }
    return nil
  }

  /// Leaves the dropped line visible with `^C` after it, as bash does, and moves to a new row.
  private func showInterrupt() {
    var text = ""
    if let info = el_wline(editLine) {
      var columns = 0
      var pointer = info.pointee.cursor
      while let current = pointer, current < info.pointee.lastchar {
        columns += max(0, Int(wcwidth(current.pointee)))
        pointer = current + 1
      }
      if columns > 0 { text += "\u{1B}[\(columns)C" }
    }
    text += "^C\r\n"
    fflush(nil)
    _ = Array(text.utf8).withUnsafeBytes { POSIX.writeAll(STDOUT_FILENO, $0) }
  }

  // MARK: - Completion

  /// Tab: replace the word before the cursor with the completer's insertion and, when
  /// several candidates remain, list them in columns below (bash style) and redraw.
  private func completeWord() -> UInt8 {
    guard let completer, let info = el_wline(editLine) else { return UInt8(CC_ERROR) }
    var scalars = String.UnicodeScalarView()
    var pointer = info.pointee.buffer
    while let current = pointer, current < info.pointee.cursor {
      if let scalar = Unicode.Scalar(UInt32(bitPattern: current.pointee)) { scalars.append(scalar) }
      pointer = current + 1
    }
    // Copy before editing: el_insertstr reuses libedit's conversion buffer.
    let before = String(scalars)
    guard let completion = completer.complete(before) else { return UInt8(CC_REFRESH_BEEP) }
    let typed = String(String.UnicodeScalarView(scalars.suffix(completion.replacing)))
    if completion.insertion != typed {
      if completion.replacing > 0 { el_deletestr(editLine, Int32(completion.replacing)) }
      if !completion.insertion.isEmpty { el_insertstr(editLine, completion.insertion) }
    }
    guard !completion.candidates.isEmpty else { return UInt8(CC_REFRESH) }
    let reported = Int(CEditLine_windowSize(STDOUT_FILENO).ws_col)
    let columns = reported > 0 ? reported : 80
    var text = "\n" + Self.columnize(completion.candidates, width: columns)
    if completion.candidates.count >= Completer.listLimit { text += "(more: type more letters)\n" }
    fflush(nil)
    _ = Array(text.utf8).withUnsafeBytes { POSIX.writeAll(STDOUT_FILENO, $0) }
    return UInt8(CC_REDISPLAY)
  }

  /// Candidates in columns, filled down then across, as bash lists them.
  static func columnize(_ items: [String], width: Int) -> String {
    let cell = (items.map(DisplayWidth.width).max() ?? 0) + 2
    let perRow = max(1, width / max(1, cell))
    let rows = (items.count + perRow - 1) / perRow
    var text = ""
    for row in 0..<rows {
      var line = ""
      for column in 0..<perRow {
        let index = column * rows + row
        guard index < items.count else { break }
        let isLast = (column + 1) * rows + row >= items.count
        line += isLast ? items[index] : DisplayWidth.fit(items[index], width: cell)
      }
      text += line + "\n"
    }
    return text
  }

  // MARK: - Printing above the prompt

  /// Prints queued background lines (the delivery records the queued plays first). With
  /// `redraw`, the prompt and the half-typed line are on screen: clear them, print, and let
  /// libedit draw them again (cursor included).
  private func flushQueuedMessages(redraw: Bool) {
    let lines = delivery.take()
    // The cards are drawn again, after the lines, once the covers they wait for are in.
    let cards = delivery.messages.takeCardCoverLanded() && cardsAreReady?() == true
    guard !lines.isEmpty || cards else { return }
    var text = ""
    if redraw {
      // A terminal that reports no width (0) gets no cursor-up: clearing from the start of
      // the row is all we can do safely without erasing output above.
      let columns = Int(CEditLine_windowSize(STDOUT_FILENO).ws_col)
      let rowsUp = columns > 0 ? cursorColumn() / columns : 0
      text += "\r"
      if rowsUp > 0 { text += "\u{1B}[\(rowsUp)A" }
      text += "\u{1B}[J"
    }
    for line in lines { text += line + "\n" }
    fflush(nil)
    _ = Array(text.utf8).withUnsafeBytes { POSIX.writeAll(STDOUT_FILENO, $0) }
    if cards { drawCards?() }
    if redraw { CEditLine_refresh(editLine) }
  }

  /// Shows `context` in the prompt (`bluelib [year:1990..1999 · 12]> `), nil for none;
  /// takes effect at the next prompt.
  func setPromptContext(_ context: String?) {
    let context = context.map { DisplayWidth.width($0) > 40 ? DisplayWidth.fit($0, width: 40) : $0 }
    free(prompt)
    prompt = strdup(Self.promptString(context: context, colors: colors))
    promptWidth = Self.promptText.count + (context.map { DisplayWidth.width($0) + 3 } ?? 0)
  }

  /// The prompt as libedit takes it: colour codes between `\u{1}` marks (not counted).
  static func promptString(context: String?, colors: Bool) -> String {
    let context = context.map { " [" + TextSanitizer.escaped($0) + "]" } ?? ""
    return colors ? "\u{1}\u{1B}[1;34m\u{1}bluelib\(context)>\u{1}\u{1B}[0m\u{1} " : "bluelib\(context)> "
  }

  /// The cursor's column counted from the prompt's start, in display cells.
  private func cursorColumn() -> Int {
    var column = promptWidth
    guard let info = el_wline(editLine) else { return column }
    var pointer = info.pointee.buffer
    while let current = pointer, current < info.pointee.cursor {
      column += max(0, Int(wcwidth(current.pointee)))
      pointer = current + 1
    }
    return column
  }
}

/// The terminal's modes at start-up, restored on every exit path (even `exit()` from deep
/// inside), so a failure never leaves the user's terminal raw.
enum TerminalModes {
  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var hasSaved = false

  /// Saves the current modes and restores them at exit.
  static func saveForExit() {
    guard !hasSaved, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
    hasSaved = true
    atexit {
      _ = tcsetattr(STDIN_FILENO, TCSADRAIN, &TerminalModes.saved)
    }
  }

  /// Makes multibyte input work: the user's locale if it is UTF-8, else C.UTF-8.
  static func enableUTF8Locale() {
    setlocale(LC_CTYPE, "")
    if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "UTF-8" { return }
    if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "en_US.UTF-8") }
  }
}
