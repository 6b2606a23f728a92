import Foundation
import Testing

@testable import BlueCovers

/// What `lookup` takes from MusicBrainz's search: which answer is clear (issue 46, item 7:
/// an exact title and artist is taken whatever its score) and texts made harmless as they
/// are read (H1), whoever prints them later.
struct MusicBrainzSearchTests {
  typealias Candidate = MusicBrainzSearch.Candidate

  static func candidate(
    _ id: Int, _ title: String, _ artist: String, year: Int? = nil, score: Int, type: String? = "Album"
  ) -> Candidate {
    Candidate(
      id: String(format: "%08d-0000-4000-8000-000000000000", id), title: title, artist: artist, year: year,
      score: score, type: type)
  }

  // MARK: - Scoring

  /// Tried as a user would: MusicBrainz scored exact matches 72, and they were called
  /// "nothing like it".
  @Test func anExactTitleAndArtistIsClearWhateverItsScore() {
    let exact = Self.candidate(1, "Nevermind", "Nirvana", year: 1991, score: 72)
    let other = Self.candidate(2, "Nevermind It's an Interview", "Nirvana", year: 1992, score: 60)
    #expect(
      MusicBrainzSearch.match(title: "nevermind", artist: "NIRVANA", year: nil, in: [other, exact]) == .clear(exact))
    #expect(MusicBrainzSearch.match(title: "Nevermind", artist: "Nirvana", year: 1991, in: [exact]) == .clear(exact))
  }

  @Test func twoExactMatchesBelowTheClearScoreAreUnclearUnlessTheYearPicksOne() {
    let first = Self.candidate(1, "Greatest Hits", "Queen", year: 1981, score: 70)
    let second = Self.candidate(2, "Greatest Hits", "Queen", year: 1991, score: 65)
    #expect(
      MusicBrainzSearch.match(title: "Greatest Hits", artist: "Queen", year: nil, in: [first, second])
        == .unclear([first, second]))
    #expect(
      MusicBrainzSearch.match(title: "Greatest Hits", artist: "Queen", year: 1991, in: [first, second])
        == .clear(second))
  }

  /// The rule as before where it was clear: of two exact ones, the one scored 90 or more.
  @Test func anExactMatchScoredHighIsTakenOverAnExactOneScoredLow() {
    let album = Self.candidate(1, "Help!", "The Beatles", score: 100)
    let single = Self.candidate(2, "Help!", "The Beatles", score: 40, type: "Single")
    #expect(
      MusicBrainzSearch.match(title: "Help!", artist: "The Beatles", year: nil, in: [single, album]) == .clear(album))
  }

  @Test func anExactMatchOfAnotherYearIsNotTaken() {
    let exact = Self.candidate(1, "Nevermind", "Nirvana", year: 2011, score: 72)
    #expect(
      MusicBrainzSearch.match(title: "Nevermind", artist: "Nirvana", year: 1991, in: [exact]) == .unclear([exact]))
  }

  @Test func nothingExactAndNothingScoredHighIsNone() {
    let far = Self.candidate(1, "Something Else", "Someone", score: 50)
    #expect(MusicBrainzSearch.match(title: "Nevermind", artist: "Nirvana", year: nil, in: [far]) == .none)
  }

  // MARK: - Texts a server sends

  /// Every text of an answer (title, artist credit and join phrase, type) comes out of the
  /// parse with its control characters escaped: ESC ] 52 (the clipboard), ESC ] 0 (the
  /// window's title), ESC [ 2J, BEL, C1 controls.
  @Test func controlCharactersInEveryTextAreEscapedAsTheAnswerIsRead() throws {
    let hostile = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}]0;PWNED\u{07}\u{1B}[2J\u{9B}31m\u{9D}0;x\u{9C}"
    let object: [String: Any] = [
      "release-groups": [
        [
          "id": "b1392450-e666-3926-a536-22c65f834433", "score": 100, "title": "OK" + hostile,
          "first-release-date": "1997", "primary-type": "Album" + hostile,
          "artist-credit": [["name": "Radio" + hostile, "joinphrase": " & " + hostile], ["name": "B"]],
        ]
      ]
    ]
    let data = try JSONSerialization.data(withJSONObject: object)
    let found = try #require(MusicBrainzSearch.candidates(fromJSON: data)?.first)
    for text in [found.title, found.artist, found.type ?? ""] {
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(text)")
    }
    #expect(found.title.hasPrefix(#"OK\e]52;c;cHduZWQ=\x07\e]0;PWNED\x07\e[2J"#), "\(found.title)")
    #expect(found.type?.hasPrefix(#"Album\e]52"#) == true)
  }

  /// A server's sizes are not trusted: a title of a megabyte is cut, and an answer of
  /// thousands of release groups is read to a bound.
  @Test func longTextsAreCutAndManyGroupsAreBounded() throws {
    let long = String(repeating: "x", count: 1 << 20)
    let groups = (0..<1000).map { index -> [String: Any] in
      ["id": String(format: "%08d-0000-4000-8000-000000000000", index), "score": 100, "title": index == 0 ? long : "T"]
    }
    let data = try JSONSerialization.data(withJSONObject: ["release-groups": groups])
    let found = try #require(MusicBrainzSearch.candidates(fromJSON: data))
    #expect(found.count == MusicBrainzSearch.maximumCandidates)
    #expect(found.allSatisfy { $0.title.count <= MusicBrainzSearch.maximumTextLength + 1 })
  }
}
