import Testing

@testable import BlueShell

/// The texts of every word of every command on `line`.
private func texts(_ line: String) throws -> [[String]] {
  try Tokenizer.commands(in: line).map { $0.map(\.text) }
}

/// The words of a line that holds exactly one command.
private func onlyCommand(_ line: String) throws -> [Word] {
  let commands = try Tokenizer.commands(in: line)
  try #require(
    commands.count == 1, "expected one command in \(line.debugDescription), got \(commands)")
  return commands[0]
}

/// The message of the error `line` raises, or nil when it tokenizes.
private func errorMessage(_ line: String) -> String? {
  do {
    _ = try Tokenizer.commands(in: line)
    return nil
  } catch {
    return error.description
  }
}

@Suite("Tokenizer")
struct TokenizerTests {
  // MARK: - Words

  @Test(arguments: [
    ("help", [["help"]]),
    ("tap 2", [["tap", "2"]]),
    ("  tap    2   ", [["tap", "2"]]),
    ("tap\t2", [["tap", "2"]]),
    (" \t tap \t\t 2 \t", [["tap", "2"]]),
    ("tap 2\r", [["tap", "2"]]),
    ("", []),
    ("    ", []),
    ("\t", []),
  ])
  func whitespaceSeparatesWords(line: String, expected: [[String]]) throws {
    #expect(try texts(line) == expected)
  }

  @Test(arguments: [
    ("tap 'American Pie'", ["tap", "American Pie"]),
    (#"say 'C:\dir\'"#, ["say", #"C:\dir\"#]),
    (#"say 'a\nb'"#, ["say", #"a\nb"#]),
    (#"say 'he said "hi"'"#, ["say", #"he said "hi""#]),
    ("say '  two  spaces  '", ["say", "  two  spaces  "]),
    ("say 'a;b # c'", ["say", "a;b # c"]),
  ])
  func singleQuotesAreLiteral(line: String, expected: [String]) throws {
    #expect(try onlyCommand(line).map(\.text) == expected)
  }

  @Test(arguments: [
    (#"tap "American Pie""#, ["tap", "American Pie"]),
    (#"say "she said \"hi\"""#, ["say", #"she said "hi""#]),
    (#"say "back\\slash""#, ["say", #"back\slash"#]),
    (#"say "keeps \n and \t""#, ["say", #"keeps \n and \t"#]),
    (#"say "it's""#, ["say", "it's"]),
    (#"say "a;b # c""#, ["say", "a;b # c"]),
  ])
  func doubleQuotesHonourOnlyQuoteAndBackslashEscapes(line: String, expected: [String]) throws {
    #expect(try onlyCommand(line).map(\.text) == expected)
  }

  @Test(arguments: [
    (#"tap American\ Pie"#, ["tap", "American Pie"]),
    (#"say \'"#, ["say", "'"]),
    (#"say \""#, ["say", "\""]),
    (#"say \\"#, ["say", #"\"#]),
    (#"say a\;b"#, ["say", "a;b"]),
    (##"say \#x"##, ["say", "#x"]),
    (#"say \n"#, ["say", "n"]),
  ])
  func backslashOutsideQuotesEscapesTheNextCharacter(line: String, expected: [String]) throws {
    #expect(try onlyCommand(line).map(\.text) == expected)
  }

  @Test(arguments: [
    (#"ab"c d"e"#, "abc de"),
    (#"'a'"b"c"#, "abc"),
    (#"x'y z'\ w"#, "xy z w"),
  ])
  func adjacentQuotedPartsJoinIntoOneWord(line: String, expected: String) throws {
    #expect(try onlyCommand(line).map(\.text) == [expected])
  }

  @Test(arguments: [#"tap """#, "tap ''"])
  func emptyQuotedStringIsAWord(line: String) throws {
    let words = try onlyCommand(line)
    #expect(words.map(\.text) == ["tap", ""])
    #expect(words[1].isQuoted)
    #expect(words[1].column == 5)
  }

  // MARK: - The quoted flag

  @Test(arguments: [
    ("tap 3", false),
    (#"tap "3""#, true),
    ("tap '3'", true),
    (#"tap \3"#, true),
    (#"tap 3"""#, true),
    ("tap American", false),
  ])
  func quotedFlagSaysWhetherAnyPartWasQuoted(line: String, isQuoted: Bool) throws {
    let words = try onlyCommand(line)
    #expect(words[0].isQuoted == false)
    #expect(words[1].isQuoted == isQuoted)
  }

  // MARK: - Columns

  @Test(arguments: [
    (#"tap  "American Pie"  3"#, [1, 6, 22]),
    ("  help", [3]),
    ("\thelp quit", [2, 7]),
    (#"say a\ b c"#, [1, 5, 10]),
  ])
  func columnsAreOneBasedStartsOfWords(line: String, columns: [Int]) throws {
    #expect(try onlyCommand(line).map(\.column) == columns)
  }

  @Test func columnsCountFromTheStartOfTheLineAcrossSemicolons() throws {
    let commands = try Tokenizer.commands(in: "help; tap 2")
    #expect(commands.map { $0.map(\.column) } == [[1], [7, 11]])
  }

  @Test(arguments: [
    ("tap é x", [1, 5, 7]),
    ("tap 🎸 x", [1, 5, 7]),
    ("tap 東京 x", [1, 5, 8]),
    ("'Café' \"Björk\" 3", [1, 8, 16]),
    ("🎸🎸 東京 x", [1, 4, 7]),
  ])
  func unicodeColumnsCountOnePerCharacter(line: String, columns: [Int]) throws {
    #expect(try onlyCommand(line).map(\.column) == columns)
  }

  @Test func unicodeTextSurvivesQuotingUnchanged() throws {
    #expect(try onlyCommand(#"tap "東京 🎸" é"#).map(\.text) == ["tap", "東京 🎸", "é"])
  }

  // MARK: - Semicolons

  @Test(arguments: [
    ("a; b", [["a"], ["b"]]),
    ("a;b", [["a"], ["b"]]),
    ("tap 2; show; list pop", [["tap", "2"], ["show"], ["list", "pop"]]),
    ("a;;b", [["a"], ["b"]]),
    ("a ; ; b", [["a"], ["b"]]),
    ("a;", [["a"]]),
    ("a; ", [["a"]]),
    (";", []),
    ("; ;a; ;", [["a"]]),
  ])
  func semicolonsSplitCommandsAndEmptyCommandsAreDropped(line: String, expected: [[String]]) throws {
    #expect(try texts(line) == expected)
  }

  @Test(arguments: [
    ("a ';' b", [["a", ";", "b"]]),
    (#"a ";" b"#, [["a", ";", "b"]]),
    (#"tap "Me; Myself""#, [["tap", "Me; Myself"]]),
  ])
  func semicolonInsideQuotesDoesNotSplit(line: String, expected: [[String]]) throws {
    #expect(try texts(line) == expected)
  }

  // MARK: - Comments

  @Test(arguments: [
    ("help # shows help", [["help"]]),
    ("# all comment", []),
    ("   #indented comment", []),
    ("help; # the rest; quit", [["help"]]),
    ("help ;#x", [["help"]]),
    (#"help # "unterminated"#, [["help"]]),
  ])
  func hashAtTheStartOfAWordStartsAComment(line: String, expected: [[String]]) throws {
    #expect(try texts(line) == expected)
  }

  @Test(arguments: [
    ("a#b", [["a#b"]]),
    ("tap C#", [["tap", "C#"]]),
    (##"say "#" x"##, [["say", "#", "x"]]),
    ("say '# not a comment'", [["say", "# not a comment"]]),
    (##"say \#1"##, [["say", "#1"]]),
  ])
  func hashInsideAWordOrQuotesIsLiteral(line: String, expected: [[String]]) throws {
    #expect(try texts(line) == expected)
  }

  // MARK: - Errors

  @Test(arguments: [
    (#"tap "Am"#, "unterminated quote starting at column 5"),
    (#"help "quit"#, "unterminated quote starting at column 6"),
    ("tap 'Am", "unterminated quote starting at column 5"),
    (#"a; b "c"#, "unterminated quote starting at column 6"),
    (#""abc\""#, "unterminated quote starting at column 1"),
    (#"tap "a" 'b"#, "unterminated quote starting at column 9"),
    (#"é ""#, "unterminated quote starting at column 3"),
    ("🎸🎸 '", "unterminated quote starting at column 4"),
    (#"tap Am\"#, "backslash at the end of the line (column 7) escapes nothing"),
    (#"\"#, "backslash at the end of the line (column 1) escapes nothing"),
    (#"help; tap \"#, "backslash at the end of the line (column 11) escapes nothing"),
  ])
  func malformedQuotingNamesItsColumn(line: String, message: String) {
    #expect(errorMessage(line) == message)
  }

  @Test func unterminatedQuoteRaisesItsCase() {
    #expect(throws: TokenizerError.unterminatedQuote(column: 5)) {
      try Tokenizer.commands(in: #"tap "Am"#)
    }
  }

  @Test func errorAfterASemicolonRejectsTheWholeLine() {
    // Running `push a` and then failing would leave a half-run line behind.
    #expect(throws: TokenizerError.trailingBackslash(column: 9)) {
      try Tokenizer.commands(in: #"push a; \"#)
    }
  }

  @Test(arguments: [
    #"say 'C:\'"#,
    #"say "\\""#,
    #"say \\"#,
  ])
  func backslashThatIsEscapedOrQuotedIsNoError(line: String) {
    #expect(errorMessage(line) == nil)
  }

  // MARK: - Partial lines, for completion

  @Test(
    arguments: [
      (#"tap "Am"#, ["tap", "Am"], Character?("\""), false),
      ("tap 'Am", ["tap", "Am"], Character?("'"), false),
      (#"tap "Am""#, ["tap", "Am"], nil, false),
      ("scroll ", ["scroll"], nil, true),
      ("scroll l", ["scroll", "l"], nil, false),
      ("scroll\t", ["scroll"], nil, true),
      ("help; sc", ["sc"], nil, false),
      ("help;", [], nil, true),
      ("help; ", [], nil, true),
      ("help ;tap 1 ", ["tap", "1"], nil, true),
      ("", [], nil, true),
      (#"tap American\ "#, ["tap", "American "], nil, false),
      (#"tap a\"#, ["tap", "a"], nil, false),
    ] as [(String, [String], Character?, Bool)])
  func partialDescribesTheCommandBeingTyped(
    line: String, words: [String], openQuote: Character?, endsInSeparator: Bool
  ) {
    let partial = Tokenizer.partial(line)
    #expect(partial.words.map(\.text) == words)
    #expect(partial.openQuote == openQuote)
    #expect(partial.endsInSeparator == endsInSeparator)
  }

  @Test func partialOpenQuoteWordKeepsItsColumnAndQuotedFlag() {
    let partial = Tokenizer.partial(#"help; tap "Am"#)
    #expect(partial.words.map(\.column) == [7, 11])
    #expect(partial.words.last?.isQuoted == true)
  }
}

/// The fast path for plain lines must split exactly as the scanner does.
@Suite struct PlainLineTokenizerTests {
  @Test func plainLinesSplitAsTheScannerSplitsThem() throws {
    var generator = SeededGenerator(seed: 0x5C_0011)
    let alphabet = Array(" \t\r\nab1-=.:/?!@$%&*()[]{}<>|~^`'\";#\\é")
    var plain = 0
    for _ in 0..<5000 {
      let length = Int.random(in: 0...24, using: &generator)
      let line = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
      let scanned = try? Tokenizer.scannedCommands(in: line)
      if let words = Tokenizer.plainWords(line) {
        plain += 1
        #expect((words.isEmpty ? [] : [words]) == scanned, "\(line.debugDescription)")
      }
      #expect((try? Tokenizer.commands(in: line)) == scanned, "\(line.debugDescription)")
    }
    #expect(plain > 500, "the generator should make plenty of plain lines")
  }

  @Test func linesWithQuotesSeparatorsOrNonASCIIGoToTheScanner() {
    for line in ["add 'x'", "a; b", "tap 1 # c", "edit title=\\x", "add \"y\"", "add Café"] {
      #expect(Tokenizer.plainWords(line) == nil, "\(line)")
    }
    #expect(Tokenizer.plainWords("  scroll   right ")?.map(\.column) == [3, 12])
  }
}
