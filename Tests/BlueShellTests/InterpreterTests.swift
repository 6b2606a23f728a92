import AlbumModel
import BlueLibrary
import BluePlayback
import BlueSystem
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - An in-process shell

/// One interpreter over its own in-memory library, printing in script mode (the plain
/// layout) to a real pipe that the test drains. Shared by the verbs' tests.
final class InProcessShell {
  let library: Library
  let captured: CapturedOutput
  let interpreter: Interpreter

  /// A shell over `albums` whose environment has `processEnvironment` (none of the test
  /// process's own), `cancellation` and, when given, `player`.
  init(
    albums: [Album] = DefaultCatalogue.albums, processEnvironment: [String: String] = [:],
    cancellation: Cancellation = .never, player: Player? = nil
  ) throws {
    library = .inMemory(seed: albums)
    captured = try CapturedOutput()
    interpreter = Interpreter(
      environment: CommandEnvironment(
        library: library, output: captured.channel, processEnvironment: processEnvironment,
        cancellation: cancellation, player: player))
  }

  /// The environment's player (a test that plays gave one).
  var player: Player? { interpreter.environment.player }

  /// Runs `line` and returns the failure messages (`verb: message`).
  @discardableResult
  func run(_ line: String, stopAtFirstFailure: Bool = false) -> [String] {
    interpreter.run(line: line, stopAtFirstFailure: stopAtFirstFailure)
  }

  /// What was printed since the last call.
  func output() -> String { captured.text() }

  /// What was printed since the last call, one element per line.
  func lines() -> [String] {
    let text = output()
    guard !text.isEmpty else { return [] }
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// The titles in scroller order.
  func titles() throws -> [String] {
    try library.allAlbums().map(\.title)
  }
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
    ("exti", "quit"),
    ("lsit", "list"),
    ("shwo", "show"),
    ("scrol", "scroll"),
    ("delet", "delete"),
    ("imprt", "import"),
  ])
  func mistypedVerbGetsASuggestion(typed: String, suggestion: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(typed) == ["unknown command '\(typed)' (did you mean '\(suggestion)'?)"])
    #expect(shell.output() == "")
  }

  @Test(arguments: ["foo", "xyzzy", "scrollbar"])
  func unrelatedVerbPointsToHelp(typed: String) throws {
    let shell = try InProcessShell()
    #expect(
      shell.run(typed) == ["unknown command '\(typed)' (type 'help' for the list of commands)"])
    #expect(shell.output() == "")
  }

  @Test func unknownVerbIsEscapedAndShortenedInTheMessage() throws {
    let shell = try InProcessShell()
    #expect(
      shell.run("\u{1B}[2J") == [#"unknown command '\e[2J' (type 'help' for the list of commands)"#]
    )
    let long = String(repeating: "z", count: 100)
    let shortened = String(repeating: "z", count: 39) + "…"
    #expect(
      shell.run(long) == ["unknown command '\(shortened)' (type 'help' for the list of commands)"])
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
    ("undo 1 2", "undo: unexpected argument '2'"),
    ("history x", "history: N must be a positive whole number, got 'x'"),
    ("quit now", "quit: unexpected argument 'now'"),
    ("exit now", "exit: unexpected argument 'now'"),
    ("help hepl", "help: unknown command 'hepl' (did you mean 'help'?)"),
    ("help quit exit", "help: unexpected argument 'exit'"),
    ("view 2", "view: expected save, list or delete, got '2'"),
    ("tap", "tap: missing ALBUM (usage: tap ALBUM)"),
  ])
  func commandErrorsArePrefixedWithTheVerb(line: String, message: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [message])
    #expect(shell.output() == "")
  }

  @Test func upperCaseVerbErrorNamesTheVerbInLowerCase() throws {
    let shell = try InProcessShell()
    #expect(shell.run("UNDO") == ["undo: nothing to undo"])
    #expect(shell.run("Tap 9") == ["tap: no album 9 (the library has 5)"])
  }

  @Test func tokenizerErrorIsReturnedAsTheLinesOnlyFailure() throws {
    let shell = try InProcessShell()
    #expect(shell.run(#"help "quit"#) == ["unterminated quote starting at column 6"])
    #expect(shell.output() == "")
  }

  @Test func tokenizerErrorRunsNothingOnTheLine() throws {
    let shell = try InProcessShell()
    #expect(shell.run(#"add A; tap 3; add "B"#) == ["unterminated quote starting at column 19"])
    #expect(try shell.library.count() == 5)
    #expect(shell.library.selection == 0)
    #expect(shell.output() == "")
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  @Test(arguments: ["", "   ", "# just a comment", ";;", " ; # nothing", "\t# add X"])
  func blankAndCommentLinesDoNothing(line: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [])
    #expect(shell.output() == "")
    #expect(shell.interpreter.quitRequested == false)
    #expect(try shell.library.count() == 5)
  }

  @Test func commentEndsTheLine() throws {
    let shell = try InProcessShell()
    #expect(shell.run("tap 2 # tap 4; delete") == [])
    #expect(shell.library.selection == 1)
    #expect(try shell.library.count() == 5)
  }

  // MARK: Several commands on a line

  @Test func commandsOnALineRunInOrder() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("add A; add B;add C") == [])
    #expect(try shell.titles() == ["A", "B", "C"])
    let messages = shell.lines().filter { $0.hasPrefix("added") }
    #expect(
      messages == [
        #"added "A" as 1 (1 album)"#, #"added "B" as 2 (2 albums)"#, #"added "C" as 3 (3 albums)"#,
      ])
  }

  @Test func failureDoesNotStopTheRestOfTheLineByDefault() throws {
    let shell = try InProcessShell(albums: [])
    let failures = shell.run("add A; tap 7; bogus; add B")
    #expect(
      failures == [
        "tap: no album 7 (the library has 1 album)",
        "unknown command 'bogus' (type 'help' for the list of commands)",
      ])
    #expect(try shell.titles() == ["A", "B"])
  }

  @Test func stopAtFirstFailureSkipsTheRestOfTheLine() throws {
    let shell = try InProcessShell(albums: [])
    let failures = shell.run("add A; tap 7; add B", stopAtFirstFailure: true)
    #expect(failures == ["tap: no album 7 (the library has 1 album)"])
    #expect(try shell.titles() == ["A"])
    #expect(shell.lines().first == #"added "A" as 1 (1 album)"#)
  }

  @Test func stopAtFirstFailureAlsoStopsAtAnUnknownVerb() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("bgous; add A", stopAtFirstFailure: true).count == 1)
    #expect(try shell.library.count() == 0)
    #expect(shell.output() == "")
  }

  @Test(arguments: ["quit", "exit", "QUIT"])
  func quitStopsTheRestOfTheLine(verb: String) throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.interpreter.quitRequested == false)
    #expect(shell.run("add A; \(verb); add B") == [])
    #expect(shell.interpreter.quitRequested)
    #expect(try shell.titles() == ["A"])
  }

  @Test func closedOutputStopsTheRestOfTheLine() throws {
    // `bluelib … | head -1`: once nobody reads, running more commands is pointless.
    let (readEnd, writeEnd) = try makePipe()
    close(readEnd)
    signal(SIGPIPE, SIG_IGN)
    defer { close(writeEnd) }
    let library = Library.inMemory(seed: [])
    let output = OutputChannel(fileDescriptor: writeEnd, flushThreshold: 1)
    let interpreter = Interpreter(environment: CommandEnvironment(library: library, output: output))
    #expect(interpreter.run(line: "add A; add B; add C") == [])
    #expect(output.isClosed)
    #expect(try library.allAlbums().map(\.title) == ["A"])
  }

  @Test(arguments: ["HELP quit", "Help quit", "help QUIT", "hElP Exit"])
  func verbsAreCaseInsensitive(line: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [])
    #expect(
      shell.output().hasPrefix(
        "usage: quit\n  leave the shell (Ctrl-D does the same)\n  aliases: exit\n"))
  }

  @Test func aliasesRunTheirVerb() throws {
    let shell = try InProcessShell()
    #expect(shell.run("ls sun; rm 1") == [])
    #expect(
      shell.lines().prefix(4) == [
        "  3. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "  4. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded",
        "2 of 5 albums match 'sun'",
        #"deleted "Best of Bowie" (4 albums left)"#,
      ])
  }

  @Test func quotedVerbIsStillAVerb() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run(#""add" 'A b'"#) == [])
    #expect(try shell.titles() == ["A b"])
  }

  @Test func helpListsEveryVerbByGroup() throws {
    let shell = try InProcessShell()
    #expect(shell.run("help") == [])
    let lines = shell.lines()
    #expect(lines.first == "Browse:")
    #expect(lines.last == "Type 'help VERB' for details and examples.")
    for group in ["Change the library:", "Covers:", "Shell:"] { #expect(lines.contains(group)) }
    for verb in CommandRegistry.standard.commands.map({ $0.configuration.verb }) {
      #expect(lines.contains { $0.hasPrefix("  " + verb) }, "help does not list \(verb)")
    }
  }

  @Test func historyListsTheInterpretersHistory() throws {
    let shell = try InProcessShell()
    shell.interpreter.history.add("tap 2")
    shell.interpreter.history.add("say \u{1B}[31m")
    #expect(shell.run("history") == [])
    #expect(shell.output() == "  1  tap 2\n  2  say \\e[31m\n")
    #expect(shell.run("history 1") == [])
    #expect(shell.output() == "  2  say \\e[31m\n")
  }

  @Test func historyOfNothingPrintsNothing() throws {
    let shell = try InProcessShell()
    #expect(shell.run("history") == [])
    #expect(shell.output() == "")
  }

  // MARK: Undo and redo

  @Test func undoAndRedoStepSeveralChangesNewestFirst() throws {
    let shell = try InProcessShell(albums: [])
    shell.run("add A; add B; add C")
    _ = shell.output()

    #expect(shell.run("undo 2") == [])
    #expect(try shell.titles() == ["A"])
    #expect(
      shell.lines() == [
        #"undid add "C""#, #"undid add "B""#,
        "[1/1] >1 A<",
        "Artist: ", "Album: A", "Genre: ", "Year: ", "Cover: (none)",
      ])

    #expect(shell.run("redo 2") == [])
    #expect(try shell.titles() == ["A", "B", "C"])
    #expect(
      shell.lines() == [
        #"redid add "B""#, #"redid add "C""#,
        "[3/3] 1 A | 2 B | >3 C<",
        "Artist: ", "Album: C", "Genre: ", "Year: ", "Cover: (none)",
      ])
  }

  @Test func undoMoreThanThereIsUndoesEverything() throws {
    let shell = try InProcessShell(albums: [])
    shell.run("add A; add B")
    _ = shell.output()
    #expect(shell.run("undo 5") == [])
    #expect(try shell.library.count() == 0)
    #expect(shell.library.selection == nil)
    #expect(
      shell.lines() == [
        #"undid add "B""#, #"undid add "A""#, "(nothing to undo after 2 of 5)",
        "(the library is empty: 'add TITLE' adds an album, 'reset' brings back the defaults)",
      ])
    #expect(shell.run("undo") == ["undo: nothing to undo"])
    #expect(shell.run("redo 5") == [])
    #expect(try shell.titles() == ["A", "B"])
  }

  @Test func redoAfterUndoReappliesAndCanBeUndoneAgain() throws {
    let shell = try InProcessShell(albums: [])
    #expect(shell.run("add A; undo; redo") == [])
    #expect(try shell.titles() == ["A"])
    #expect(shell.run("undo") == [])
    #expect(try shell.titles() == [])
  }

  @Test func newChangeClearsRedo() throws {
    let shell = try InProcessShell(albums: [])
    shell.run("add A; add B; undo; add C")
    #expect(shell.run("redo") == ["redo: nothing to redo"])
    #expect(try shell.titles() == ["A", "C"])
  }

  @Test func undoAndRedoLinesEscapeControlCharacters() throws {
    let shell = try InProcessShell(albums: [Album(title: "Evil\u{1B}[2J")])
    #expect(shell.run("delete; undo; redo") == [])
    let lines = shell.lines().filter {
      !$0.hasPrefix("(") && !$0.hasPrefix("[") && !$0.contains(": ")
    }
    #expect(
      lines == [
        #"deleted "Evil\e[2J" (0 albums left)"#, #"undid delete "Evil\e[2J""#,
        #"redid delete "Evil\e[2J""#,
      ])
  }

  @Test func undoWithNothingToUndoIsAnErrorAndPrintsNothing() throws {
    let shell = try InProcessShell()
    #expect(shell.run("undo") == ["undo: nothing to undo"])
    #expect(shell.run("undo 3") == ["undo: nothing to undo"])
    #expect(shell.run("redo 2") == ["redo: nothing to redo"])
    #expect(shell.output() == "")
  }

  @Test func failingCommandIsNotAnUndoStep() throws {
    let shell = try InProcessShell()
    #expect(
      shell.run("add A; edit yaer=1; move 1 to 9; delete 9; import /nonexistent/x.json").count == 4)
    #expect(shell.run("undo; undo") == ["undo: nothing to undo"])
    #expect(try shell.titles() == DefaultCatalogue.albums.map(\.title))
  }

  @Test func failingArgumentsAreNotAnUndoStep() throws {
    let shell = try InProcessShell()
    #expect(shell.run("add") == ["add: missing TITLE (usage: add TITLE [FIELD=VALUE…])"])
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  @Test(arguments: [
    "tap 3", "scroll right", "scroll end", "show 2", "list", "view", "help", "history",
  ])
  func nonChangingCommandIsNotAnUndoStep(line: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run("add A") == [])
    #expect(shell.run(line) == [])
    #expect(shell.run("undo") == [])
    #expect(try shell.library.count() == 5)
    #expect(shell.run("undo") == ["undo: nothing to undo"])
  }

  // MARK: Library errors

  @Test func libraryErrorKeepsItsCause() throws {
    let environment = CommandEnvironment(library: .inMemory(), output: discardedOutput())
    let command = try ImportCommand(arguments: [Word("/nonexistent/albums.json")])
    do {
      _ = try command.execute(in: environment)
      Issue.record("importing a missing file succeeded")
    } catch {
      let wrapped = CommandError(wrapping: error)
      guard case .cannotRead(let path, _)? = wrapped.cause else {
        Issue.record("expected cannotRead, got \(String(describing: wrapped.cause))")
        return
      }
      #expect(path == "/nonexistent/albums.json")
      #expect(wrapped.message == wrapped.cause?.description)
      #expect(wrapped.message.hasPrefix("cannot read '/nonexistent/albums.json': "))
    }
  }

  @Test func argumentErrorFromTheLibraryKeepsItsCause() {
    #expect(throws: CommandError(LibraryError.unknownField("yaer"))) {
      try EditCommand(arguments: [Word("yaer=1")])
    }
    do {
      _ = try AddCommand(arguments: [Word("A"), Word("year=soon")])
      Issue.record("a year of 'soon' was accepted")
    } catch {
      #expect(error.cause == .invalidYear("soon"))
    }
  }

  @Test func commandErrorOfItsOwnHasNoCause() throws {
    let environment = CommandEnvironment(library: .inMemory(seed: []), output: discardedOutput())
    let command = try DeleteCommand(arguments: [])
    do {
      _ = try command.execute(in: environment)
      Issue.record("deleting from an empty library succeeded")
    } catch let error as CommandError {
      #expect(error.message == "the library is empty")
      #expect(error.cause == nil)
    }
  }

  @Test func interpreterPrintsTheLibraryErrorUnderTheVerb() throws {
    let shell = try InProcessShell()
    let failures = shell.run("import /nonexistent/albums.json")
    #expect(failures.count == 1)
    #expect(failures.first?.hasPrefix("import: cannot read '/nonexistent/albums.json': ") == true)
  }
}
