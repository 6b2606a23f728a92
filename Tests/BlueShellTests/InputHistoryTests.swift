import TestSupport
import Testing

@testable import BlueShell

/// `last(n)` as `"NUMBER LINE"` strings, which compare easily.
private func numbered(_ history: InputHistory, _ n: Int?) -> [String] {
  history.last(n).map { "\($0.number) \($0.line)" }
}

@Suite("InputHistory")
struct InputHistoryTests {
  // MARK: - Persistence

  @Test func linesPersistAcrossInstancesOnTheSameFile() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let first = InputHistory(path: path)
      #expect(first.entries.isEmpty)
      first.add("tap 2")
      first.add(#"list "pop""#)
      first.add("undo")

      let second = InputHistory(path: path)
      #expect(second.entries == ["tap 2", #"list "pop""#, "undo"])
      #expect(fileContents(path) == "tap 2\nlist \"pop\"\nundo\n")
    }
  }

  @Test func twoShellsAppendWithoutOverwritingEachOther() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let one = InputHistory(path: path)
      let two = InputHistory(path: path)
      one.add("from one")
      two.add("from two")
      one.add("one again")
      #expect(InputHistory(path: path).entries == ["from one", "from two", "one again"])
    }
  }

  @Test func missingParentDirectoriesAreCreatedPrivately() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/state/bluelib/history"
      InputHistory(path: path).add("help")
      #expect(fileContents(path) == "help\n")
      let mode = try permissions(of: dir + "/state/bluelib")
      #expect(mode == 0o700)
    }
  }

  @Test func historyFileIsReadableOnlyByItsOwner() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      InputHistory(path: path).add("edit 1 title=secret")
      let mode = try permissions(of: path)
      #expect(mode == 0o600)
    }
  }

  @Test func nilPathKeepsLinesInMemoryOnly() throws {
    let history = InputHistory(path: nil)
    #expect(history.add("help"))
    #expect(history.add("undo"))
    #expect(history.entries == ["help", "undo"])
    #expect(history.path == nil)
    #expect(InputHistory(path: nil).entries.isEmpty)
  }

  @Test func missingFileStartsEmptyWithoutCreatingIt() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      #expect(InputHistory(path: path).entries.isEmpty)
      #expect(!fileExists(path))
    }
  }

  @Test func unusableFileKeepsWorkingInMemory() throws {
    try withTemporaryDirectory { dir in
      // A directory where the file should be: nothing can be read or appended.
      let history = InputHistory(path: dir)
      #expect(history.entries.isEmpty)
      #expect(history.add("help"))
      #expect(history.entries == ["help"])
    }
  }

  @Test func blankLinesInTheFileAreIgnored() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      try writeFile(path, "help\n\n\nundo\n")
      #expect(InputHistory(path: path).entries == ["help", "undo"])
    }
  }

  @Test func fileWithoutAFinalNewlineKeepsItsLastLineSeparate() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      // Hand-edited, or cut short by a full disk: the last line has no newline.
      try writeFile(path, "help\nundo")
      let history = InputHistory(path: path)
      #expect(history.entries == ["help", "undo"])
      history.add("quit")
      #expect(InputHistory(path: path).entries == ["help", "undo", "quit"])
    }
  }

  // MARK: - What is recorded

  @Test(arguments: [" secret", "  edit 1 title=x", "\tsecret"])
  func lineStartingWithSpaceIsNotSaved(line: String) throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let history = InputHistory(path: path)
      history.add("help")
      #expect(history.add(line) == false)
      #expect(history.entries == ["help"])
      #expect(fileContents(path) == "help\n")
    }
  }

  @Test(arguments: ["", " ", "   ", "\t", " \t "])
  func emptyAndWhitespaceLinesAreSkipped(line: String) {
    let history = InputHistory(path: nil)
    #expect(history.add(line) == false)
    #expect(history.entries.isEmpty)
  }

  @Test(arguments: ["two\nlines", "nul\0byte"])
  func linesThatCannotBeStoredOnePerLineAreSkipped(line: String) throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let history = InputHistory(path: path)
      #expect(history.add(line) == false)
      #expect(history.entries.isEmpty)
      #expect(!fileExists(path))
    }
  }

  @Test func consecutiveDuplicatesAreCollapsed() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let history = InputHistory(path: path)
      #expect(history.add("help"))
      #expect(history.add("help") == false)
      #expect(history.add("undo"))
      #expect(history.add("help"))
      #expect(history.entries == ["help", "undo", "help"])
      #expect(fileContents(path) == "help\nundo\nhelp\n")
    }
  }

  @Test func duplicateOfTheLastLineOfThePreviousRunIsCollapsed() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      InputHistory(path: path).add("tap 2")
      let next = InputHistory(path: path)
      #expect(next.add("tap 2") == false)
      #expect(fileContents(path) == "tap 2\n")
    }
  }

  @Test func linesDifferingOnlyInCaseOrTrailingSpaceAreKept() {
    let history = InputHistory(path: nil)
    history.add("help")
    history.add("HELP")
    history.add("HELP ")
    #expect(history.entries == ["help", "HELP", "HELP "])
  }

  // MARK: - The limit

  @Test func keepsTheNewestThousandLines() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let history = InputHistory(path: path)
      #expect(history.limit == 1000)
      for n in 1...1005 { history.add("line \(n)") }
      #expect(history.entries.count == 1000)
      #expect(history.entries.first == "line 6")
      #expect(history.entries.last == "line 1005")

      let reloaded = InputHistory(path: path)
      #expect(reloaded.entries.count == 1000)
      #expect(reloaded.entries == history.entries)
    }
  }

  @Test func fileLargerThanTwiceTheLimitIsCompactedOnLoad() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      try writeFile(path, (1...7).map { "line \($0)\n" }.joined())
      let history = InputHistory(path: path, limit: 3)
      #expect(history.entries == ["line 5", "line 6", "line 7"])
      #expect(fileContents(path) == "line 5\nline 6\nline 7\n")
      #expect(try permissions(of: path) == 0o600)
      // Appending goes on from the compacted file.
      history.add("line 8")
      #expect(InputHistory(path: path, limit: 3).entries == ["line 6", "line 7", "line 8"])
    }
  }

  @Test func fileOfTwiceTheLimitIsLeftAlone() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      let text = (1...6).map { "line \($0)\n" }.joined()
      try writeFile(path, text)
      #expect(InputHistory(path: path, limit: 3).entries == ["line 4", "line 5", "line 6"])
      #expect(fileContents(path) == text)
    }
  }

  @Test func defaultLimitFileOfOverTwoThousandLinesShrinksToOneThousand() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/history"
      try writeFile(path, (1...2001).map { "line \($0)\n" }.joined())
      let history = InputHistory(path: path)
      #expect(history.entries.count == 1000)
      #expect(history.entries.first == "line 1002")
      let lines = fileContents(path)?.split(separator: "\n") ?? []
      #expect(lines.count == 1000)
      #expect(lines.first == "line 1002")
      #expect(lines.last == "line 2001")
    }
  }

  // MARK: - last(n)

  @Test func lastNumbersFromOneForTheOldestKept() {
    let history = InputHistory(path: nil)
    for line in ["a", "b", "c", "d"] { history.add(line) }
    #expect(numbered(history, nil) == ["1 a", "2 b", "3 c", "4 d"])
    #expect(numbered(history, 2) == ["3 c", "4 d"])
    #expect(numbered(history, 1) == ["4 d"])
    #expect(numbered(history, 10) == ["1 a", "2 b", "3 c", "4 d"])
    #expect(numbered(history, 0) == [])
  }

  @Test func lastNumbersRestartAfterTheOldestAreDropped() {
    let history = InputHistory(path: nil, limit: 3)
    for line in ["a", "b", "c", "d", "e"] { history.add(line) }
    #expect(numbered(history, nil) == ["1 c", "2 d", "3 e"])
  }

  @Test func lastOfAnEmptyHistoryIsEmpty() {
    #expect(InputHistory(path: nil).last(5).isEmpty)
    #expect(InputHistory(path: nil).last(nil).isEmpty)
  }
}
