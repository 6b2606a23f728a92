import Testing

@testable import BlueShell

/// The meta verbs only, so suggestions do not shift as other verbs are registered.
private var metaVerbs: CommandRegistry {
  CommandRegistry([
    UndoCommand.self, RedoCommand.self, HelpCommand.self, HistoryCommand.self, QuitCommand.self,
  ])
}

@Suite("CommandRegistry")
struct CommandRegistryTests {
  // MARK: - Lookup

  @Test(arguments: [
    ("help", "help"), ("?", "help"), ("exit", "quit"), ("quit", "quit"),
    ("undo", "undo"), ("redo", "redo"), ("history", "history"),
  ])
  func verbsAndAliasesResolveToTheirCommand(name: String, verb: String) {
    #expect(CommandRegistry.standard.command(named: name)?.configuration.verb == verb)
  }

  @Test(arguments: [
    ("HELP", "help"), ("Help", "help"), ("EXIT", "quit"), ("Quit", "quit"), ("hIsToRy", "history"),
  ])
  func lookupIgnoresCase(name: String, verb: String) {
    #expect(metaVerbs.command(named: name)?.configuration.verb == verb)
  }

  @Test(arguments: ["", "hel", "helpp", "e xit", "quit ", "scroll"])
  func unknownNamesResolveToNothing(name: String) {
    #expect(metaVerbs.command(named: name) == nil)
  }

  @Test func namesListEveryVerbAndAliasSorted() {
    #expect(metaVerbs.names == ["?", "exit", "help", "history", "quit", "redo", "undo"])
  }

  @Test func standardRegistryKeepsTheMetaVerbs() {
    let names = Set(CommandRegistry.standard.names)
    #expect(names.isSuperset(of: metaVerbs.names))
  }

  // MARK: - Edit distance

  @Test(arguments: [
    ("", "", 0),
    ("", "abc", 3),
    ("abc", "", 3),
    ("help", "help", 0),
    ("help", "hel", 1),
    ("help", "helps", 1),
    ("help", "kelp", 1),
    ("hepl", "help", 1),
    ("ab", "ba", 1),
    ("quti", "quit", 1),
    ("histroy", "history", 1),
    ("abcd", "badc", 2),
    ("ca", "abc", 3),
    ("kitten", "sitting", 3),
    ("flaw", "lawn", 2),
    ("scrol", "scroll", 1),
    ("café", "cafe", 1),
    ("🎸x", "x🎸", 1),
    ("東京", "京東", 1),
  ])
  func editDistanceCountsEditsAndAdjacentTranspositions(a: String, b: String, distance: Int) {
    #expect(CommandRegistry.editDistance(a, b) == distance)
    #expect(CommandRegistry.editDistance(b, a) == distance)
  }

  // MARK: - Suggestions

  @Test(arguments: [
    ("hepl", "help"),
    ("HEPL", "help"),
    ("hlep", "help"),
    ("histroy", "history"),
    ("hsitory", "history"),
    ("quti", "quit"),
    ("qiut", "quit"),
    ("undp", "undo"),
    ("rdeo", "redo"),
    ("hist", "history"),
    ("his", "history"),
    ("qu", "quit"),
  ])
  func closeTyposAndUniquePrefixesGetASuggestion(typed: String, suggestion: String) {
    #expect(metaVerbs.suggestion(for: typed) == suggestion)
  }

  @Test(arguments: ["ext", "exot", "exti", "EXIT1"])
  func typoOfAnAliasSuggestsTheMainVerb(typed: String) {
    #expect(metaVerbs.suggestion(for: typed) == "quit")
  }

  @Test(arguments: [
    "", "foo", "xyzzy", "list", "scrollbar", "undoundo", "historical-data",
    String(repeating: "a", count: 33),
    "help" + String(repeating: "x", count: 29),
    "histor" + String(repeating: "y", count: 40),
  ])
  func wildlyDifferentOrLongWordsGetNoSuggestion(typed: String) {
    #expect(metaVerbs.suggestion(for: typed) == nil)
  }

  @Test(arguments: ["x", "z", "7", "!"])
  func singleUnrelatedCharacterGetsNoSuggestion(typed: String) {
    #expect(metaVerbs.suggestion(for: typed) == nil)
  }

  @Test(arguments: ["hepl", "exti", "hlep", "qu", "rdeo", "exitt"])
  func suggestionIsAlwaysARegisteredVerbNeverAnAlias(typed: String) throws {
    let verbs = metaVerbs.commands.map { $0.configuration.verb }
    let suggestion = try #require(metaVerbs.suggestion(for: typed))
    #expect(verbs.contains(suggestion))
  }
}
