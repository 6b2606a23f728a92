import BluePlayback
import Foundation
import MPDClient
import MusicFolder
import MusicSource
import TestSupport
import Testing

extension RunsAlone {
  /// The listener against a real Mopidy, which has no stickers and waits for ever in `idle`
  /// on a subsystem it does not know (issue 47, item 3): it asks only for those Mopidy has,
  /// so what another client plays there is still told.
  @Suite(.serialized, .enabled(if: MopidyFixture.isInstalled, Comment(rawValue: MopidyFixture.unavailable)))
  struct MPDListenerMopidyTests {
    @Test(.timeLimit(.minutes(1)))
    func whatAnotherClientPlaysOnMopidyIsTold() throws {
      let mopidy = try MopidyFixture { music in
        try MPDFixture.silence(
          30, at: "Various/Hits/01.ogg", in: music, TagEdit(album: "Hits", artist: "U2", title: "One", trackNumber: "1")
        )
      }
      try mopidy.start()
      let proxy = try MPDProxy(to: mopidy.port)
      defer { proxy.stop() }
      let server = MPDServer(address: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: proxy.port)), timeout: 5)
      defer { server.stop() }
      let events = LockedBox<[SourceEvent]>([])
      server.setEventHandler { event in events.update { $0.append(event) } }
      server.startFollowing()
      let engine = try MPDEngine(server: server)
      let told = LockedBox<[EngineEvent]>([])
      engine.observe { event in told.update { $0.append(event) } }
      let answer = try mopidy.request("add \"local:track:Various/Hits/01.ogg\"", "play")
      #expect(answer == "OK\nOK\n", "\(answer)")
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline, told.value.isEmpty { usleep(50_000) }
      guard case .startedOther(let track, index: 0, count: 1)? = told.value.first else {
        Issue.record("nothing told: \(told.value), \(events.value)")
        return
      }
      #expect(track.title == "One")
      // No refusal of `idle` was said; no subsystem Mopidy does not list was asked for.
      #expect(!events.value.contains { if case .notice = $0 { true } else { false } }, "\(events.value)")
      let idles = Set(proxy.commands.filter { $0.hasPrefix("idle") })
      #expect(idles == ["idle \"database\" \"player\" \"mixer\" \"playlist\""], "\(idles)")
      _ = try? mopidy.request("stop")
    }
  }
}
