import Foundation
import TestSupport
import Testing

/// A machine without ICU (issue 47's review): ICU is loaded at the first regular expression,
/// and what needs none works without it, while what does says so in one line — a scroll by
/// year needs none, and a saved view with a pattern is kept and said, never lost.
@Suite struct WithoutICUTests {
  /// Files named as ICU's that are not libraries, found first through `LD_LIBRARY_PATH` (the
  /// loader's documented search order: a file found that cannot be loaded ends the search for
  /// that name), stand for a machine where ICU cannot be loaded.
  private static func withoutICU() throws -> (TemporaryDirectory, [String: String]) {
    let libraries = try TemporaryDirectory()
    for version in 60...99 {
      #expect(FileManager.default.createFile(atPath: libraries.file("libicui18n.so.\(version)"), contents: Data()))
    }
    return (libraries, ["LD_LIBRARY_PATH": libraries.path])
  }

  /// The one line `find title::^The` says without ICU, after `bluelib: -c:1: find: `.
  private static func icuMissing(_ result: BinaryRunner.Result) -> String {
    let prefix = "bluelib: -c:1: find: "
    #expect(result.stderr.hasPrefix(prefix), "\(result.stderr)")
    #expect(result.stderr.hasSuffix("\n") && result.stderr.count { $0 == "\n" } == 1, "\(result.stderr)")
    return String(result.stderr.dropFirst(prefix.count).dropLast())
  }

  /// `scroll to '19'` (quoted: a bare 19 is an index) in a view sorted by year lands on the
  /// first album of a year starting with 19 by the year's digits, with or without ICU: it
  /// read them with a pattern, and without ICU fell back to a word search, which found no
  /// album (a year is no field a bare word looks in).
  @Test func scrollToDigitsInAViewByYearNeedsNoICU() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var arguments: [String] = []
    for (title, year) in [("Old", 1975), ("Mid", 1994), ("New", 2019)] {
      arguments += ["-c", "add '\(title)' artist=Band year=\(year) genre=Test"]
    }
    #expect(try runner.run(arguments).status == 0)
    let (libraries, environment) = try Self.withoutICU()
    defer { withExtendedLifetime(libraries) {} }
    let find = try runner.run(["-c", "find title::^The"], environment: environment)
    #expect(find.status == 1)
    #expect(Self.icuMissing(find).contains("regular expressions need ICU: cannot load ICU ("), "\(find.stderr)")

    let result = try runner.run(["-c", "find genre:Test year-", "-c", "scroll to '19'"], environment: environment)

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    #expect(result.stdout.contains("[2/3] 1 New | >2 Mid< | 3 Old\nArtist: Band\nAlbum: Mid\n"), "\(result.stdout)")
    let toTwenty = try runner.run(["-c", "find genre:Test year+", "-c", "scroll to '20'"], environment: environment)
    #expect(toTwenty.stdout.contains("[3/3] 1 Old | 2 Mid | >3 New<\n"), "\(toTwenty.stdout)")
    let none = try runner.run(["-c", "find genre:Test year+", "-c", "scroll to '18'"], environment: environment)
    #expect(none.stderr == "bluelib: -c:2: scroll: no album's year starts with '18' in this view (try 'list 18')\n")
  }

  /// A saved view with a pattern is listed with its query, and one line names it and says
  /// why it cannot be used now; it stays saved, and works again once ICU loads. It was
  /// "no longer a valid query".
  @Test func aSavedViewWithAPatternIsKeptAndSaidWithoutICU() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let saved = try runner.run([
      "-c", "view save sun title::Sun$", "-c", "view save best title::^Best", "-c", "view save pop genre:pop",
    ])
    #expect(saved.status == 0, "\(saved.stderr)")
    let (libraries, environment) = try Self.withoutICU()
    defer { withExtendedLifetime(libraries) {} }
    let why = Self.icuMissing(try runner.run(["-c", "find title::^The"], environment: environment))

    let listed = try runner.run(["-c", "view list"], environment: environment)

    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stderr == "")
    let reason = why.components(separatedBy: "regular expressions need ICU: ").last ?? ""
    #expect(
      listed.stdout == """
        @best  title::^Best
        @pop   genre:pop
        @sun   title::Sun$
        @best and @sun cannot be used now: regular expressions need ICU: \(reason)

        """, "\(listed.stdout)")
    let again = try runner.run(["-c", "view list", "-c", "find @sun"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.hasPrefix("@best  title::^Best\n@pop   genre:pop\n@sun   title::Sun$\n"), "\(again.stdout)")
    #expect(!again.stdout.contains("cannot be used"), "\(again.stdout)")
  }

  /// The view of the last session, with a pattern, is not shown at a start without ICU: one
  /// line names it and says why, and it is kept for the next start that has ICU. It was
  /// dropped without a word.
  @Test func theLastSessionsViewWithAPatternIsKeptAndSaidAtAStartWithoutICU() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (libraries, environment) = try Self.withoutICU()
    defer { withExtendedLifetime(libraries) {} }
    let why = Self.icuMissing(try runner.run(["-c", "find title::^The"], environment: environment))
    let reason = why.components(separatedBy: "regular expressions need ICU: ").last ?? ""
    let shown = try runner.run(["-c", "view save sun title::Sun$", "-c", "find @sun year+"])
    #expect(shown.status == 0, "\(shown.stderr)")

    let started = try runner.run(["-c", "list -f '$title'", "-c", "scroll right"], environment: environment)

    #expect(started.status == 0, "\(started.stderr)")
    #expect(
      started.stderr
        == "bluelib: the view of the last session ('find @sun year+') is kept but not shown: regular expressions need ICU: \(reason)\n"
    )
    #expect(started.stdout.contains("Best of Bowie"), "the whole library: \(started.stdout)")
    let again = try runner.run(["-c", "list -f '$title'"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr == "")
    #expect(again.stdout == "Nothing Like The Sun\nStaring at the Sun\n", "the view by year: \(again.stdout)")
  }
}
