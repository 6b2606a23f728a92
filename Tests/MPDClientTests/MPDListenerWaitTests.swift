import Foundation
import MPDClient
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The wait for the listener's connection (``MPDServer/startFollowing()`` returns once it is
/// open, failed or stopped) sleeps on a pipe the listener writes to, not in a look every
/// 2 ms (issue 47, item 5), and still ends at once when it is told to.
@Suite struct MPDListenerWaitTests {
  /// A server that accepts and never greets: the listener waits `timeout` for a greeting.
  private func silentServer(_ fake: FakeMPD, timeout: Double) -> MPDServer {
    MPDServer(
      address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: fake.port)), timeout: timeout, pollInterval: 0)
  }

  #if os(Linux)
    /// How many times the calling thread gave up the processor of its own accord (a sleep,
    /// a blocking call) so far.
    private func voluntarySwitches() throws -> Int {
      let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
      let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
      return try #require(line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) })
    }

    @Test(.timeLimit(.minutes(1)))
    func theWaitForTheListenerSleepsUntilTheListenerWakesIt() throws {
      let fake = try FakeMPD([.silent])
      defer { fake.stop() }
      let server = silentServer(fake, timeout: 1)
      defer { server.stop() }
      let (before, started) = (try voluntarySwitches(), ContinuousClock.now)
      // The listener's connection fails after 1 s without a greeting: the wait ends then.
      server.startFollowing()
      let (switches, waited) = (try voluntarySwitches() - before, ContinuousClock.now - started)
      #expect(waited >= .milliseconds(900) && waited < .seconds(10), "\(waited)")
      // A look every 2 ms woke it about 500 times in that second.
      #expect(switches < 50, "\(switches) wake-ups in \(waited)")
    }
  #endif

  @Test(.timeLimit(.minutes(1)))
  func theWaitForTheListenerEndsAtOnceWhenTheServerIsStopped() throws {
    let fake = try FakeMPD([.silent])
    defer { fake.stop() }
    let server = silentServer(fake, timeout: 30)
    let stopper = Thread {
      usleep(200_000)
      server.stop()
    }
    let started = ContinuousClock.now
    stopper.start()
    server.startFollowing()
    let waited = ContinuousClock.now - started
    #expect(waited < .seconds(10), "waited \(waited) of the listener's 30 s")
  }
}
