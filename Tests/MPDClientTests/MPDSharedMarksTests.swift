import BlueLibrary
import Foundation
import MPDClient
import MusicFolder
import TestSupport
import Testing

extension RunsAlone {
  /// Ratings and favourite marks of a server's albums against a real MPD with a sticker file:
  /// the server's are the albums', and one this library could not send waits for the next sync.
  @Suite(.serialized)
  struct MPDSharedMarksTests {
    private func server(_ mpd: MPDFixture) -> MPDServer {
      MPDServer(
        address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: mpd.port), password: nil), timeout: 5)
    }

    @Test func aRatingTheServerCouldNotTakeWaitsInTheLibraryAndGoesWithTheNextSync() throws {
      let mpd = try MPDFixture(prepare: MPDFixture.sampleMusic)
      try mpd.start()
      let server = server(mpd)
      defer { server.stop() }
      let library = Library.inMemory(seed: [], source: server)
      try library.sync()
      let index = try #require(try library.allAlbums().firstIndex { $0.title == "Innuendo" })

      mpd.stop()
      // A note of the change, not an error: the change stands (issue 47, item 1).
      let waits = "(kept in this library; sent to the server at the next start)"
      #expect(try library.rate(at: [index], stars: 4).count == 1)
      #expect(library.takeSourceNote()?.hasSuffix(waits) == true)
      #expect(try library.rate(at: [index], stars: 2).count == 1)
      #expect(library.takeSourceNote()?.hasSuffix(waits) == true)
      #expect(library.takeSourceNote() == nil)
      #expect(try library.album(at: index).rating == 2)

      try mpd.start()
      let synced = try library.sync()
      #expect(
        synced.notices == [
          "sent to \(server.name) the ratings of 1 album that had not reached it"
        ])
      #expect(try server.sticker("rating", ofSong: "Queen/Innuendo/02 Headlong.mp3") == "4")
      #expect(try library.album(at: index).rating == 2)
      // Sent: the next sync has nothing to send, and the server's rating stands.
      #expect(try library.sync().notices.isEmpty)
      #expect(try library.album(at: index).rating == 2)
    }
  }
}
