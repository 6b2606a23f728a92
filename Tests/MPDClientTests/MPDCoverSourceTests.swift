import BlueCovers
import Foundation
import MPDClient
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// Covers read from servers that creep or change their story between chunks.
  @Suite(.serialized)
  struct MPDCoverSourceTests {
    private func source(_ fake: FakeMPD, timeout: Double) -> MPDCoverSource {
      MPDCoverSource(
        server: MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: fake.port)), timeout: timeout))
    }

    /// A server that sends a chunk's bytes one at a time, each well within the server's
    /// timeout: the whole read still ends at the download's own timeout.
    @Test(.timeLimit(.minutes(1)))
    func aCoverThatCreepsInEndsAtTheDownloadsTimeout() async throws {
      let fake = try FakeMPD([
        .scripted { command in
          guard command.hasPrefix("readpicture") else { return FakeMPD.album(command) }
          // 40 bytes in 10 s, then nothing more: the code before the fix waited for them all.
          return .trickle(
            first: Array("size: 1000\nbinary: 1000\n".utf8), slowly: [UInt8](repeating: 0x41, count: 40), pause: 0.25)
        }
      ])
      defer { fake.stop() }
      let covers = source(fake, timeout: 5)
      await #expect(throws: CoverFailure.timedOut(seconds: 2)) {
        try await covers.fetch(
          covers.server.root + "/A/Album/01.flac", limits: CoverLimits(timeout: .seconds(2), maxBytes: 10 << 20))
      }
      // The read ended at the download's timeout, so the client hung up in the middle of the
      // trickle: counted in bytes, not timed (a loaded machine slows both sides alike).
      let ceiling = ContinuousClock.now + .seconds(40)
      while fake.trickles.isEmpty && ContinuousClock.now < ceiling { try await Task.sleep(for: .milliseconds(50)) }
      let trickle = try #require(fake.trickles.first)
      #expect(trickle.sent < trickle.of, "the client waited for all \(trickle.of) slow bytes")
    }

    @Test func aPictureWhoseSizeChangesBetweenChunksIsRefused() async throws {
      let fake = try FakeMPD([
        .scripted { command in
          guard command.hasPrefix("readpicture") else { return FakeMPD.album(command) }
          // One byte a chunk, the size one more than what was read so far: never done.
          let offset = Int(command.split(separator: "\"").last ?? "") ?? 0
          return .send("size: \(offset + 2)\nbinary: 1\nx\nOK\n")
        }
      ])
      defer { fake.stop() }
      let covers = source(fake, timeout: 5)
      await #expect(
        throws: CoverFailure.downloadFailed(
          "MPD at 127.0.0.1:\(fake.port): an answer that is not MPD's protocol (the picture's size changed from 2 to 3 bytes)"
        )
      ) {
        try await covers.fetch(covers.server.root + "/A/Album/01.flac", limits: .standard)
      }
    }
  }
}
