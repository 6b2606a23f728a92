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
    Case(line: "  FI", replacing: 2, insertion: "find "),
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

  /// Values (issue 50, item 7): a field's after `FIELD=`, artists and titles after a query
  /// word, a title of several words typed without quotes, `play random`.
  let valueCompleter = Completer(
    registry: .standard,
    titles: { prefix, limit in
      Array(CompleterTests.titles.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }.prefix(limit))
    },
    fieldValues: { field, prefix, _ in
      let values: [String] =
        switch field {
        case .artist: ["Esbjörn Svensson Trio", "Midnight Oil", "Sting"]
        case .genre: ["Jazz", "Jazz Fusion", "Rock"]
        case .year: ["1987", "1999"]
        default: []
        }
      return values.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
    })

  @Test(arguments: [
    Case(line: "edit artist=Mid", replacing: 10, insertion: "artist=\"Midnight Oil\" "),
    Case(line: "edit 2 artist=\"Mid", replacing: 11, insertion: "artist=\"Midnight Oil\" "),
    Case(line: "edit 2 year=19", replacing: 7, insertion: "year=19", candidates: ["1987", "1999"]),
    Case(line: "edit genre=Ja", replacing: 8, insertion: "genre=Jazz", candidates: ["Jazz", "Jazz Fusion"]),
    Case(line: "list Esb", replacing: 3, insertion: "\"Esbjörn Svensson Trio\" "),
    Case(line: "find -Mid", replacing: 4, insertion: "-\"Midnight Oil\" "),
    Case(line: "list st", replacing: 2, insertion: "st", candidates: ["Sting", "Staring at the Sun"]),
    Case(line: "tap Staring at", replacing: 10, insertion: "Staring at the Sun "),
    Case(line: "show Nothing Like", replacing: 12, insertion: "Nothing Like The Sun "),
    Case(line: "play Best", replacing: 4, insertion: "\"Best of Bowie\" "),
    Case(line: "play rand", replacing: 4, insertion: "random "),
    Case(line: "play random genre:R", replacing: 7, insertion: "genre:Rock "),
  ])
  func valuesAreCompleted(_ test: Case) throws {
    let completion = try #require(valueCompleter.complete(test.line))
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
