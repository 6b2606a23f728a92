import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

/// What a query may cost, in process (round 4): a regular expression that backtracks without
/// end (G1), saved views naming views a hundred times over (G7), views that reach themselves
/// (G15) and names of one letter and megabytes of accents (G21) are each refused with one
/// line, in bounded time, and nothing saved is lost.
@Suite("Query bounds")
struct QueryBoundsTests {
  /// The catalogue and an album whose title makes `(a+)+$` backtrack for hours.
  static func withCatastrophicTitle() throws -> InProcessShell {
    var albums = DefaultCatalogue.albums
    albums.append(Album(title: String(repeating: "a", count: 40) + "!", artist: "X", genre: "", year: nil))
    return try InProcessShell(albums: albums)
  }

  @Test(arguments: ["list title::(a+)+$", "find title::(a+)+$", "stats title::(a+)+$", "list :(a+)+$"])
  func aRegularExpressionThatBacktracksWithoutEndFailsAtItsBudget(line: String) throws {
    let shell = try Self.withCatastrophicTitle()
    let start = ContinuousClock.now
    let failures = shell.run(line)
    #expect(ContinuousClock.now - start < .seconds(5))
    let verb = line.prefix { $0 != " " }
    #expect(
      failures == [
        "\(verb): the regular expression '(a+)+$' takes too long (over 250 ms on one album); try a simpler one"
      ])
    // The other albums are still found by a pattern that does not explode.
    _ = shell.output()
    #expect(shell.run("list title::^Best") == [])
    #expect(shell.lines().first == "* 1. Best of Bowie — David Bowie (1992, Pop) · cover: not downloaded")
  }

  /// An album that makes the view's pattern explode arrives with an import: the import
  /// stands, and the view is dropped with one line instead of failing every command after it.
  @Test func aViewWhosePatternExplodesOnANewAlbumIsDroppedAndTheChangeStands() throws {
    let shell = try InProcessShell()
    #expect(shell.run("find 'title::Bowie|(a+)+$'") == [])
    _ = shell.output()
    #expect(shell.run("add \(String(repeating: "a", count: 40))!") == [])
    let lines = shell.lines()
    #expect(
      lines.contains(
        "the view 'title::Bowie|(a+)+$' was dropped: the regular expression 'Bowie|(a+)+$' takes too long (over 250"
          + " ms on one album); try a simpler one; showing the whole library"), "\(lines)")
    #expect(shell.library.view == nil)
    #expect(try shell.library.libraryCount() == 6)
    #expect(try shell.library.selectedAlbum()?.title.hasSuffix("a!") == true)
    #expect(shell.run("list") == [])
  }

  /// Seven cheap saves built views of 10⁸ terms that ran for hours (G7): now a view that
  /// would expand past the limit is refused when saved, and one that grew past it through a
  /// later save of a view it names fails at once when used, naming the view typed.
  @Test func viewsOfViewsCannotGrowPastTheTermLimit() throws {
    let shell = try InProcessShell()
    func hundred(_ name: String) -> String { Array(repeating: "@" + name, count: 100).joined(separator: " ") }
    let start = ContinuousClock.now
    #expect(shell.run("view save v0 rock; view save v1 rock; view save v2 rock") == [])
    #expect(shell.run("view save v3 " + hundred("v2")) == [])
    #expect(
      shell.run("view save v4 " + hundred("v3")) == [
        "view: bad query word '@v3': the saved views it names expand to more than 500 terms"
      ])
    #expect(
      shell.run("view save v2 " + hundred("v1")) == [
        "view: saving @v2 would break the view @v3 (bad query word '@v2': the saved views it names expand to more"
          + " than 500 terms); nothing saved"
      ])
    #expect(try shell.library.savedViewWords("v2") == ["rock"], "the old query stays")
    #expect(try shell.library.savedViews().map(\.name) == ["v0", "v1", "v2", "v3"])
    #expect(ContinuousClock.now - start < .seconds(20))
  }

  /// A view saved over one it names is read as it will be (G15): a circle is refused and
  /// the view keeps its working query.
  @Test func aViewThatWouldReachItselfIsRefusedAndKeepsItsQuery() throws {
    let shell = try InProcessShell()
    #expect(shell.run("view save a rock; view save b @a; view save c pop") == [])
    #expect(shell.run("view save a @b") == ["view: @a would refer to itself (@a → @b → @a); nothing saved"])
    #expect(shell.run("view save c @c") == ["view: @c would refer to itself; nothing saved"])
    #expect(shell.run("find @c; view save c") == ["view: @c would refer to itself; nothing saved"])
    _ = shell.output()
    #expect(shell.run("view list") == [])
    #expect(shell.lines() == ["@a  rock", "@b  @a", "@c  pop"])
  }

  /// A name of one letter and 400,000 combining accents is one character of 800 KB (G21):
  /// names are counted in bytes, and the error quotes at most a few dozen scalars.
  @Test func aViewNameIsAtMost64BytesAndItsErrorStaysShort() throws {
    let shell = try InProcessShell()
    let name = "a" + String(repeating: "\u{301}", count: 400_000)
    let failures = shell.run("view save \(name) rock")
    #expect(failures.count == 1)
    #expect(
      failures.first?.hasPrefix("view: a view's name is letters, digits, '-', '_' and '.' (at most 64 bytes)") == true)
    #expect((failures.first?.utf8.count ?? .max) < 200)
    #expect(try shell.library.savedViews().isEmpty)
    #expect(shell.run("view save \(String(repeating: "é", count: 33)) rock").count == 1)
    #expect(shell.run("view save \(String(repeating: "é", count: 32)) rock") == [])
  }

  /// `find @x` names the saved views it knows, but not all of a thousand.
  @Test func anUnknownViewNamesAtMostTenKnownOnes() throws {
    let shell = try InProcessShell()
    #expect(shell.run((0..<30).map { "view save v\($0) rock" }.joined(separator: "; ")) == [])
    let failures = shell.run("find @nope")
    #expect(failures.count == 1)
    #expect(failures.first?.hasSuffix(", v17 and 20 more)") == true, "\(failures)")
  }
}
