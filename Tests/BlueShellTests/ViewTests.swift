import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

/// `find`: a view over the default catalogue (1992, 2003, 1999, 2000, 2000), in process.
@Suite("Views")
struct ViewTests {
  /// The titles `list` prints, with their indices, and the summary line.
  func listed(_ shell: InProcessShell, _ line: String = "list") throws -> [String] {
    _ = shell.output()
    #expect(shell.run(line) == [], "\(line)")
    return shell.lines()
  }

  @Test func findShowsOnlyTheMatchesAndIndicesAreTheViews() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year:1990..1999") == [])
    #expect(shell.lines().first == "2 of 5 albums match 'year:1990..1999'")
    #expect(
      try listed(shell) == [
        "* 1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded",
        "  2. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded",
        "2 albums in the view 'year:1990..1999' (5 albums in the library; 'find' alone shows them all)",
      ])
    #expect(shell.run("tap 2") == [])
    #expect(try shell.library.selectedAlbum()?.title == "Nothing Like The Sun")
    _ = shell.output()
    #expect(shell.run("show 1") == [])
    #expect(shell.lines().contains("Album: Best of Bowie"))
    #expect(shell.run("tap 3") == ["tap: no album 3 (the view 'year:1990..1999' has 2)"])
    // `find` alone: the whole library again, the current album kept.
    #expect(shell.run("find") == [])
    #expect(shell.lines().first == "showing the whole library (5 albums)")
    #expect(shell.library.selection == 2)
  }

  /// A missing album is missing from the view, which a message names: the library is not
  /// empty, nor does it hold only the view's albums.
  @Test func errorsAboutAMissingAlbumNameTheViewNotTheLibrary() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find bowie") == [])
    #expect(shell.run("show 2") == ["show: no album 2 (the view 'bowie' has 1 album)"])
    #expect(shell.run("scroll to 9") == ["scroll: no album 9 (the view 'bowie' has 1 album)"])
    #expect(shell.run("move 1 to 3") == ["move: no position 3 (the view 'bowie' has 1 album)"])
    // A view made empty by a change (its one album deleted); `find` of nothing keeps the
    // view it had (issue 38, item 8).
    #expect(shell.run("delete 1") == [])
    #expect(
      shell.run("find zzz; delete all") == [
        "find: no album matches 'zzz'; the view stays as it was ('find' alone shows the whole library)"
      ])
    _ = shell.output()
    for (line, failure) in [
      ("show", "show: the view 'bowie' is empty"),
      ("show 1", "show: no album 1 (the view 'bowie' is empty)"),
      ("tap 1", "tap: no album 1 (the view 'bowie' is empty)"),
      ("scroll right", "scroll: the view 'bowie' is empty"),
      ("edit year=1", "edit: the view 'bowie' is empty"),
      ("delete", "delete: the view 'bowie' is empty"),
    ] {
      #expect(shell.run(line) == [failure], "\(line)")
    }
    #expect(shell.lines() == [])
    #expect(try shell.library.libraryCount() == 4)
    // Without a view the library is what is empty.
    #expect(shell.run("find") == [])
    #expect(shell.run("delete all") == [])
    #expect(shell.run("show 1") == ["show: no album 1 (the library is empty)"])
    #expect(shell.run("scroll right") == ["scroll: the library is empty"])
  }

  @Test func scrollStaysInTheViewInItsOrder() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year-") == [])
    let order = try (0..<5).map { try shell.library.album(at: $0).title }
    #expect(order == ["It's My Life", "Staring at the Sun", "American Pie", "Nothing Like The Sun", "Best of Bowie"])
    #expect(shell.run("scroll right 2") == [])
    #expect(try shell.library.selectedAlbum()?.title == "American Pie")
    #expect(shell.run("scroll end; scroll right") == [])
    #expect(try shell.library.selectedAlbum()?.title == "Best of Bowie")
    #expect(shell.run("scroll home") == [])
    #expect(try shell.library.selectedAlbum()?.title == "It's My Life")
    // `scroll to QUERY`: the first match in the view's order.
    #expect(shell.run("scroll to artist::^S") == [])
    #expect(try shell.library.selectedAlbum()?.title == "Nothing Like The Sun")
  }

  @Test func deleteInsideAViewTakesTheViewsIndexAndUndoBringsItBack() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year:2000") == [])
    #expect(shell.run("delete 2") == [])
    #expect(try shell.titles() == ["Best of Bowie", "It's My Life", "Nothing Like The Sun", "Staring at the Sun"])
    #expect(try shell.library.count() == 1)
    #expect(shell.run("undo") == [])
    #expect(try shell.library.count() == 2)
    #expect(try shell.library.selectedAlbum()?.title == "American Pie")
  }

  @Test func anAlbumEditedOutOfTheViewLeavesItAndANewMatchJoins() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find genre:pop") == [])
    #expect(shell.run("edit 1 genre=Rock") == [])
    #expect(try shell.library.count() == 4)
    _ = shell.output()
    #expect(shell.run("add \"Pop Life\" genre=Pop") == [])
    #expect(shell.lines().first == "added \"Pop Life\" as 2 (5 albums in the view)")
    #expect(try shell.library.count() == 5)
    #expect(try shell.library.selectedAlbum()?.title == "Pop Life")
    #expect(shell.run("add \"Kind of Blue\" genre=Jazz") == [])
    #expect(
      shell.lines()
        == [
          "added \"Kind of Blue\" (7 albums in the library; it is not in the view 'genre:pop': 'find' alone shows it)"
        ])
    #expect(try shell.library.count() == 5)
    #expect(try shell.library.libraryCount() == 7)
  }

  @Test func moveInASortedViewIsRefusedAndInAFilteredOneKeepsLibraryOrder() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year-") == [])
    #expect(
      shell.run("move 2 to 1") == [
        "move: this view is sorted ('year-'), so there is no place to move to; 'find' alone shows the library order"
      ])
    #expect(shell.run("find sun, pie") == [])
    // The view is Nothing Like The Sun (3), Staring at the Sun (4), American Pie (5).
    #expect(shell.run("move 3 to 1") == [])
    #expect(
      try shell.titles() == [
        "Best of Bowie", "It's My Life", "American Pie", "Nothing Like The Sun", "Staring at the Sun",
      ])
    #expect(
      try (0..<3).map { try shell.library.album(at: $0).title } == [
        "American Pie", "Nothing Like The Sun", "Staring at the Sun",
      ])
  }

  @Test func deleteAllDeletesTheViewInOneStep() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year:2000") == [])
    _ = shell.output()
    #expect(shell.run("delete all") == [])
    #expect(shell.lines().first == "deleted 2 albums (3 albums left in the library; 'undo' brings them back)")
    #expect(try shell.titles() == ["Best of Bowie", "It's My Life", "Nothing Like The Sun"])
    #expect(shell.run("undo") == [])
    #expect(try shell.titles().count == 5)
    #expect(try shell.library.count() == 2)
  }

  /// A `find` that fails ends its line: `delete all` after it would act on the view (or the
  /// whole library) shown before (review).
  @Test func aFailedFindEndsItsLineSoDeleteAllDoesNotRun() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find gnre:xmas; delete all").count == 1)
    #expect(try shell.titles().count == 5)
    #expect(shell.run("find year:2000; find year:abc; delete all").count == 1)
    #expect(try shell.titles().count == 5)
  }

  /// A block moved forward in a filtered view lands where asked (review: it stayed put).
  @Test func aBlockMovedForwardInAFilteredViewLandsAtItsIndex() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find ^artist:Sting") == [])
    #expect(shell.run("move 1-2 to 2") == [])
    #expect(
      try shell.titles() == [
        "Nothing Like The Sun", "Staring at the Sun", "Best of Bowie", "It's My Life", "American Pie",
      ])
    #expect(
      try (0..<4).map { try shell.library.album(at: $0).title } == [
        "Staring at the Sun", "Best of Bowie", "It's My Life", "American Pie",
      ])
    #expect(shell.run("move 4 to 1") == [])
    #expect(try shell.library.album(at: 0).title == "American Pie")
  }

  /// Deleting the current album of a sorted view selects the card that slides into its
  /// place, so a second `delete` takes the album the person sees (review).
  @Test func deletingInASortedViewSelectsTheNextCardOfTheView() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year-") == [])
    #expect(shell.run("delete") == [])
    #expect(try shell.library.selectedAlbum()?.title == "Staring at the Sun")
    #expect(shell.run("delete") == [])
    #expect(try shell.titles() == ["Best of Bowie", "Nothing Like The Sun", "American Pie"])
  }

  /// A saved view with OR groups is ANDed with the rest as a whole (review: its words were
  /// spliced in, so the last group took the rest), and the view keeps `@NAME` for the next start.
  @Test func aSavedViewKeepsItsOrGroupsWhenNarrowed() throws {
    let shell = try InProcessShell()
    #expect(shell.run("view save either artist:sting, artist:bowie") == [])
    #expect(shell.run("find @either year:1995..") == [])
    #expect(try shell.library.count() == 1)
    #expect(try shell.library.album(at: 0).title == "Nothing Like The Sun")
    #expect(shell.library.view?.query.text == "@either year:1995..")
  }

  @Test func scrollToATitleWithAColonFindsTheTitle() throws {
    let shell = try InProcessShell(albums: DefaultCatalogue.albums + [Album(title: "Mission: Impossible")])
    #expect(shell.run("scroll to Mission: Impossible") == [])
    #expect(try shell.library.selectedAlbum()?.title == "Mission: Impossible")
  }

  @Test func aBadQueryChangesNothing() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find year:2000") == [])
    #expect(
      shell.run("find added:2026-13")
        == ["find: bad query word 'added:2026-13': there is no month 13 in '2026-13'"])
    #expect(shell.library.view?.query.text == "year:2000")
    #expect(try shell.library.count() == 2)
  }

  @Test func namedViewsAreSavedFoundListedAndDeleted() throws {
    let shell = try InProcessShell()
    #expect(shell.run("view list") == [])
    #expect(shell.lines() == ["no views saved ('view save NAME QUERY' saves one)"])
    #expect(shell.run("find year:2000") == [])
    #expect(shell.run("view save twok") == [])
    #expect(shell.run("view save nineties 'year:1990..1999' year-") == [])
    _ = shell.output()
    #expect(shell.run("view list") == [])
    #expect(shell.lines() == ["@nineties  year:1990..1999 year-", "@twok      year:2000"])
    #expect(shell.run("find @nineties") == [])
    #expect(try (0..<2).map { try shell.library.album(at: $0).title } == ["Nothing Like The Sun", "Best of Bowie"])
    #expect(shell.run("find @nineties title:sun") == [])
    #expect(try shell.library.count() == 1)
    #expect(shell.run("view delete twok") == [])
    #expect(shell.run("find @twok") == ["find: no view named 'twok' (views: nineties)"])
    #expect(
      shell.run("view save bad/name x") == [
        "view: a view's name is letters, digits, '-', '_' and '.' (at most 64 bytes), not 'bad/name'"
      ])
  }

  @Test func listFormatPrintsFieldsAndNoSummary() throws {
    let shell = try InProcessShell()
    #expect(
      try listed(shell, "list -f '$year  $artist — $title' year- title+") == [
        "2003  No Doubt — It's My Life",
        "2000  Madonna — American Pie",
        "2000  U2 — Staring at the Sun",
        "1999  Sting — Nothing Like The Sun",
        "1992  David Bowie — Best of Bowie",
      ])
    #expect(try listed(shell, "list -f '${index}:$title' sun") == ["3:Nothing Like The Sun", "4:Staring at the Sun"])
    #expect(
      shell.run("list -f '$yaer'")
        == [
          "list: unknown field '$yaer' in the format (fields: index, title, artist, albumartist, genre, year, tracks, length, folder, cover, added, discs, mb_albumid, mb_releasegroupid, format, missing, played, last_played, art, rating, fav, lookup, composer, samplerate, bitrate, duplicate)"
        ])
  }

  @Test func statsCountsAndDrawsBars() throws {
    let shell = try InProcessShell()
    #expect(shell.run("stats year:1999..") == [])
    let lines = shell.lines()
    #expect(Array(lines.prefix(4)) == ["Albums:  4", "Tracks:  unknown", "Length:  unknown", "Artists: 4"])
    #expect(lines.contains { $0.hasPrefix("  Pop ") && $0.hasSuffix(" 4") })
    let decades = lines.drop { $0 != "Decades" }.dropFirst()
    #expect(decades.count == 2)
    #expect(decades.first?.hasPrefix("  1990s █") == true && decades.first?.hasSuffix(" 1") == true)
    #expect(decades.last?.hasPrefix("  2000s █") == true && decades.last?.hasSuffix(" 3") == true)
    // The bars fit the window.
    #expect(lines.allSatisfy { $0.count <= 80 })
  }

  /// Inside a view, verbs act on the view (issue 38, item 7): `export FILE` writes the view
  /// and says so, `export FILE all` the whole library, `export FILE QUERY` the view's matches.
  @Test func exportInAViewWritesTheViewAndAllTheLibrary() throws {
    try withTemporaryDirectory { directory in
      let shell = try InProcessShell()
      #expect(shell.run("find year:2000") == [])
      _ = shell.output()
      #expect(shell.run("export \(directory)/view.json") == [])
      #expect(
        shell.lines() == [
          "exported 2 albums of the view 'year:2000' to \(directory)/view.json ('export FILE all' writes the whole library)"
        ])
      #expect(shell.run("export \(directory)/all.json all") == [])
      #expect(shell.lines() == ["exported 5 albums to \(directory)/all.json"])
      #expect(shell.run("export \(directory)/sun.json sun") == [])
      func titles(_ name: String) throws -> [String?]? {
        let json = try JSONSerialization.jsonObject(
          with: Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)")))
        return (json as? [[String: Any]])?.map { $0["title"] as? String }
      }
      #expect(try titles("view.json") == ["Staring at the Sun", "American Pie"])
      #expect(try titles("all.json")?.count == 5)
      #expect(try titles("sun.json") == ["Staring at the Sun"])
    }
  }

  /// A query that matches nothing says what might, keeping the view (issue 38, item 8).
  @Test(arguments: [
    (
      "find jazz 1990s",
      "find: no album matches 'jazz 1990s'; the view stays as it was (did you mean 'jazz year:1990..1999'?)"
    ),
    ("find cover:none", "find: no album matches 'cover:none'; the view stays as it was (did you mean 'art:none'?)"),
    ("find 80s", "find: no album matches '80s'; the view stays as it was (did you mean 'year:1980..1989'?)"),
  ])
  func aQueryWithNoMatchHintsAtTheNearestSyntax(line: String, failure: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run("find pop") == [])
    #expect(shell.run(line + "; delete all") == [failure])
    #expect(shell.library.view?.query.text == "pop")
    #expect(try shell.library.libraryCount() == 5)
    _ = shell.output()
    #expect(shell.run("list cover:none") == [])
    #expect(shell.lines().last == "0 of the view's 5 albums ('pop') match 'cover:none' (did you mean 'art:none'?)")
  }

  /// In a view sorted by a field, `scroll to X` goes to the first album whose field starts
  /// with X (issue 38, item 8: it landed silently on album 1).
  @Test func scrollToInASortedViewJumpsByTheSortField() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find artist+") == [])
    // David Bowie, Madonna, No Doubt, Sting, U2.
    #expect(shell.run("scroll to s") == [])
    #expect(try shell.library.selectedAlbum()?.artist == "Sting")
    #expect(shell.run("scroll to no") == [])
    #expect(try shell.library.selectedAlbum()?.artist == "No Doubt")
    // A number is still an index; a title still the album of that title.
    #expect(shell.run("scroll to 2") == [])
    #expect(try shell.library.selectedAlbum()?.artist == "Madonna")
    #expect(shell.run("find title-") == [])
    #expect(shell.run("scroll to it") == [])
    #expect(try shell.library.selectedAlbum()?.title == "It's My Life")
  }

  /// The first words of other programs point to the command that does it.
  @Test(arguments: [
    ("sort year", "unknown command 'sort' (did you mean 'find year+'?)"),
    ("sort year desc", "unknown command 'sort' (did you mean 'find year-'?)"),
    ("search bowie", "unknown command 'search' (did you mean 'find bowie'?)"),
    ("filter genre:pop", "unknown command 'filter' (did you mean 'find genre:pop'?)"),
    ("genres", "unknown command 'genres' (did you mean 'stats'?)"),
    ("artists", "unknown command 'artists' (did you mean 'find artist+'?)"),
    ("shuffle", "unknown command 'shuffle' (did you mean 'queue shuffle'?)"),
    ("shuffle on", "unknown command 'shuffle' (did you mean 'queue shuffle'?)"),
    ("random", "unknown command 'random' (did you mean 'play random'?)"),
    ("shuffle genre:jazz", "unknown command 'shuffle' (did you mean 'play random genre:jazz'?)"),
    ("clear", "unknown command 'clear' (did you mean 'queue clear'?)"),
    ("loop", "unknown command 'loop' (did you mean 'repeat on'?)"),
  ])
  func firstWordsLeadSomewhere(line: String, failure: String) throws {
    let shell = try InProcessShell()
    #expect(shell.run(line) == [failure])
  }

  /// Every example `help` gives is commands of the table, with words they take.
  @Test func everyExampleOfHelpIsACommandOfTheTable() throws {
    let registry = CommandRegistry.standard
    for type in registry.commands {
      for example in type.configuration.examples {
        for words in try Tokenizer.commands(in: example) {
          let command = try #require(registry.command(named: words[0].text), "'\(example)'")
          #expect(throws: Never.self, "'\(example)'") { _ = try command.init(arguments: Array(words.dropFirst())) }
        }
      }
    }
  }

  /// Every hint names a command of the command table, with words it takes (issue 50, item
  /// 6: `shuffle on` pointed to `play random on`, a query for "on").
  @Test func everyHintIsACommandOfTheTable() throws {
    let registry = CommandRegistry.standard
    for verb in CommandRegistry.pointedVerbs {
      #expect(registry.command(named: verb) == nil, "\(verb) is a verb of its own")
      for arguments in [[], ["on"], ["off"], ["genre:jazz"], ["year", "desc"], ["2"]] {
        let hint = try #require(CommandRegistry.pointer(for: verb, arguments: arguments), "\(verb)")
        let words = try #require(try Tokenizer.commands(in: hint).first)
        let command = try #require(registry.command(named: words[0].text), "\(verb) \(arguments): '\(hint)'")
        #expect(throws: Never.self, "\(verb) \(arguments): '\(hint)'") {
          _ = try command.init(arguments: Array(words.dropFirst()))
        }
        // A mode word is no query: `shuffle on` is not `play random on`.
        if ["shuffle", "random"].contains(verb), arguments == ["on"] || arguments == ["off"] {
          #expect(!hint.hasSuffix(arguments[0]), "\(verb): '\(hint)'")
        }
      }
    }
  }

  @Test func theViewIsRestoredAtTheNextStartAndFollowsAnotherShell() throws {
    try withTemporaryDirectory { directory in
      let path = "\(directory)/library.sqlite"
      let first = try Library.open(path: path)
      try first.show(try AlbumQuery(words: ["year:2000"]))
      first.select(1)
      try first.saveSelection()
      let other = try Library.open(path: path)
      #expect(other.view?.query.text == "year:2000")
      #expect(try other.selectedAlbum()?.title == "American Pie")
      // Another shell adds a matching album: this one's view takes it in.
      try other.show(nil)
      try other.add(Album(title: "Music", artist: "Madonna", genre: "Pop", year: 2000))
      try first.noticeChangesElsewhere()
      #expect(try first.count() == 3)
      #expect(try first.selectedAlbum()?.title == "American Pie")
    }
  }
}

/// Completing queries from a real library: field names, a field's values, view names.
@Suite("Query completion")
struct QueryCompletionTests {
  let library = Library.inMemory()

  var completer: Completer {
    let library = library
    return Completer(
      registry: .standard,
      fieldValues: { field, prefix, limit in (try? library.values(of: field, withPrefix: prefix, limit: limit)) ?? [] },
      viewNames: { (try? library.savedViews().map(\.name)) ?? [] })
  }

  @Test func fieldNamesCompleteWithTheirColon() throws {
    let completion = try #require(completer.complete("find ye"))
    #expect(completion.insertion == "year:")
    #expect(try #require(completer.complete("list ^gen")).insertion == "^genre:")
    #expect(try #require(completer.complete("stats a")).candidates == ["artist:", "albumartist:", "added:", "art:"])
  }

  @Test func valuesComeFromTheLibraryQuotedWhenNeeded() throws {
    let completion = try #require(completer.complete("find artist:no"))
    #expect(completion.insertion == "\"artist:No Doubt\" ")
    #expect(try #require(completer.complete("find artist:=St")).insertion == "artist:=Sting ")
    #expect(try #require(completer.complete("find year:19")).candidates == ["1992", "1999"])
    #expect(
      try #require(completer.complete("find artist:")).candidates == [
        "David Bowie", "Madonna", "No Doubt", "Sting", "U2",
      ])
  }

  @Test func viewNamesCompleteAfterTheAt() throws {
    try library.saveView("nineties", query: try AlbumQuery(words: ["year:1990..1999"]))
    try library.saveView("noughties", query: try AlbumQuery(words: ["year:2000..2009"]))
    #expect(try #require(completer.complete("find @ni")).insertion == "@nineties ")
    #expect(try #require(completer.complete("find @n")).candidates == ["nineties", "noughties"])
    #expect(try #require(completer.complete("view delete nou")).insertion == "noughties ")
  }
}

@Suite("Query help")
struct QueryHelpTests {
  /// `help find` and `help list` keep the syntax table as a table, within 80 columns.
  @Test(arguments: ["find", "list"])
  func helpShowsTheSyntaxTable(verb: String) throws {
    let lines = try HelpCommand.lines(for: Word(verb), in: .standard, style: .plain)
    #expect(lines.contains("    year:1990..1999      ranges: year:..1979 tracks:10.. length:..40:00"))
    #expect(lines.contains("    ^genre:pop -pop      ^ or - before a term negates it"))
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
  }
}

/// `show` takes several albums, as `delete` and `download` do (issue 26, item 2).
@Suite("show of several albums")
struct ShowSeveralTests {
  @Test func showTakesRangesAndTitlesAndPrintsEachAlbum() throws {
    let shell = try InProcessShell()
    #expect(shell.run("show 2-3 \"American Pie\"") == [])
    let lines = shell.lines()
    #expect(
      lines.filter { $0.hasPrefix("Album: ") } == [
        "Album: It's My Life", "Album: Nothing Like The Sun", "Album: American Pie",
      ])
    #expect(lines.filter(\.isEmpty).count == 2)
    #expect(shell.run("show 4-9") == ["show: no album 9 (the library has 5)"])
  }

  /// `random` orders a view by a shuffle of its own: kept while the view is shown, new at
  /// each `find`; `title:random` still finds the word.
  @Test func theRandomSortKeyShufflesOncePerFind() throws {
    let albums = (1...60).map { Album(title: "T\($0)", artist: "A", genre: "G", year: 1990, coverURL: "") }
    let shell = try InProcessShell(
      albums: albums + [Album(title: "Random Access", artist: "D", genre: "G", coverURL: "")])
    func order() throws -> [String] {
      try shell.library.albums(in: 0..<(try shell.library.count())).map(\.title)
    }
    #expect(shell.run("find artist:A random") == [])
    let first = try order()
    #expect(Set(first) == Set(albums.map(\.title)))
    #expect(first != albums.map(\.title))
    #expect(shell.run("scroll right; tap 3") == [])
    #expect(try order() == first)
    #expect(shell.run("find artist:A random") == [])
    #expect(try order() != first)
    #expect(shell.run("find title:random") == [])
    #expect(try order() == ["Random Access"])
  }
}
