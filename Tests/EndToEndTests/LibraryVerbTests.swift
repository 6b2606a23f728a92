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

/// What only the built binary shows of the album verbs (SPEC §1, §3, §6, §7): the exit
/// status of a `-c` or stdin run, `bluelib: SOURCE:LINE: verb: message` on stderr, a script
/// going on after a failed line, what the next run on the same home sees, and the raw bytes
/// written to stdout. What each verb prints and refuses is pinned in process, in
/// BlueShellTests' suites of the album verbs (`AddCommandTests` …).
@Suite(.serialized)
struct LibraryVerbTests {
  typealias F = LibraryFixture

  // MARK: - -c

  @Test func aFailedDashCCommandExitsOneNamesItsLineAndTheNextRunSeesNothingChanged() throws {
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

  // MARK: - A script on stdin

  /// Each failing line is reported with its number and prints nothing; the lines after it
  /// still run; the run exits 1; and nothing of the failures reached the library file.
  @Test func aScriptReportsEachFailingLineByItsNumberGoesOnAndChangesNothing() throws {
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
    let missing = runner.home.appendingPathComponent("nowhere.json").path
    let result = try runner.run(
      script: """
        tap 3
        show nope
        scroll up
        tap 9
        view now
        add X Y
        edit 1 2
        move 1 to 6
        delete 9
        import '\(csv)'
        import '\(missing)'
        undo
        export
        view
        """)
    #expect(result.status == 1)
    #expect(result.stdout == F.view(3) + F.view(3))
    #expect(
      result.stderr
        == F.stdinErrors([
          (2, "show: no album titled 'nope' (try 'list nope')"),
          (3, "scroll: expected left, right, to, home or end, got 'up'"),
          (4, "tap: no album 9 (the library has 5)"),
          (5, "view: expected save, list or delete, got 'now'"),
          (6, "add: expected FIELD=VALUE, got 'Y' (quote a title that has spaces)"),
          (7, "edit: expected FIELD=VALUE, got '2'"),
          (8, "move: no position 6 (the library has 5)"),
          (9, "delete: no album 9 (the library has 5)"),
          (10, "import: \(csv):4: year must be a whole number, got '20x3'"),
          (11, "import: cannot read '\(missing)': no such file or directory"),
          (12, "undo: nothing to undo"),
          (13, "export: missing FILE (usage: export FILE [QUERY|all])"),
        ]))
    // The next run opens on the default catalogue, with the album the script left current.
    #expect(try runner.run(["-c", "list"]).stdout == F.list(selected: 3))
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

  // MARK: - Files

  /// A notice is not a failure: the run exits 0 with nothing on stderr, the CSV file is on
  /// disk, and the next run lists what was imported.
  @Test func anExportToCSVAndAnImportWithANoticeExitZeroAndTheNextRunSeesTheImport() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let csv = runner.home.appendingPathComponent("x.csv").path
    let other = try F.write("title,Rating,artist\nBlue Train,5,John Coltrane\n", to: "other.csv", in: runner)
    let result = try runner.run(["-c", "export \(csv)", "-c", "import \(other)"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == "exported 5 albums to \(csv) as CSV\n"
        + "ignored a column bluelib does not read: 'Rating' (it reads title, artist, genre, year, coverUrl, tracks, duration, folder)\n"
        + "imported 1 album (1 album in all)\n"
        + "the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n")
    let written = try String(contentsOfFile: csv, encoding: .utf8)
    #expect(written.hasPrefix("title,artist,genre,year,coverUrl\r\nBest of Bowie,David Bowie,Pop,1992,"))
    #expect(
      try runner.run(["-c", "list"]).stdout
        == F.list(selected: 1, rows: ["Blue Train — John Coltrane · cover: no cover"]))
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
