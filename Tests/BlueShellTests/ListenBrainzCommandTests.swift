import Testing

@testable import BlueShell

/// `listenbrainz`'s words: a line that sets a token stays out of the history (issue 49,
/// item 2), in any case and among other commands; every other line goes in.
struct ListenBrainzCommandTests {
  @Test(arguments: [
    ("listenbrainz token 0b1c2d3e-4f50", true),
    ("  ListenBrainz   TOKEN\tabc", true),
    ("play 1; listenbrainz token abc; next", true),
    ("listenbrainz token", false),
    ("listenbrainz token ;play", false),
    ("listenbrainz", false),
    ("listenbrainz forget", false),
    ("find token listenbrainz", false),
    ("quit", false),
    ("", false),
  ])
  func aLineThatSetsATokenStaysOutOfTheHistory(line: String, kept: Bool) {
    #expect(ListenBrainzCommand.keepsOutOfHistory(line) == kept)
  }

  @Test func aTokenIsNeverQuotedBackWhenRefused() throws {
    #expect(throws: CommandError.self) { try ListenBrainzCommand(arguments: [Word("token"), Word("two words")]) }
    do {
      _ = try ListenBrainzCommand(arguments: [Word("token"), Word("secret part")])
    } catch {
      #expect(!error.description.contains("secret"))
    }
  }
}
