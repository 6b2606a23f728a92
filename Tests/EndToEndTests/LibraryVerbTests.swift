import Foundation
import TestSupport
import Testing

/// What the default catalogue looks like through the binary, for exact comparisons
/// (SPEC §2, §4): `list` rows, `view` rows and `show` blocks of the five albums.
enum LibraryFixture {
  /// `list` rows of the default catalogue, without the marker and index.
  static let rows = [
    "Best of Bowie — David Bowie (1992, Pop)",
    "It's My Life — No Doubt (2003, Pop)",
    "Nothing Like The Sun — Sting (1999, Pop)",
    "Staring at the Sun — U2 (2000, Pop)",
    "American Pie — Madonna (2000, Pop)",
  ]

  /// The script-mode viewport line with album `n` (1-based) current.
  static func viewLine(_ n: Int) -> String {
    [
      1: "[1/5] >1 Best of Bowie< | 2 It's My Life | 3 Nothing Like The Sun",
      2: "[2/5] 1 Best of Bowie | >2 It's My Life< | 3 Nothing Like The Sun | 4 Staring at the Sun",
      3: "[3/5] 1 Best of Bowie | 2 It's My Life | >3 Nothing Like The Sun< | 4 Staring at the Sun | 5 American Pie",
      4: "[4/5] 2 It's My Life | 3 Nothing Like The Sun | >4 Staring at the Sun< | 5 American Pie",
      5: "[5/5] 3 Nothing Like The Sun | 4 Staring at the Sun | >5 American Pie<",
    ][n]!
  }

  /// `show N` of the default catalogue.
  static func details(_ n: Int) -> String {
    let albums = [
      ("David Bowie", "Best of Bowie", "1992", "best-of-bowie"),
      ("No Doubt", "It's My Life", "2003", "its-my-life"),
      ("Sting", "Nothing Like The Sun", "1999", "nothing-like-the-sun"),
      ("U2", "Staring at the Sun", "2000", "staring-at-the-sun"),
      ("Madonna", "American Pie", "2000", "american-pie"),
    ]
    let (artist, title, year, cover) = albums[n - 1]
    return
      "Artist: \(artist)\nAlbum: \(title)\nGenre: Pop\nYear: \(year)\nCover: bluelib:covers/\(cover).png (not downloaded)\n"
  }

  /// `view` of the default catalogue with album `n` current: the row, then the details.
  static func view(_ n: Int) -> String { viewLine(n) + "\n" + details(n) }

  /// `list` output for `rows` with album `selected` (1-based) marked, and the footer.
  /// Each row ends in its cover state: the default albums' covers are not downloaded yet,
  /// other rows (added by a test) have none unless the row already says.
  static func list(selected: Int?, rows: [String] = rows) -> String {
    var out = ""
    for (offset, row) in rows.enumerated() {
      let cover =
        row.contains(" · cover: ")
        ? "" : LibraryFixture.rows.contains(row) ? " · cover: not downloaded" : " · cover: no cover"
      out += (offset + 1 == selected ? "*" : " ") + " \(offset + 1). " + row + cover + "\n"
    }
    return out + (rows.count == 1 ? "1 album" : "\(rows.count) albums") + "\n"
  }

  /// A command whose whole output is one recognisable line: it splits a run's stdout.
  static let mark = "list @@mark@@"

  /// The stdout between the `mark` commands of a script.
  static func sections(_ stdout: String) -> [String] {
    var sections = [""]
    for line in stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      if line.hasSuffix(" match '@@mark@@'") {
        sections.append("")
      } else {
        sections[sections.count - 1] += line + "\n"
      }
    }
    return sections
  }

  /// `bluelib: stdin:LINE: MESSAGE` lines, as script mode reports failures.
  static func stdinErrors(_ errors: [(line: Int, message: String)]) -> String {
    errors.map { "bluelib: stdin:\($0.line): \($0.message)\n" }.joined()
  }

  /// Writes `text` to `name` in the runner's home; the path.
  static func write(_ text: String, to name: String, in runner: BinaryRunner) throws -> String {
    let url = runner.home.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }
}

/// Every verb of SPEC §3 run through the built binary in script mode, with its exact
/// output and its exact error messages.
@Suite(.serialized)
struct LibraryVerbTests {
  typealias F = LibraryFixture

  // MARK: - Ambiguous titles

  @Test func anAmbiguousTitleIsAnErrorThatListsTheMatchesAndChangesNothing() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    #expect(try runner.run(["-c", "tap 2; add Dup; tap 5; add Dup"]).status == 0)
    let before = try runner.run(["-c", "list"]).stdout
    let result = try runner.run(["-c", "delete Dup"])
    #expect(result.status == 1)
    #expect(result.stderr == "bluelib: -c:1: delete: 2 albums are titled 'Dup': 3, 6 (name one by its index)\n")
    #expect(try runner.run(["-c", "list"]).stdout == before)
    // An index picks one; a unique title still works.
    #expect(try runner.run(["-c", "delete 6; delete Dup"]).status == 0)
    #expect(try runner.run(["-c", "list dup"]).stdout == "0 of 5 albums match 'dup'\n")
  }

  // MARK: - Export and import formats

  @Test func exportChoosesCSVByExtensionAndImportSkipsUnknownColumnsWithANotice() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let csv = runner.home.appendingPathComponent("x.csv").path
    let result = try runner.run(["-c", "export \(csv)"])
    #expect(result.status == 0)
    #expect(result.stdout == "exported 5 albums to \(csv) as CSV\n")
    let written = try String(contentsOfFile: csv, encoding: .utf8)
    #expect(written.hasPrefix("title,artist,genre,year,coverUrl\r\nBest of Bowie,David Bowie,Pop,1992,"))

    let other = try F.write("title,Rating,artist\nBlue Train,5,John Coltrane\n", to: "other.csv", in: runner)
    let imported = try runner.run(["-c", "import \(other)"])
    #expect(imported.status == 0)
    #expect(imported.stderr == "")
    #expect(
      imported.stdout
        == "ignored a column bluelib does not read: 'Rating' (it reads title, artist, genre, year, coverUrl, tracks, duration, folder)\n"
        + "imported 1 album (1 album in all)\n"
        + "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n")
  }

  // MARK: - The original app's story

  @Test func originalAppStoryDeletesUndoesAndTheNextRunOpensOnTheRestoredAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: "tap 3\nshow\nscroll right\ndelete\nlist\nundo\nredo\nundo\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let afterDelete =
      "[4/4] 2 It's My Life | 3 Nothing Like The Sun | >4 American Pie<\n" + F.details(5)
    let fourLeft = F.list(
      selected: 4, rows: [F.rows[0], F.rows[1], F.rows[2], F.rows[4]])
    let expected =
      F.view(3) + F.details(3)  // tap 3, show: "Album: Nothing Like The Sun"
      + F.view(4)  // scroll right
      + "deleted \"Staring at the Sun\" (4 albums left)\n" + afterDelete
      + fourLeft
      + "undid delete \"Staring at the Sun\"\n" + F.view(4)
      + "redid delete \"Staring at the Sun\"\n" + afterDelete
      + "undid delete \"Staring at the Sun\"\n" + F.view(4)
    #expect(result.stdout == expected)
    #expect(result.stdout.contains("Album: Nothing Like The Sun\n"))
    #expect(fourLeft.hasSuffix("\n4 albums\n"))

    // The restored album is still current in a second run on the same home.
    let second = try runner.run(["-c", "view; list"])
    #expect(second.status == 0)
    #expect(second.stdout == F.view(4) + F.list(selected: 4))
    #expect(second.stdout.contains(">4 Staring at the Sun<"))
  }

  // MARK: - list

  @Test func listShowsEveryAlbumWithTheCurrentOneMarkedAndACountFooter() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "list\ntap 2\nls\n")
    #expect(result.status == 0)
    #expect(result.stdout == F.list(selected: 1) + F.view(2) + F.list(selected: 2))
  }

  @Test func listQueryMatchesCaseInsensitivelyOverTitleArtistGenreAndYear() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        list SUN
        list sting
        list year:1992
        list at the
        list zzz
        add "Blue Train" genre=Jazz year=1957
        list JAZZ
        ls pop
        """)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let sections = result.stdout.components(separatedBy: "added \"Blue Train\"")
    #expect(sections.count == 2)
    #expect(
      sections[0] == """
          3. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded
          4. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded
        2 of 5 albums match 'SUN'
          3. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded
        1 of 5 albums match 'sting'
        * 1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded
        1 of 5 albums match 'year:1992'
          4. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded
        1 of 5 albums match 'at the'
        0 of 5 albums match 'zzz'

        """)
    #expect(result.stdout.contains("* 2. Blue Train (1957, Jazz) · cover: no cover\n1 of 6 albums match 'JAZZ'\n"))
    #expect(
      result.stdout.hasSuffix(
        """
          1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded
          3. It's My Life — No Doubt (2003, Pop) · cover: not downloaded
          4. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded
          5. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded
          6. American Pie — Madonna (2000, Pop) · cover: not downloaded
        5 of 6 albums match 'pop'

        """))
  }

  // MARK: - show

  @Test func showPrintsFieldsByIndexQuotedTitleUnquotedWordOrTheCurrentAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        show 2
        show "American Pie"
        show
        tap 4
        show
        add Blue artist=Joni year=1971 genre=Folk cover=https://example.com/blue.png
        tap 1
        show Blue
        """)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let blue =
      "Artist: Joni\nAlbum: Blue\nGenre: Folk\nYear: 1971\nCover: https://example.com/blue.png (not downloaded)\n"
    let expected =
      F.details(2) + F.details(5) + F.details(1)
      + F.view(4) + F.details(4)
      + "added \"Blue\" as 5 (6 albums)\n"
      + "[5/6] 3 Nothing Like The Sun | 4 Staring at the Sun | >5 Blue< | 6 American Pie\n" + blue
      + "[1/6] >1 Best of Bowie< | 2 It's My Life | 3 Nothing Like The Sun\n" + F.details(1)
      + blue
    #expect(result.stdout == expected)
  }

  @Test func showReportsAlbumsThatDoNotExist() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "show 9\nshow nope\nshow \"Best of\"\nshow 1 9\n")
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "show: no album 9 (the library has 5)"),
          (2, "show: no album titled 'nope' (try 'list nope')"),
          (3, "show: no album titled 'Best of' (try 'list Best of')"),
          (4, "show: no album 9 (the library has 5)"),
        ]))
  }

  // MARK: - scroll

  @Test func scrollMovesByCardsJumpsToAlbumsAndClampsAtTheEnds() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        scroll right 2
        scroll left
        scroll left 5
        scroll right
        scroll right 99
        scroll home
        scroll end
        scroll to "It's My Life"
        scroll to 4
        """)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == [3, 2, 1, 2, 5, 1, 5, 2, 4].map(F.view).joined())
  }

  @Test func scrollRejectsUnknownDirectionsAndBadCounts() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        tap 3
        scroll up
        scroll
        scroll right 0
        scroll left x
        scroll to
        scroll to 9
        scroll to nope
        scroll home 2
        view
        """)
    #expect(result.status == 1)
    #expect(result.stdout == F.view(3) + F.view(3))
    #expect(
      result.stderr
        == F.stdinErrors([
          (2, "scroll: expected left, right, to, home or end, got 'up'"),
          (3, "scroll: missing a direction (usage: scroll left|right [N] | to ALBUM | home|end)"),
          (4, "scroll: N must be a positive whole number, got '0'"),
          (5, "scroll: N must be a positive whole number, got 'x'"),
          (6, "scroll: missing ALBUM (usage: scroll to ALBUM)"),
          (7, "scroll: no album 9 (the library has 5)"),
          (8, "scroll: no album titled 'nope' (try 'list nope')"),
          (9, "scroll: unexpected argument '2'"),
        ]))
  }

  // MARK: - tap, view

  @Test func tapSelectsByIndexOrQuotedTitle() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "tap 2\ntap \"American Pie\"\ntap 'Staring at the Sun'\nlist\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout == F.view(2) + F.view(5) + F.view(4) + F.list(selected: 4))
  }

  @Test func tapRejectsIndicesOutsideTheLibraryAndKeepsTheSelection() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        tap 2
        tap 9
        tap 0
        tap -1
        tap 99999999999999999999999
        tap
        tap 1 2
        view
        """)
    #expect(result.status == 1)
    #expect(result.stdout == F.view(2) + F.view(2))
    #expect(
      result.stderr
        == F.stdinErrors([
          (2, "tap: no album 9 (the library has 5)"),
          (3, "tap: no album 0 (the library has 5)"),
          (4, "tap: no album -1 (the library has 5)"),
          (5, "tap: no album 99999999999999999999999 (the library has 5)"),
          (6, "tap: missing ALBUM (usage: tap ALBUM)"),
          (7, "tap: unexpected argument '2'"),
        ]))
  }

  @Test func viewRedrawsTheViewportAndTakesOnlyItsSubcommands() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "view\ntap 5\nview\nview now\n")
    #expect(result.status == 1)
    #expect(result.stdout == F.view(1) + F.view(5) + F.view(5))
    #expect(result.stderr == F.stdinErrors([(4, "view: expected save, list or delete, got 'now'")]))
  }

  // MARK: - add

  @Test func addInsertsAfterTheCurrentAlbumWithItsFieldsAndSelectsIt() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        tap 2
        add "Blue Train" artist="John Coltrane" year=1957 genre=Jazz cover=https://example.com/blue.png
        list
        """)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    var rows = F.rows
    rows.insert("Blue Train — John Coltrane (1957, Jazz) · cover: not downloaded", at: 2)
    #expect(
      result.stdout
        == F.view(2)
        + "added \"Blue Train\" as 3 (6 albums)\n"
        + "[3/6] 1 Best of Bowie | 2 It's My Life | >3 Blue Train< | 4 Nothing Like The Sun | 5 Staring at the Sun\n"
        + "Artist: John Coltrane\nAlbum: Blue Train\nGenre: Jazz\nYear: 1957\nCover: https://example.com/blue.png (not downloaded)\n"
        + F.list(selected: 3, rows: rows))
  }

  @Test func addRejectsBadFieldsAndMissingTitleWithoutChangingTheLibrary() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        add X year=abc
        add X year=12345
        add X yaer=1999
        add
        add year=1999
        add X Y
        list
        """)
    #expect(result.status == 1)
    #expect(result.stdout == F.list(selected: 1))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "add: year must be a whole number, got 'abc'"),
          (2, "add: year must be between 0 and 9999, got '12345'"),
          (3, "add: unknown field 'yaer' (fields: title, artist, genre, year, cover)"),
          (4, "add: missing TITLE (usage: add TITLE [FIELD=VALUE…])"),
          (5, "add: missing TITLE (usage: add TITLE [FIELD=VALUE…])"),
          (6, "add: expected FIELD=VALUE, got 'Y' (quote a title that has spaces)"),
        ]))
  }

  // MARK: - edit

  @Test func editChangesTheCurrentAlbumOrOneByIndexSeveralFieldsAtOnce() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        tap 3
        edit year=1987
        edit 2 artist="Talk Talk" genre=Rock title="Life's What You Make It"
        list
        show 2
        """)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    var rows = F.rows
    rows[1] = "Life's What You Make It — Talk Talk (2003, Rock) · cover: not downloaded"
    rows[2] = "Nothing Like The Sun — Sting (1987, Pop) · cover: not downloaded"
    let current =
      "Artist: Sting\nAlbum: Nothing Like The Sun\nGenre: Pop\nYear: 1987\nCover: bluelib:covers/nothing-like-the-sun.png (not downloaded)\n"
    // Editing is not a selection move: album 3 stays current throughout.
    #expect(
      result.stdout
        == F.view(3)
        + "edited \"Nothing Like The Sun\": year\n"
        + "[3/5] 1 Best of Bowie | 2 It's My Life | >3 Nothing Like The Sun< | 4 Staring at the Sun | 5 American Pie\n"
        + current
        + "edited \"Life's What You Make It\": artist, genre, title\n"
        // Album 2 is not the current one: the edit shows it, as edited (issue 26, item 3).
        + "Artist: Talk Talk\nAlbum: Life's What You Make It\nGenre: Rock\nYear: 2003\nCover: bluelib:covers/its-my-life.png (not downloaded)\n"
        + F.list(selected: 3, rows: rows)
        + "Artist: Talk Talk\nAlbum: Life's What You Make It\nGenre: Rock\nYear: 2003\nCover: bluelib:covers/its-my-life.png (not downloaded)\n"
    )
  }

  @Test func editReportsUnknownFieldsBadValuesAndMissingAssignments() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: """
        edit yaer=1999
        edit 9 year=1999
        edit
        edit 1
        edit year=99999
        edit title=
        edit 1 2
        list
        """)
    #expect(result.status == 1)
    #expect(result.stdout == F.list(selected: 1))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "edit: unknown field 'yaer' (fields: title, artist, genre, year, cover)"),
          (2, "edit: no album 9 (the library has 5)"),
          (3, "edit: missing FIELD=VALUE (usage: edit [ALBUM…|all] FIELD=VALUE…)"),
          (4, "edit: missing FIELD=VALUE (usage: edit [ALBUM…|all] FIELD=VALUE…)"),
          (5, "edit: year must be between 0 and 9999, got '99999'"),
          (6, "edit: title must not be empty"),
          (7, "edit: expected FIELD=VALUE, got '2'"),
        ]))
  }

  // MARK: - delete, rm

  @Test func deleteRemovesTheCurrentAlbumAndSelectsTheOneInItsPlace() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "tap 2\ndelete\nscroll end\nrm\nlist\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == F.view(2)
        + "deleted \"It's My Life\" (4 albums left)\n"
        + "[2/4] 1 Best of Bowie | >2 Nothing Like The Sun< | 3 Staring at the Sun | 4 American Pie\n"
        + F.details(3)
        + "[4/4] 2 Nothing Like The Sun | 3 Staring at the Sun | >4 American Pie<\n" + F.details(5)
        + "deleted \"American Pie\" (3 albums left)\n"
        + "[3/3] 1 Best of Bowie | 2 Nothing Like The Sun | >3 Staring at the Sun<\n" + F.details(4)
        + F.list(selected: 3, rows: [F.rows[0], F.rows[2], F.rows[3]]))
  }

  @Test func deleteByIndexOrTitleRemovesThatAlbumAndKeepsTheCurrentOne() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "tap 1\nrm 3\ndelete \"American Pie\"\nlist\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout.contains("deleted \"Nothing Like The Sun\" (4 albums left)\n"))
    #expect(result.stdout.contains("deleted \"American Pie\" (3 albums left)\n"))
    let remaining = [F.rows[0], F.rows[1], F.rows[3]]
    #expect(
      result.stdout.replacingOccurrences(of: "* ", with: "  ").hasSuffix(F.list(selected: nil, rows: remaining)))
    // Deleting another album is not a selection move: "Best of Bowie" should stay current,
    // as it does for `edit N`.
    #expect(result.stdout.hasSuffix(F.list(selected: 1, rows: remaining)))
  }

  @Test func deleteOnAnEmptyLibraryIsAnError() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: "delete 9\ndelete\ndelete\ndelete\ndelete\ndelete\nlist\ndelete\nrm 1\nshow\nview\n")
    #expect(result.status == 1)
    let empty = "(the library is empty: 'add TITLE' adds an album, 'reset' brings back the defaults)\n"
    #expect(result.stdout.hasSuffix("deleted \"American Pie\" (0 albums left)\n" + empty + "0 albums\n" + empty))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "delete: no album 9 (the library has 5)"),
          (8, "delete: the library is empty"),
          (9, "rm: no album 1 (the library is empty)"),
          (10, "show: the library is empty"),
        ]))
  }

  // MARK: - move

  @Test func moveReordersAndSelectsTheMovedAlbum() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(script: "move 5 to 1\nmove \"Best of Bowie\" to 3\nlist\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout.hasPrefix("moved \"American Pie\" from 5 to 1\n[1/5] >1 American Pie< |"))
    #expect(result.stdout.contains("moved \"Best of Bowie\" from 2 to 3\n"))
    #expect(
      result.stdout.hasSuffix(
        F.list(selected: 3, rows: [F.rows[4], F.rows[1], F.rows[0], F.rows[2], F.rows[3]])))
  }

  @Test func moveRejectsBadPositionsAndAlbums() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: "move 1 to 6\nmove 1 to 0\nmove 1 to x\nmove 1\nmove 1 2\nmove 9 to 1\nmove 1 to 2 3\nlist\n")
    #expect(result.status == 1)
    #expect(result.stdout == F.list(selected: 1))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "move: no position 6 (the library has 5)"),
          (2, "move: POSITION must be a whole number from 1, got '0'"),
          (3, "move: POSITION must be a whole number from 1, got 'x'"),
          (4, "move: missing ALBUM to POSITION (usage: move ALBUM… to POSITION)"),
          (5, "move: missing ALBUM to POSITION (usage: move ALBUM… to POSITION)"),
          (6, "move: no album 9 (the library has 5)"),
          (7, "move: unexpected argument '3'"),
        ]))
  }

  // MARK: - import

  @Test func importAppendsAlbumsFromJSONAndCSVKeepingTheSelection() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let json = try F.write(
      """
      [{"title": "Kind of Blue", "artist": "Miles Davis", "genre": "Jazz", "year": 1959, "coverUrl": ""},
       {"title": "Blue Train", "artist": "John Coltrane", "genre": "Jazz", "year": "1957",
        "coverUrl": "https://example.com/blue.png"}]
      """, to: "albums.json", in: runner)
    let csv = try F.write(
      #"""
      year,title,artist,genre,coverUrl
      1971,"Blue, Remastered",Joni Mitchell,Folk,
      1969,"Abbey ""Road""",The Beatles,Rock,https://example.com/abbey.png

      """#, to: "albums.csv", in: runner)
    // The first import takes the untouched samples' place; the second appends.
    let result = try runner.run(
      script: "tap 3\nimport '\(json)'\ntap 2\nimport '\(csv)'\nlist\nshow 4\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let rows = [
      "Kind of Blue — Miles Davis (1959, Jazz) · cover: no cover",
      "Blue Train — John Coltrane (1957, Jazz) · cover: not downloaded",
      "Blue, Remastered — Joni Mitchell (1971, Folk) · cover: no cover",
      "Abbey \"Road\" — The Beatles (1969, Rock) · cover: not downloaded",
    ]
    #expect(
      result.stdout
        == F.view(3)
        + "imported 2 albums (2 albums in all)\n"
        + "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n"
        + "[2/2] 1 Kind of Blue | >2 Blue Train<\n"
        + "Artist: John Coltrane\nAlbum: Blue Train\nGenre: Jazz\nYear: 1957\nCover: https://example.com/blue.png (not downloaded)\n"
        + "imported 2 albums (4 albums in all)\n"
        + F.list(selected: 2, rows: rows)
        + "Artist: The Beatles\nAlbum: Abbey \"Road\"\nGenre: Rock\nYear: 1969\nCover: https://example.com/abbey.png (not downloaded)\n"
    )
  }

  @Test func importOfACSVWithABadRowChangesNothingAndNamesTheLine() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let csv = try F.write(
      """
      title,artist,genre,year,coverUrl
      A1,Artist,Rock,2001,
      A2,Artist,Rock,2002,
      A3,Artist,Rock,20x3,
      A4,Artist,Rock,2004,

      """, to: "bad.csv", in: runner)
    let result = try runner.run(script: "import '\(csv)'\nlist\nundo\n")
    #expect(result.status == 1)
    #expect(result.stdout == F.list(selected: 1))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "import: \(csv):4: year must be a whole number, got '20x3'"),
          (3, "undo: nothing to undo"),
        ]))
    // Nothing was written either: a new run sees the default catalogue.
    #expect(try runner.run(["-c", "list"]).stdout == F.list(selected: 1))
  }

  @Test func importReportsAMissingFileOrArgument() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let missing = runner.home.appendingPathComponent("nowhere.json").path
    let result = try runner.run(script: "import '\(missing)'\nimport\nlist\n")
    #expect(result.status == 1)
    #expect(result.stdout == F.list(selected: 1))
    #expect(
      result.stderr
        == F.stdinErrors([
          (1, "import: cannot read '\(missing)': no such file or directory"),
          (2, "import: missing FILE or DIR (usage: import [--with-deleted] FILE|DIR)"),
        ]))
  }

  // MARK: - export

  @Test func exportWritesAJSONArrayWithTheOriginalAppsKeys() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let file = runner.home.appendingPathComponent("out.json")
    let result = try runner.run(
      script: "add \"No Year\" artist=\"A, B\"\nexport '\(file.path)'\nexport\n")
    #expect(result.status == 1)
    #expect(result.stdout.hasSuffix("exported 6 albums to \(file.path)\n"))
    #expect(result.stderr == F.stdinErrors([(3, "export: missing FILE (usage: export FILE [QUERY])")]))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    let albums = try #require(json as? [[String: Any]])
    #expect(albums.count == 6)
    for album in albums {
      #expect(Set(album.keys) == ["title", "artist", "genre", "year", "coverUrl"])
    }
    #expect(
      albums.map { $0["title"] as? String } == [
        "Best of Bowie", "No Year", "It's My Life", "Nothing Like The Sun", "Staring at the Sun", "American Pie",
      ])
    #expect(albums[0]["artist"] as? String == "David Bowie")
    #expect(albums[0]["genre"] as? String == "Pop")
    #expect("\(albums[0]["year"] ?? "")" == "1992")
    #expect(albums[0]["coverUrl"] as? String == "bluelib:covers/best-of-bowie.png")
    #expect(albums[1]["artist"] as? String == "A, B")
  }

  @Test func exportThenImportIntoAFreshHomeGivesTheSameLibrary() throws {
    let original = BinaryRunner()
    let fresh = BinaryRunner()
    defer {
      original.cleanUp()
      fresh.cleanUp()
    }
    let file = original.home.appendingPathComponent("library.json").path
    let copy = fresh.home.appendingPathComponent("again.json").path
    let made = try original.run(
      script: """
        add "Quote \\"q\\"" artist="A, B" cover=https://example.com/q.png
        edit 1 year=1993 genre=Glam
        move 6 to 1
        export '\(file)'
        """)
    #expect(made.status == 0)
    let before = try original.run(["-c", "tap 1; list"])
    // The fresh home starts with the default catalogue: empty it, then import.
    let after = try fresh.run(
      script: "delete\ndelete\ndelete\ndelete\ndelete\nimport '\(file)'\n", ["--bail"])
    #expect(after.status == 0)
    #expect(after.stdout.hasSuffix("imported 6 albums (6 albums in all)\n"))
    let listed = try fresh.run(["-c", "tap 1; list; export '\(copy)'"])
    #expect(listed.stdout.hasPrefix(before.stdout))
    #expect(
      before.stdout.hasSuffix(
        "  3. Quote \"q\" — A, B · cover: not downloaded\n"
          + "  4. It's My Life — No Doubt (2003, Pop) · cover: not downloaded\n"
          + "  5. Nothing Like The Sun — Sting (1999, Pop) · cover: not downloaded\n"
          + "  6. Staring at the Sun — U2 (2000, Pop) · cover: not downloaded\n6 albums\n"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: file)))
  }

  // MARK: - reset

  @Test func resetBringsBackTheDefaultCatalogueAndUndoRestoresTheLibraryBefore() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(
      script: [
        "delete 1", "add Extra year=2024", "tap 3", F.mark, "list", F.mark, "reset", F.mark, "list",
        F.mark, "undo", F.mark, "list", "view",
      ].joined(separator: "\n"))
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let sections = F.sections(result.stdout)
    try #require(sections.count == 6)
    let changed = F.list(
      selected: 3, rows: [F.rows[1], "Extra (2024)", F.rows[2], F.rows[3], F.rows[4]])
    #expect(sections[1] == changed)
    #expect(sections[2] == "reset to the default catalogue (5 albums)\n" + F.view(1))
    #expect(sections[3] == F.list(selected: 1))
    #expect(sections[4].hasPrefix("undid reset\n"))
    #expect(
      sections[5]
        == changed
        + "[3/5] 1 It's My Life | 2 Extra | >3 Nothing Like The Sun< | 4 Staring at the Sun | 5 American Pie\n"
        + F.details(3))
  }

  // MARK: - Escaping (SPEC §7)

  @Test func controlCharactersInImportedTextAreShownEscapedNeverRaw() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let json = try F.write(
      #"""
      [{"title": "\u001b[31mRed\nLine\u0007Bell\u009bCSI", "artist": "Evil\u001b]0;pwn\u0007",
        "genre": "G", "year": 2020, "coverUrl": ""}]
      """#, to: "evil.json", in: runner)
    let result = try runner.run(script: "import '\(json)'\nlist red\nshow 1\ntap 1\nview\nshow \"\u{1B}[2J\"\n")
    #expect(result.status == 1)
    let title = #"\e[31mRed\nLine\x07Bell\u{9b}CSI"#
    let artist = #"Evil\e]0;pwn\x07"#
    let details = "Artist: \(artist)\nAlbum: \(title)\nGenre: G\nYear: 2020\nCover: (none)\n"
    let view = "[1/1] >1 \(title)<\n" + details
    #expect(
      result.stdout
        == "imported 1 album (1 album in all)\n"
        + "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n"
        + "* 1. \(title) — \(artist) (2020, G) · cover: no cover\n1 of 1 album match 'red'\n"
        + details + view + view)
    for byte: UInt8 in [0x1B, 0x07, 0x9B] {
      #expect(!result.stdoutBytes.contains(byte), "raw byte \(byte) in stdout")
      #expect(!Data(result.stderr.utf8).contains(byte), "raw byte \(byte) in stderr")
    }
    #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x9B })
    #expect(result.stderr == F.stdinErrors([(6, #"show: no album titled '\e[2J' (try 'list \e[2J')"#)]))
  }
}
