import BlueLibrary
import BluePlayback
import Foundation
import PlaybackTestSupport
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A play the player counts travels as an event carrying the album and the time, through
/// the message queue that carries the now-playing lines, and the terminal owner's delivery
/// records it in the library: nothing asks the player what was played (issue 37, item 2).
@Suite struct MessageDeliveryTests {
  /// The player's events go to the fixture's queue, as the session's go to its own.
  let fixture: PlaybackFixture
  var shell: InProcessShell { fixture.shell }
  var engine: ScriptedAudioEngine { fixture.engine }
  var delivery: MessageDelivery { fixture.delivery }

  init() throws {
    fixture = try PlaybackFixture()
  }

  /// `$played $title` of the albums played, as `list` prints it.
  func played() -> [String] {
    _ = shell.output()
    #expect(shell.run("list -f '$played $title' played:1..") == [])
    return shell.lines()
  }

  @Test func aPlayIsRecordedOnceWhenItsEventIsDelivered() throws {
    let start = Int64(time(nil))
    #expect(shell.run("tap Alpha; play") == [])
    _ = delivery.take()
    _ = fixture.woken()
    // The first track ends: Alpha is counted, and the owner is woken to record it.
    engine.finishCurrent()
    #expect(fixture.woken())
    #expect(delivery.take() == ["▶ X — Alpha — 02 A2 (0:01)"])
    #expect(played() == ["1 Alpha"])
    let last = try #require(try shell.library.plays(of: shell.library.album(at: 0)).last)
    #expect(last >= start && last <= Int64(time(nil)))
    // Its second track ends, and the queue: Alpha was counted for this queue already.
    engine.finishCurrent()
    #expect(delivery.take() == ["■ end of the queue"])
    #expect(played() == ["1 Alpha"])
    // A new queue counts again: a stop past half of the track counts it (told on this
    // thread), a stop before half does not.
    #expect(shell.run("play") == [])
    engine.advance(by: 100)
    #expect(shell.run("stop") == [])
    _ = delivery.take()
    #expect(played() == ["2 Alpha"])
    #expect(shell.run("play; stop") == [])
    _ = delivery.take()
    #expect(played() == ["2 Alpha"])
    #expect(delivery.takeFailures() == [])
  }
}
