import Testing

@testable import BlueShell

/// Tab completion as a pure function: (line before the cursor, library) → what Tab does.
struct CompleterTests {
  static let titles = ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie"]

  let completer = Completer(
    registry: .standard,
    titles: { prefix, limit in
      Array(CompleterTests.titles.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.prefix(limit))
    },
    albumCount: { CompleterTests.titles.count },
    paths: { prefix in
      ["examples/", "examples/tour.bluelib", "examples/tour.out", "export.json"].filter {
        $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).dropLast().contains("/")
      }
    })

  struct Case: CustomTestStringConvertible, Sendable {
    var line: String
    var replacing: Int
    var insertion: String
    var candidates: [String] = []
    var testDescription: String { line.debugDescription }
  }

  @Test(arguments: [
    Case(line: "scr", replacing: 3, insertion: "scroll "),
    Case(line: "scroll l", replacing: 1, insertion: "left "),
    Case(line: "scroll r", replacing: 1, insertion: "right "),
    Case(line: "tap Am", replacing: 2, insertion: "\"American Pie\" "),
    Case(line: "tap \"Am", replacing: 3, insertion: "\"American Pie\" "),
    Case(line: "tap am", replacing: 2, insertion: "\"American Pie\" "),
    Case(line: "edit 2 ye", replacing: 2, insertion: "year="),
    Case(line: "edit ye", replacing: 2, insertion: "year="),
    Case(line: "add \"Blue Train\" gen", replacing: 3, insertion: "genre="),
    Case(line: "help hist", replacing: 4, insertion: "history "),
    Case(line: "scroll to Best", replacing: 4, insertion: "\"Best of Bowie\" "),
    Case(line: "import exa", replacing: 3, insertion: "examples/"),
    Case(line: "export exp", replacing: 3, insertion: "export.json "),
    Case(line: "help; tap It", replacing: 2, insertion: "\"It's My Life\" "),
    Case(line: "  LI", replacing: 2, insertion: "list "),
    Case(line: "download al", replacing: 2, insertion: "all "),
    Case(line: "download Am", replacing: 2, insertion: "\"American Pie\" "),
    Case(line: "ra", replacing: 2, insertion: "rate "),
    Case(line: "rate Am", replacing: 2, insertion: "\"American Pie\" "),
    Case(line: "fa", replacing: 2, insertion: "fav "),
    Case(line: "unf", replacing: 3, insertion: "unfav "),
    Case(line: "find rat", replacing: 3, insertion: "rating:"),
    Case(line: "list fa", replacing: 2, insertion: "fav:"),
    Case(line: "unedit 1 rat", replacing: 3, insertion: "rating "),
    Case(line: "edit 6 tr", replacing: 2, insertion: "track "),
    Case(line: "edit 6 track 3 nu", replacing: 2, insertion: "number="),
    Case(line: "edit track 3 ti", replacing: 2, insertion: "title="),
    Case(line: "edit 6 track 1-10 al", replacing: 2, insertion: "albumartist="),
    Case(line: "edit 6 track a", replacing: 1, insertion: "all "),
    Case(line: "queue cl", replacing: 2, insertion: "clear "),
    Case(line: "queue shu", replacing: 3, insertion: "shuffle "),
    Case(line: "queue move 3 t", replacing: 1, insertion: "to "),
  ])
  func oneCandidateCompletesTheWord(_ test: Case) throws {
    let completion = try #require(completer.complete(test.line))
    #expect(completion.replacing == test.replacing)
    #expect(completion.insertion == test.insertion)
    #expect(completion.candidates.isEmpty)
  }

  @Test(arguments: [
    Case(line: "s", replacing: 1, insertion: "s", candidates: ["scroll", "seek", "show", "stats", "stop"]),
    Case(line: "re", replacing: 2, insertion: "re", candidates: ["redo", "repeat", "replaygain", "reset"]),
    // No common prefix: nothing is inserted (no lone quote), the candidates are listed.
    Case(line: "tap ", replacing: 0, insertion: "", candidates: titles),
    Case(line: "show ", replacing: 0, insertion: "", candidates: titles),
    Case(line: "delete ", replacing: 0, insertion: "", candidates: titles),
    Case(line: "cover ", replacing: 0, insertion: "", candidates: titles),
    Case(
      line: "edit ", replacing: 0, insertion: "",
      candidates: ["all", "track"] + titles + ["title=", "artist=", "genre=", "year=", "cover="]),
    Case(line: "download a", replacing: 1, insertion: "a", candidates: ["all", "American Pie"]),
    Case(line: "download ", replacing: 0, insertion: "", candidates: ["all"] + titles),
    // The common prefix of titles with spaces opens a quote only when it has a space itself.
    Case(line: "tap \"", replacing: 1, insertion: "\"", candidates: titles),
    Case(
      line: "import examples/t", replacing: 10, insertion: "examples/tour.", candidates: ["tour.bluelib", "tour.out"]),
    // More albums, a track, or the changes.
    Case(
      line: "edit 2 ", replacing: 0, insertion: "",
      candidates: ["track"] + titles + ["title=", "artist=", "genre=", "year=", "cover="]),
    Case(
      line: "edit 2 track 3 ", replacing: 0, insertion: "",
      candidates: ["title=", "artist=", "number=", "albumartist="]),
    Case(
      line: "edit 2 year=1 ", replacing: 0, insertion: "",
      candidates: ["title=", "artist=", "genre=", "year=", "cover="]),
  ])
  func severalCandidatesInsertTheCommonPrefixAndListThem(_ test: Case) throws {
    let completion = try #require(completer.complete(test.line))
    #expect(completion.replacing == test.replacing)
    #expect(completion.insertion == test.insertion)
    #expect(completion.candidates == test.candidates)
  }

  @Test func indicesCompleteWhereAnAlbumIsExpected() throws {
    let completion = try #require(completer.complete("show 3"))
    #expect(completion.insertion == "3 ")
  }

  @Test(arguments: ["frobnicate x", "scroll left ", "tap Zz", "list ", "quit "])
  func nothingToOfferIsNil(line: String) {
    #expect(completer.complete(line) == nil)
  }

  @Test func quotingEscapesQuotesAndBackslashes() {
    #expect(Completer.quoted("say \"hi\"", force: false) == "\"say \\\"hi\\\"\"")
    #expect(Completer.quoted("plain", force: false) == "plain")
    #expect(Completer.quoted("plain", force: true, close: false) == "\"plain")
  }

  @Test func commonPrefixIsByCharacter() {
    #expect(Completer.commonPrefix(["Staring", "Stardust"]) == "Star")
    #expect(Completer.commonPrefix(["é1", "é2"]) == "é")
    #expect(Completer.commonPrefix([]) == "")
  }

  @Test func columnsFillDownThenAcross() {
    let text = EditLineReader.columnize(["a", "bb", "c", "d", "e"], width: 8)
    // Cell width 4 ("bb" + 2): two per row, three rows, filled down first.
    #expect(text == "a   d\nbb  e\nc\n")
  }
}
