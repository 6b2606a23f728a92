import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Undo and redo of every library change, and the current album kept across runs (SPEC §3, §6).
@Suite(.serialized)
struct MementoTests {
  typealias F = LibraryFixture

  /// One change verb with what to do first, for the undo/redo round trip.
  struct Change: Sendable, CustomTestStringConvertible {
    var setup: [String]
    var command: String
    var undone: String
    var testDescription: String { command }
  }

  static let changes: [Change] = [
    Change(
      setup: ["tap 2"], command: "add \"Blue Train\" artist=\"John Coltrane\" year=1957",
      undone: "undid add \"Blue Train\""),
    Change(setup: ["tap 3"], command: "edit year=1998 genre=Rock", undone: "undid edit \"Nothing Like The Sun\""),
    Change(setup: ["tap 4"], command: "delete", undone: "undid delete \"Staring at the Sun\""),
    Change(setup: ["tap 4"], command: "move 5 to 1", undone: "undid move \"American Pie\""),
    Change(
      setup: ["tap 3"], command: "import IMPORT_FILE",
      undone: "undid import of 2 albums in place of the 5 sample albums"),
    Change(
      setup: ["delete 2", "add Extra year=2024", "tap 3"], command: "reset", undone: "undid reset"),
  ]

  private static func importFile(in runner: BinaryRunner) throws -> String {
    try F.write(
      """
      title,artist,genre,year,coverUrl
      Kind of Blue,Miles Davis,Jazz,1959,
      Blue Train,John Coltrane,Jazz,1957,

      """, to: "two.csv", in: runner)
  }

  // MARK: - Undo and redo

  @Test(arguments: changes)
  func undoRestoresTheLibraryAndSelectionAndRedoReappliesTheChange(_ change: Change) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let command = change.command.replacingOccurrences(
      of: "IMPORT_FILE", with: "'\(try Self.importFile(in: runner))'")
    let script =
      change.setup + [
        F.mark, "list", "view", F.mark, command, F.mark, "list", "view", F.mark, "undo", F.mark, "list", "view",
        F.mark, "redo", F.mark, "list", "view", F.mark, "undo",
      ]
    let result = try runner.run(script: script.joined(separator: "\n") + "\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let sections = F.sections(result.stdout)
    try #require(sections.count == 9)
    let (before, changed, undoOutput, restored, redoOutput, redone) =
      (sections[1], sections[3], sections[4], sections[5], sections[6], sections[7])
    #expect(changed != before)
    #expect(undoOutput.hasPrefix(change.undone + "\n"))
    #expect(restored == before)
    #expect(redoOutput.hasPrefix("redid " + change.undone.dropFirst("undid ".count) + "\n"))
    #expect(redone == changed)
    // The library file holds the undone state, and the selection it had.
    let next = try runner.run(["-c", "list; view"])
    #expect(next.stdout == before)
  }

  @Test func undoOfAnEditByIndexKeepsTheSelectionBeforeTheEdit() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "tap 2\nedit 4 year=1\nundo\nlist\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout.hasSuffix("undid edit \"Staring at the Sun\"\n" + F.view(2) + F.list(selected: 2)))
  }

  @Test func undoOfAnAddRestoresTheSelectionEvenAfterTapping() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "tap 2\nadd Foo\ntap 5\nundo\nlist\n")
    #expect(result.status == 0)
    #expect(result.stdout.hasSuffix("undid add \"Foo\"\n" + F.view(2) + F.list(selected: 2)))
  }

  @Test func undoOfADeleteSelectsTheRestoredAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "tap 2\nrm 5\nundo\nlist\n")
    #expect(result.status == 0)
    #expect(result.stdout.hasSuffix("undid delete \"American Pie\"\n" + F.view(5) + F.list(selected: 5)))
  }

  @Test func undoOfAnImportRestoresTheSelectionWhateverWasSavedMeanwhile() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let file = try Self.importFile(in: runner)
    // All input at once: the shell never waits, so the memento is not saved in between.
    // Into the untouched samples: the two take their place, and undo brings them back.
    let undone = "undid import of 2 albums in place of the 5 sample albums\n"
    let piped = try runner.run(script: "tap 3\nimport '\(file)'\ntap 2\nundo\n")
    #expect(piped.stdout.hasSuffix(undone + F.view(3)))

    // The same commands typed with a pause: the shell saves the memento while it waits.
    let other = BinaryRunner()
    defer { other.cleanUp() }
    let otherFile = try Self.importFile(in: other)
    let shell = try LiveShell(other)
    shell.type("tap 3\nimport '\(otherFile)'\ntap 2\n")
    #expect(shell.waitFor("[2/2] 1 Kind of Blue | >2 Blue Train<\n"))
    usleep(200_000)
    shell.type("undo\n")
    shell.closeInput()
    #expect(shell.waitForExit() == 0)
    #expect(shell.output.hasSuffix(undone + F.view(3)))
  }

  @Test func aNewChangeClearsRedo() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "add X\nundo\nadd Y\nredo\nlist\n")
    #expect(result.status == 1)
    #expect(result.stderr == F.stdinErrors([(4, "redo: nothing to redo")]))
    var rows = F.rows
    rows.insert("Y", at: 1)
    #expect(result.stdout.hasSuffix(F.list(selected: 2, rows: rows)))
  }

  @Test func undoAndRedoTakeACountAndStepThroughSeveralChangesInOrder() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: [
        "tap 1", F.mark, "list", F.mark, "delete", "move \"It's My Life\" to 4",
        "edit \"Staring at the Sun\" genre=Rock", F.mark, "list", F.mark,
        "undo 2", F.mark, "list", F.mark, "undo", F.mark, "list", F.mark, "redo 2", F.mark, "list",
      ].joined(separator: "\n"))
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let sections = F.sections(result.stdout)
    try #require(sections.count == 10)
    #expect(sections[1] == F.list(selected: 1))
    // Editing does not move the selection: "It's My Life", just moved to 4, stays current.
    #expect(
      sections[3]
        == F.list(
          selected: 4,
          rows: [
            F.rows[2], "Staring at the Sun — U2 (2000, Rock) · cover: not downloaded", F.rows[4], F.rows[1],
          ]))
    #expect(sections[4].hasPrefix("undid edit \"Staring at the Sun\"\nundid move \"It's My Life\"\n"))
    // Undoing the move restores the selection it had: "It's My Life", where the delete left it.
    #expect(sections[5] == F.list(selected: 1, rows: Array(F.rows.dropFirst())))
    #expect(sections[6].hasPrefix("undid delete \"Best of Bowie\"\n"))
    #expect(sections[7] == F.list(selected: 1))
    #expect(sections[8].hasPrefix("redid delete \"Best of Bowie\"\nredid move \"It's My Life\"\n"))
    #expect(sections[9] == F.list(selected: 4, rows: [F.rows[2], F.rows[3], F.rows[4], F.rows[1]]))
  }

  @Test func undoAndRedoWithNothingToDoOrABadCountAreErrors() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: "undo\nredo\ntap 3\nscroll right\nundo\nundo 0\nundo x\nredo -1\nundo 1 2\nlist\n")
    #expect(result.status == 1)
    // Selection moves are not changes: there is still nothing to undo, and album 4 stays current.
    #expect(result.stdout == F.view(3) + F.view(4) + F.list(selected: 4))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "undo: nothing to undo"),
          (2, "redo: nothing to redo"),
          (5, "undo: nothing to undo"),
          (6, "undo: N must be a positive whole number, got '0'"),
          (7, "undo: N must be a positive whole number, got 'x'"),
          (8, "redo: N must be a positive whole number, got '-1'"),
          (9, "undo: unexpected argument '2'"),
        ]))
  }

  // MARK: - The memento across runs

  @Test func currentAlbumSurvivesEndOfInput() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(script: "tap 4\n").status == 0)
    let next = try runner.run(["-c", "view"])
    #expect(next.status == 0)
    #expect(next.stdout == F.view(4))
  }

  @Test func currentAlbumSurvivesQuit() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let first = try runner.run(script: "tap 4\nquit\ntap 1\n")
    #expect(first.status == 0)
    #expect(first.stdout == F.view(4))  // nothing after quit ran
    let next = try runner.run(["-c", "view"])
    #expect(next.stdout == F.view(4))
  }

  @Test func currentAlbumSurvivesSIGTERM() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let shell = try LiveShell(runner)
    shell.type("tap 4\n")
    #expect(shell.waitFor(F.view(4)))
    // Let it finish saving and sit waiting for input, as a shell left open would.
    usleep(300_000)
    kill(shell.processIdentifier, SIGTERM)
    #expect(shell.waitForExit() == 143)
    #expect(!shell.diedOfSignal, "it leaves on the signal, not killed by it")
    let next = try runner.run(["-c", "view"])
    #expect(next.status == 0)
    #expect(next.stdout == F.view(4))
  }

  @Test func sigtermDuringACommandEndsTheShellWhenTheCommandIsDone() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var csv = "title,artist,genre,year,coverUrl\n"
    for i in 0..<100_000 { csv += "Bulk \(i),Artist,Genre,2000,\n" }
    let file = try F.write(csv, to: "big.csv", in: runner)
    let shell = try LiveShell(runner)
    shell.type("tap 4\nimport '\(file)'\n")  // stdin stays open, as with a person at a pipe
    #expect(shell.waitFor(F.view(4)))
    usleep(100_000)  // the import is running now
    kill(shell.processIdentifier, SIGTERM)
    // SPEC §1/§6: a signal in script mode ends the run after the current command.
    let status = shell.waitForExit(timeout: 10)
    #expect(status == 143)
    #expect(!shell.diedOfSignal, "it leaves on the signal, not killed by it")
    // Whatever happened, the import was all or nothing.
    let listed = try runner.run(["-c", "list zzzz"])
    #expect(["0 of 5 albums match 'zzzz'\n", "0 of 100,000 albums match 'zzzz'\n"].contains(listed.stdout))
  }

  @Test func currentAlbumSurvivesDashC() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "tap 2; scroll right 2"]).status == 0)
    #expect(try runner.run(["-c", "view"]).stdout == F.view(4))
  }

  @Test func libraryChangesArePersistedAndUndoSurvivesARestart() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(script: "tap 2\ndelete\n").status == 0)
    let next = try runner.run(script: "list\nundo\nlist\n")
    #expect(next.stderr == "")
    #expect(next.status == 0)
    // The undo log lives in the library file (SPEC §9): the next run takes the delete back
    // and selects the restored album.
    #expect(
      next.stdout
        == F.list(selected: 2, rows: [F.rows[0], F.rows[2], F.rows[3], F.rows[4]])
        + "undid delete \"It's My Life\"\n" + F.view(2) + F.list(selected: 2))
  }
}
