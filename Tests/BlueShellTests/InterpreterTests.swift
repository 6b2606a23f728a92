import Synchronization
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - A test-only undoable command

/// What the test-only `push` verb changes: a list of items the test can see and tamper with.
///
/// Commands get only their words and the context, so the pile reaches them through a task
/// local bound around each interpreter call (tests run in parallel; a global would be shared).
final class Pile: Sendable {
  @TaskLocal static var current: Pile?

  private struct State {
    var items: [String] = []
    var locked: Set<String> = []
  }
  private let state = Mutex(State())

  /// The items, oldest first.
  var items: [String] { state.withLock { $0.items } }

  /// Makes undoing the push of `item` fail, as a change whose undo hits an error would.
  func lock(_ item: String) { state.withLock { _ = $0.locked.insert(item) } }

  /// Lets undoing the push of `item` succeed again.
  func unlock(_ item: String) { state.withLock { _ = $0.locked.remove(item) } }

  /// Adds `item` behind the interpreter's back.
  func append(_ item: String) { state.withLock { $0.items.append(item) } }

  /// Removes `item` behind the interpreter's back.
  func remove(_ item: String) { state.withLock { $0.items.removeAll { $0 == item } } }

  fileprivate func push(_ item: String) throws(CommandError) {
    try state.withLock { (state: inout State) throws(CommandError) in
      guard !state.items.contains(item) else {
        throw CommandError("the pile already holds '\(item)'")
      }
      state.items.append(item)
    }
  }

  fileprivate func pop(_ item: String) throws(CommandError) {
    try state.withLock { (state: inout State) throws(CommandError) in
      guard !state.locked.contains(item) else { throw CommandError("'\(item)' is locked") }
      guard state.items.last == item else { throw CommandError("'\(item)' is not on top") }
      state.items.removeLast()
    }
  }

  fileprivate static func required() throws(CommandError) -> Pile {
    guard let current else { throw CommandError("no pile is bound (test set-up error)") }
    return current
  }
}

/// `push ITEM`: appends ITEM to the test's pile; fails when the pile already holds it.
struct PushCommand: UndoableCommand {
  static let configuration = CommandConfiguration(
    verb: "push", group: .change, synopsis: "ITEM", summary: "append ITEM to the test pile")

  let item: String

  init(arguments: [Word]) throws(CommandError) {
    guard let first = arguments.first else { throw .missing("ITEM", usage: "push ITEM") }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    item = first.text
  }

  var undoDescription: String { "push '\(item)'" }

  mutating func execute(in context: CommandContext) throws(CommandError) {
    try Pile.required().push(item)
    context.output.line("pushed \(item)")
  }

  func undo(in context: CommandContext) throws(CommandError) {
    try Pile.required().pop(item)
  }
}

extension CommandRegistry {
  /// The shell's own verbs plus the test-only `push`.
  static var testing: CommandRegistry {
    CommandRegistry([
      PushCommand.self, UndoCommand.self, RedoCommand.self, HelpCommand.self,
      HistoryCommand.self, QuitCommand.self,
    ])
  }
}

/// One interpreter with its own output pipe, history and pile.
final class ShellWorld {
  let captured: CapturedOutput
  let context: CommandContext
  let interpreter: Interpreter
  let pile = Pile()

  init() throws {
    captured = try CapturedOutput()
    context = CommandContext(
      output: captured.channel, registry: .testing, history: InputHistory(path: nil))
    interpreter = Interpreter(context: context)
  }

  /// Runs `line` and returns the failure messages.
  @discardableResult
  func run(_ line: String, stopAtFirstFailure: Bool = false) -> [String] {
    Pile.$current.withValue(pile) {
      interpreter.run(line: line, stopAtFirstFailure: stopAtFirstFailure)
    }
  }

  /// What was printed since the last call.
  func output() -> String { captured.text() }
}

// MARK: - Tests

@Suite("Interpreter")
struct InterpreterTests {
  // MARK: Unknown verbs

  @Test(arguments: [
    ("hepl", "help"),
    ("histroy", "history"),
    ("quti", "quit"),
    ("HEPL", "help"),
    ("undp", "undo"),
    ("psuh", "push"),
    ("exti", "quit"),
  ])
  func mistypedVerbGetsASuggestion(typed: String, suggestion: String) throws {
    let world = try ShellWorld()
    #expect(world.run(typed) == ["unknown command '\(typed)' (did you mean '\(suggestion)'?)"])
    #expect(world.output() == "")
  }

  @Test(arguments: ["foo", "xyzzy", "scrollbar"])
  func unrelatedVerbPointsToHelp(typed: String) throws {
    let world = try ShellWorld()
    #expect(
      world.run(typed) == ["unknown command '\(typed)' (type 'help' for the list of commands)"])
  }

  @Test func unknownVerbIsEscapedAndShortenedInTheMessage() throws {
    let world = try ShellWorld()
    #expect(
      world.run("\u{1B}[2J") == [#"unknown command '\e[2J' (type 'help' for the list of commands)"#]
    )
    let long = String(repeating: "z", count: 100)
    let shortened = String(repeating: "z", count: 39) + "…"
    #expect(
      world.run(long) == ["unknown command '\(shortened)' (type 'help' for the list of commands)"])
  }

  // MARK: Errors

  @Test(arguments: [
    ("undo", "undo: nothing to undo"),
    ("redo", "redo: nothing to redo"),
    ("undo 0", "undo: N must be a positive whole number, got '0'"),
    ("undo -2", "undo: N must be a positive whole number, got '-2'"),
    (
      "undo 99999999999999999999999",
      "undo: N must be a positive whole number, got '99999999999999999999999'"
    ),
    ("quit now", "quit: unexpected argument 'now'"),
    ("exit now", "exit: unexpected argument 'now'"),
    ("help hepl", "help: unknown command 'hepl' (did you mean 'help'?)"),
    ("push", "push: missing ITEM (usage: push ITEM)"),
  ])
  func commandErrorsArePrefixedWithTheVerb(line: String, message: String) throws {
    let world = try ShellWorld()
    #expect(world.run(line) == [message])
  }

  @Test func tokenizerErrorIsReturnedAsTheLinesOnlyFailure() throws {
    let world = try ShellWorld()
    #expect(world.run(#"help "quit"#) == ["unterminated quote starting at column 6"])
    #expect(world.output() == "")
  }

  @Test func tokenizerErrorRunsNothingOnTheLine() throws {
    let world = try ShellWorld()
    #expect(world.run(#"push a; push "b"#) == ["unterminated quote starting at column 14"])
    #expect(world.pile.items == [])
    #expect(world.context.changes.undoable.isEmpty)
  }

  @Test(arguments: ["", "   ", "# just a comment", ";;", " ; # nothing"])
  func blankAndCommentLinesDoNothing(line: String) throws {
    let world = try ShellWorld()
    #expect(world.run(line) == [])
    #expect(world.output() == "")
    #expect(world.context.quitRequested == false)
  }

  // MARK: Several commands on a line

  @Test func commandsOnALineRunInOrder() throws {
    let world = try ShellWorld()
    #expect(world.run("push a; push b;push c") == [])
    #expect(world.pile.items == ["a", "b", "c"])
    #expect(world.output() == "pushed a\npushed b\npushed c\n")
  }

  @Test func failureDoesNotStopTheRestOfTheLineByDefault() throws {
    let world = try ShellWorld()
    let failures = world.run("push a; push a; bogus; push b")
    #expect(
      failures == [
        "push: the pile already holds 'a'",
        "unknown command 'bogus' (type 'help' for the list of commands)",
      ])
    #expect(world.pile.items == ["a", "b"])
  }

  @Test func stopAtFirstFailureSkipsTheRestOfTheLine() throws {
    let world = try ShellWorld()
    let failures = world.run("push a; push a; push b", stopAtFirstFailure: true)
    #expect(failures == ["push: the pile already holds 'a'"])
    #expect(world.pile.items == ["a"])
    #expect(world.output() == "pushed a\n")
  }

  @Test func stopAtFirstFailureAlsoStopsAtAnUnknownVerb() throws {
    let world = try ShellWorld()
    #expect(world.run("bgous; push a", stopAtFirstFailure: true).count == 1)
    #expect(world.pile.items == [])
  }

  @Test(arguments: ["quit", "exit", "QUIT"])
  func quitStopsTheRestOfTheLine(verb: String) throws {
    let world = try ShellWorld()
    #expect(world.run("push a; \(verb); push b") == [])
    #expect(world.context.quitRequested)
    #expect(world.pile.items == ["a"])
  }

  @Test func closedOutputStopsTheRestOfTheLine() throws {
    // `bluelib … | head -1`: once nobody reads, running more commands is pointless.
    let world = try ShellWorld()
    let (readEnd, writeEnd) = try makePipe()
    close(readEnd)
    signal(SIGPIPE, SIG_IGN)
    let output = OutputChannel(fileDescriptor: writeEnd, flushThreshold: 1)
    defer { close(writeEnd) }
    let context = CommandContext(
      output: output, registry: .testing, history: InputHistory(path: nil))
    let interpreter = Interpreter(context: context)
    let failures = Pile.$current.withValue(world.pile) { interpreter.run(line: "push a; push b") }
    #expect(failures == [])
    #expect(output.isClosed)
    #expect(world.pile.items == ["a"])
  }

  @Test(arguments: ["HELP quit", "Help quit", "help QUIT", "hElP Exit"])
  func verbsAreCaseInsensitive(line: String) throws {
    let world = try ShellWorld()
    #expect(world.run(line) == [])
    #expect(world.output().hasPrefix("usage: quit\n"))
  }

  @Test func quotedVerbIsStillAVerb() throws {
    let world = try ShellWorld()
    #expect(world.run(#""push" 'a b'"#) == [])
    #expect(world.pile.items == ["a b"])
  }

  @Test func upperCaseVerbErrorNamesTheVerbInLowerCase() throws {
    let world = try ShellWorld()
    #expect(world.run("UNDO") == ["undo: nothing to undo"])
  }

  @Test func historyCommandListsTheContextsHistory() throws {
    let world = try ShellWorld()
    world.context.history.add("push a")
    world.context.history.add("say \u{1B}[31m")
    #expect(world.run("history") == [])
    #expect(world.output() == "  1  push a\n  2  say \\e[31m\n")
  }

  // MARK: Undo and redo

  @Test func successfulChangeIsRecordedAndUndone() throws {
    let world = try ShellWorld()
    world.run("push a")
    #expect(world.context.changes.undoable.count == 1)
    _ = world.output()
    #expect(world.run("undo") == [])
    #expect(world.pile.items == [])
    #expect(world.output() == "undid push 'a'\n")
  }

  @Test func failingExecuteIsNotRecorded() throws {
    let world = try ShellWorld()
    #expect(world.run("push a; push a") == ["push: the pile already holds 'a'"])
    #expect(world.context.changes.undoable.count == 1)
    #expect(world.run("undo; undo") == ["undo: nothing to undo"])
    #expect(world.pile.items == [])
  }

  @Test func failingArgumentsAreNotRecorded() throws {
    let world = try ShellWorld()
    #expect(world.run("push a b") == ["push: unexpected argument 'b'"])
    #expect(world.context.changes.undoable.isEmpty)
    #expect(world.pile.items == [])
  }

  @Test func nonChangingCommandsAreNotRecorded() throws {
    let world = try ShellWorld()
    world.run("push a; help; history; help undo")
    #expect(world.context.changes.undoable.count == 1)
    world.run("undo")
    #expect(world.run("undo") == ["undo: nothing to undo"])
  }

  @Test func undoAndRedoStepSeveralChangesNewestFirst() throws {
    let world = try ShellWorld()
    world.run("push a; push b; push c")
    _ = world.output()

    #expect(world.run("undo 2") == [])
    #expect(world.pile.items == ["a"])
    #expect(world.output() == "undid push 'c'\nundid push 'b'\n")

    #expect(world.run("redo 2") == [])
    #expect(world.pile.items == ["a", "b", "c"])
    // Redo runs `execute` again; each step is reported as soon as it is done.
    #expect(world.output() == "pushed b\nredid push 'b'\npushed c\nredid push 'c'\n")
  }

  @Test func undoMoreThanThereIsUndoesEverything() throws {
    let world = try ShellWorld()
    world.run("push a; push b")
    #expect(world.run("undo 5") == [])
    #expect(world.pile.items == [])
    #expect(world.run("undo") == ["undo: nothing to undo"])
    #expect(world.run("redo 5") == [])
    #expect(world.pile.items == ["a", "b"])
  }

  @Test func redoAfterUndoReappliesAndCanBeUndoneAgain() throws {
    let world = try ShellWorld()
    world.run("push a; undo; redo")
    #expect(world.pile.items == ["a"])
    world.run("undo")
    #expect(world.pile.items == [])
  }

  @Test func newChangeClearsRedo() throws {
    let world = try ShellWorld()
    world.run("push a; push b; undo; push c")
    #expect(world.run("redo") == ["redo: nothing to redo"])
    #expect(world.pile.items == ["a", "c"])
  }

  @Test func undoWithNothingToUndoIsAnError() throws {
    let world = try ShellWorld()
    #expect(world.run("undo") == ["undo: nothing to undo"])
    #expect(world.run("undo 3") == ["undo: nothing to undo"])
    #expect(world.output() == "")
  }

  @Test func failingUndoPutsTheChangeBack() throws {
    let world = try ShellWorld()
    world.run("push a")
    world.pile.lock("a")
    #expect(world.run("undo") == ["undo: 'a' is locked"])
    #expect(world.pile.items == ["a"])
    #expect(world.context.changes.undoable.count == 1)
    #expect(world.run("redo") == ["redo: nothing to redo"])

    world.pile.unlock("a")
    #expect(world.run("undo") == [])
    #expect(world.pile.items == [])
  }

  @Test func failingRedoPutsTheChangeBack() throws {
    let world = try ShellWorld()
    world.run("push a; undo")
    world.pile.append("a")
    #expect(world.run("redo") == ["redo: the pile already holds 'a'"])
    #expect(world.context.changes.redoable.count == 1)

    world.pile.remove("a")
    #expect(world.run("redo") == [])
    #expect(world.pile.items == ["a"])
  }

  @Test func undoThatFailsHalfwayReportsTheChangesItDid() throws {
    let world = try ShellWorld()
    world.run("push a; push b")
    _ = world.output()
    world.pile.lock("a")
    #expect(world.run("undo 2") == ["undo: 'a' is locked"])
    // `b` was undone and is now on the redo side…
    #expect(world.pile.items == ["a"])
    #expect(world.context.changes.redoable.count == 1)
    // …so the user must be told, or the error reads as if nothing changed.
    #expect(world.output() == "undid push 'b'\n")
  }
}
