import Foundation
import MusicFolder
import TestSupport
import Testing

/// Issue 50, items 1 and 3, from the built binary: a number means the album the user last
/// saw with it (or the verb refuses and says where the number came from), a title outside
/// the view says where it is, and sorting, `scroll to` and completion fold case and accents.
@Suite(.serialized)
struct NumbersAndCollationTests {
  // MARK: - Item 1: numbers

  /// The issue's sequence: numbers read from a `list` of the whole library, a view that
  /// orders the albums otherwise, then `write` by number. It wrote another album; now it
  /// refuses, names the listing and what renumbered the albums, and writes nothing, until a
  /// new `list` numbers them again.
  @Test func writeByANumberFromTheLibrarysListIsRefusedOnceAViewRenumbersTheAlbums() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let music = try MusicFolderFixture(in: runner.home)
    var paths: [String: String] = [:]
    for (album, year) in [("Alpha", "1990"), ("Beta", "2005"), ("Gamma", "1980")] {
      paths[album] = try music.track(
        "Band/\(album)/01.mp3", TagEdit(album: album, artist: "Band", trackNumber: "1", date: year))
    }
    let result = try runner.run([
      "-c", "import '\(music.root)'", "-c", "edit all genre=Rock", "-c", "list", "-c", "find year-", "-c", "write 2",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("  2. Beta — Band (2005, Rock)"), "\(result.stdout)")
    #expect(
      result.stderr
        == "bluelib: -c:5: write: numbers come from 'list' before 'find year-'; list again to number the albums\n")
    // Nothing was written: the files have no genre.
    let genres = try WriteTagsTests.mutagenTags([paths["Alpha"]!, paths["Beta"]!, paths["Gamma"]!])
    #expect(genres.allSatisfy { $0.hasSuffix("|-") }, "\(genres)")

    // Listed again, in the view: 2 is Alpha (1990), and `write 2` writes Alpha alone.
    let again = try runner.run(["-c", "list", "-c", "write 2"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("  2. Alpha — Band (1990, Rock)"), "\(again.stdout)")
    #expect(again.stdout.hasSuffix("wrote \"Alpha\" to 1 file\n"), "\(again.stdout)")
    let written = try WriteTagsTests.mutagenTags([paths["Alpha"]!, paths["Beta"]!, paths["Gamma"]!])
    #expect(written.map { $0.hasSuffix("|Rock") } == [true, false, false], "\(written)")
  }

  /// A restart inside a view: the numbers of the last session's `list` still mean its
  /// albums while nothing renumbered them; once another shell did (a delete), a number
  /// typed after the next start is refused instead of meaning another album.
  @Test func aNumberTypedAfterARestartInsideAViewMeansWhatTheListShowedOrIsRefused() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let listed = try runner.run(["-c", "find year-", "-c", "list"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains("  2. Staring at the Sun — U2 (2000, Pop)"), "\(listed.stdout)")

    // The next start restores the view: 2 is still "Staring at the Sun".
    let rated = try runner.run(["-c", "rate 2 5"])
    #expect(rated.status == 0, "\(rated.stderr)")
    #expect(rated.stdout.contains("\"Staring at the Sun\""), "\(rated.stdout)")
    // Another shell deletes the first album of the view: every later number moves up.
    let deleted = try runner.run(["-c", "delete 1"])
    #expect(deleted.status == 0, "\(deleted.stderr)")
    #expect(deleted.stdout.contains("\"It's My Life\""), "\(deleted.stdout)")

    let refused = try runner.run(["-c", "rate 3 4"])
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "bluelib: -c:1: rate: numbers come from 'list', and the albums were numbered anew since (by another"
        + " shell, or before this session); list again to number the albums\n")
    let ratings = try runner.run(["-c", "list -f '$title $rating'"])
    #expect(
      ratings.stdout
        == "Staring at the Sun 5\nAmerican Pie \nNothing Like The Sun \nBest of Bowie \n", "\(ratings.stdout)")
  }

  /// The cards drawn since the view changed show the current album's number (`[1/5]`):
  /// that one is taken; another number of the row, read as a picture, is not.
  @Test func theCurrentAlbumsNumberIsTakenAfterTheViewChangedAndNoOtherUnlisted() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "list", "-c", "find year-", "-c", "tap 1", "-c", "tap 2"])
    #expect(result.status == 1)
    #expect(result.stdout.hasSuffix("Cover: bluelib:covers/its-my-life.png (not downloaded)\n"), "\(result.stdout)")
    #expect(
      result.stderr
        == "bluelib: -c:4: tap: numbers come from 'list' before 'find year-'; list again to number the albums\n")
    // A new list numbers them again.
    let listed = try runner.run(["-c", "list", "-c", "tap 2"])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains(">2 Staring at the Sun<"), "\(listed.stdout)")
  }

  /// A title not in the view is in the library: the error says so, and how to reach it.
  @Test func aTitleOutsideTheViewSaysTheLibraryHasItAndHowToReachIt() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let result = try runner.run(["-c", "find year:2000", "-c", "show \"It's My Life\"", "-c", "show Nowhere"])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "bluelib: -c:2: show: 'It's My Life' is not in the view 'year:2000' (it is in the library: 'find' shows"
        + " the whole library, 'find \"It's My Life\"' that album)\n"
        + "bluelib: -c:3: show: no album titled 'Nowhere' (try 'list Nowhere')\n")
  }

  // MARK: - Item 3: collation

  /// The albums of the accents test, added through `add`, in genre `Test`.
  private static let accented = [
    "Zappa", "Émile", "Ólafur", "Øystein", "Åkesson", "Alfa", "Bravo", "Echo", "Oscar", "Papa",
  ]

  private static func addAccented(_ runner: BinaryRunner) throws {
    var arguments: [String] = []
    for name in accented { arguments += ["-c", "add '\(name)' artist='\(name)' genre=Test"] }
    let added = try runner.run(arguments)
    #expect(added.status == 0, "\(added.stderr)")
  }

  /// Sorting by title or artist folds case and accents as a reader expects: Émile among
  /// the E's, Ólafur and Øystein among the O's, Åkesson among the A's, Zappa last.
  @Test func titlesAndArtistsSortWithTheirAccentsAmongTheirLetters() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    try Self.addAccented(runner)
    let expected = "Åkesson\nAlfa\nBravo\nEcho\nÉmile\nÓlafur\nOscar\nØystein\nPapa\nZappa\n"
    let byTitle = try runner.run(["-c", "find genre:Test title+", "-c", "list -f '$title'"])
    #expect(byTitle.stdout.hasSuffix("(none)\n" + expected), "\(byTitle.stdout)")
    let byArtist = try runner.run(["-c", "find genre:Test artist-", "-c", "list -f '$artist'"])
    #expect(
      byArtist.stdout.hasSuffix("(none)\n" + expected.split(separator: "\n").reversed().joined(separator: "\n") + "\n"),
      "\(byArtist.stdout)")
  }

  /// `scroll to R` goes to the first album whose title (in library order) or sort field
  /// (in a sorted view) starts with R, case and accents aside: not to "Greatest Hits",
  /// which holds an r.
  @Test func scrollToALetterGoesToTheFirstAlbumStartingWithItNotOneHoldingIt() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    var arguments: [String] = []
    for (title, artist) in [("Greatest Hits", "Queen"), ("Abbey Road", "The Beatles"), ("ravel", "Røyksopp")] {
      arguments += ["-c", "add '\(title)' artist='\(artist)' genre=Test"]
    }
    #expect(try runner.run(arguments).status == 0)
    let inOrder = try runner.run(["-c", "find genre:Test", "-c", "scroll to R"])
    #expect(inOrder.status == 0, "\(inOrder.stderr)")
    #expect(inOrder.stdout.contains(">3 ravel<"), "\(inOrder.stdout)")
    // By artist: Queen, Røyksopp, The Beatles.
    let byArtist = try runner.run(["-c", "find genre:Test artist+", "-c", "scroll to r"])
    #expect(byArtist.stdout.contains(">2 ravel<"), "\(byArtist.stdout)")
    let toT = try runner.run(["-c", "find genre:Test artist+", "-c", "scroll to t"])
    #expect(toT.stdout.contains(">3 Abbey Road<"), "\(toT.stdout)")
    let none = try runner.run(["-c", "find genre:Test", "-c", "scroll to X"])
    #expect(none.stderr == "bluelib: -c:2: scroll: no album's title starts with 'X' in this view (try 'list X')\n")
  }
}
