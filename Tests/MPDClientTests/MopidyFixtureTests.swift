import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// The real Mopidy the client's tests talk to beside the real MPD (``MopidyFixture``):
  /// skipped, saying which packages to install, where Mopidy is not installed.
  @Suite(.serialized, .enabled(if: MopidyFixture.isInstalled, Comment(rawValue: MopidyFixture.unavailable)))
  struct MopidyFixtureTests {
    @Test func mopidyGreetsAsMPDListsTheAlbumsOfItsFolderAndLeavesNoProcessWhenStopped() throws {
      let mopidy = try MopidyFixture(prepare: MPDFixture.sampleMusic)
      try mopidy.start()
      let group = try #require(mopidy.processIdentifier)
      #expect(try mopidy.greeting().hasPrefix("OK MPD "))
      // Mopidy lists the albums in no set order.
      let lines = try mopidy.request("list album").split(separator: "\n").map(String.init)
      #expect(lines.last == "OK")
      #expect(lines.count == 4)
      #expect(Set(lines.dropLast()) == ["Album: Innuendo", "Album: The Wall", "Album: Hits"])
      mopidy.stop()
      #expect(mopidy.log.contains("got SIGTERM. Exiting"), "it ended on SIGTERM, which it was not blind to")
      #expect(mopidy.processIdentifier == nil)
      #expect(kill(-group, 0) != 0 && errno == ESRCH, "no process of its group is left")
      #expect(throws: (any Error).self, "nothing listens on its port once stopped") { try mopidy.greeting() }
    }
  }
}
