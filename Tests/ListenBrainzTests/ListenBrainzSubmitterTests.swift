import BlueLibrary
import BluePlayback
import Foundation
import ListenBrainz
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The library file's queue as the submitter keeps listens (the shell's own adapter, over
/// the same ``ListenQueue``).
struct QueueStore: ListenStore {
  let queue: ListenQueue
  func add(_ listen: String, listenedAt: Int64) throws { try queue.add(listen, listenedAt: listenedAt) }
  func claim(_ limit: Int) throws -> [(id: Int64, listen: String)] { try queue.claim(limit).map { ($0.id, $0.listen) } }
  func remove(_ ids: [Int64]) throws { try queue.remove(ids) }
  func count() throws -> Int { try queue.count() }
}

/// Listens sent to a ListenBrainz look-alike on 127.0.0.1 that enforces the API's rules
/// (token, payload shapes, 1–1,000 listens, the rate limit): each reaches it once — online,
/// after the server was down, through its rate limit — from a real library file's queue
/// (issue 49, item 2).
@Suite(.serialized)
struct ListenBrainzSubmitterTests {
  let directory: TemporaryDirectory
  let library: Library
  let said = LockedBox<[String]>([])

  init() throws {
    directory = try TemporaryDirectory()
    library = try Library.open(path: directory.file("library.sqlite"))
  }

  /// A submitter sending to `server` with `token` (in the environment, or in the token
  /// file when `inFile`).
  func submitter(_ server: ListenBrainzLookalike, token: String? = nil, inFile: Bool = false) throws
    -> ListenBrainzSubmitter
  {
    let token = token ?? server.token
    var environment = ["BLUELIB_LISTENBRAINZ_URL": server.url]
    if inFile {
      try ListenBrainzToken.save(token, to: directory.file("listenbrainz-token"))
    } else {
      environment["BLUELIB_LISTENBRAINZ_TOKEN"] = token
    }
    let said = said
    return ListenBrainzSubmitter(
      settings: .init(
        environment: environment, tokenFile: directory.file("listenbrainz-token"), userAgent: "bluelib-tests/1",
        version: "0.1.0"),
      store: QueueStore(queue: library.listenQueue), player: nil, say: { line in said.update { $0.append(line) } })
  }

  static func track(_ number: Int, title: String = "Shine On") -> Player.Track {
    Player.Track(
      albumID: 1, album: "Wish You Were Here", artist: "Pink Floyd", number: number, title: "\(title) \(number)",
      duration: 4, path: "/m/\(number).mp3", trackArtist: number == 2 ? "Roy Harper" : nil,
      musicBrainz: Player.MusicBrainzIDs(
        recording: "8F3471B5-7E6A-48DA-86A9-C1C07A0F47AE", release: "not-a-uuid",
        releaseGroup: "4d1f0c2a-3b5e-4c6d-8e7f-9a0b1c2d3e4f"))
  }

  static let started: Int64 = 1_765_000_000

  func queued() -> Int { (try? library.listenQueue.count()) ?? -1 }

  @Test(.timeLimit(.minutes(1)))
  func aTrackIsPlayingNowThenOneListenWithItsStartAndTheLibrarysMetadata() throws {
    let server = try ListenBrainzLookalike()
    defer { server.stop() }
    let submitter = try submitter(server)
    defer { submitter.finish(within: 0) }
    submitter.handle(.started(Self.track(1), place: 1, count: 2))
    #expect(server.waitUntil { $0.playingNow.count == 1 })
    submitter.handle(.listened(Self.track(1), startedAt: Self.started))
    submitter.handle(.started(Self.track(2), place: 2, count: 2))
    submitter.handle(.listened(Self.track(2), startedAt: Self.started + 4))
    #expect(server.waitUntil { $0.listens.count == 2 && $0.playingNow.count == 2 })
    #expect(server.waitUntil { _ in queued() == 0 })
    let listens = server.listens
    #expect(listens.map(\.listenedAt) == [Self.started, Self.started + 4])
    #expect(listens.map(\.artist) == ["Pink Floyd", "Roy Harper"])
    #expect(listens.map(\.track) == ["Shine On 1", "Shine On 2"])
    #expect(listens.allSatisfy { $0.release == "Wish You Were Here" })
    let info = try #require(listens.first?.info)
    #expect(info["tracknumber"] == "1")
    #expect(info["duration_ms"] == "4000")
    #expect(info["recording_mbid"] == "8f3471b5-7e6a-48da-86a9-c1c07a0f47ae")
    #expect(info["release_group_mbid"] == "4d1f0c2a-3b5e-4c6d-8e7f-9a0b1c2d3e4f")
    // Not a UUID: left out, or ListenBrainz would refuse the whole listen.
    #expect(info["release_mbid"] == nil)
    #expect(info["media_player"] == "bluelib" && info["submission_client"] == "bluelib")
    #expect(info["submission_client_version"] == "0.1.0")
    #expect(server.playingNow.allSatisfy { $0.listenedAt == nil })
    #expect(server.invalid.isEmpty && server.tooManyRequests == 0)
    #expect(said.value.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func listensQueuedWhileTheServerIsDownAreSentOnceItIsUpAgain() throws {
    let first = try ListenBrainzLookalike()
    let port = first.port
    first.stop()
    let down = try ListenBrainzLookalike(port: port)
    down.stop()
    let submitter = try submitter(down)
    defer { submitter.finish(within: 0) }
    for number in 1...3 { submitter.handle(.listened(Self.track(number), startedAt: Self.started + Int64(number))) }
    // Kept in the library file, and said once.
    #expect(down.waitUntil { _ in queued() == 3 && !said.value.isEmpty })
    #expect(
      down.waitUntil { _ in submitter.status().problem?.hasPrefix("cannot reach the server") == true })
    let up = try ListenBrainzLookalike(port: port)
    defer { up.stop() }
    #expect(up.waitUntil { $0.listens.count == 3 })
    #expect(up.waitUntil { _ in queued() == 0 })
    #expect(up.listens.map(\.listenedAt) == [1, 2, 3].map { Self.started + $0 })
    #expect(up.invalid.isEmpty)
    let lines = said.value
    #expect(lines.filter { $0.contains("cannot be reached") }.count == 1, "\(lines)")
    // The line counts what waits when the first send fails: the thread may try after the
    // first listen is kept and before the other two are (a count fixed at 3 failed so).
    let waiting = ["1 listen waits", "2 listens wait", "3 listens wait"]
    #expect(
      lines.first.map { line in waiting.contains { line.contains($0 + " in the library") } } == true, "\(lines)")
  }

  @Test(.timeLimit(.minutes(1)))
  func theRateLimitHeadersAreObeyedAndA429IsWaitedOut() throws {
    // One request a two-second window, the first window used up: the first request is 429.
    let server = try ListenBrainzLookalike(limit: 1, window: 2, exhausted: true)
    defer { server.stop() }
    let submitter = try submitter(server)
    defer { submitter.finish(within: 0) }
    for number in 1...3 { submitter.handle(.listened(Self.track(number), startedAt: Self.started + Int64(number))) }
    #expect(server.waitUntil { $0.listens.count == 3 })
    // The answer said no request remains: the next listen waits for the window's end.
    submitter.handle(.listened(Self.track(4), startedAt: Self.started + 4))
    #expect(server.waitUntil { $0.listens.count == 4 })
    #expect(server.waitUntil { _ in queued() == 0 })
    #expect(server.listens.map(\.listenedAt) == [1, 2, 3, 4].map { Self.started + $0 })
    #expect(server.tooManyRequests == 1)
    #expect(server.batchSizes.reduce(0, +) == 4)
    #expect(server.invalid.isEmpty)
  }

  @Test(.timeLimit(.minutes(1)))
  func aRefusedTokenIsSaidOnceAndNothingIsSentUntilTheTokenChanges() throws {
    let server = try ListenBrainzLookalike()
    defer { server.stop() }
    let submitter = try submitter(server, token: "wrong-token-0000", inFile: true)
    defer { submitter.finish(within: 0) }
    submitter.handle(.listened(Self.track(1), startedAt: Self.started + 1))
    #expect(server.waitUntil { $0.unauthorized == 1 })
    #expect(server.waitUntil { _ in submitter.status().tokenRefused })
    for number in 2...3 { submitter.handle(.listened(Self.track(number), startedAt: Self.started + Int64(number))) }
    #expect(server.waitUntil { _ in queued() == 3 })
    // Kept, not dropped; tried no more.
    let requests = server.requests
    submitter.handle(.started(Self.track(3), place: 3, count: 3))
    #expect(server.waitUntil { _ in queued() == 3 })
    #expect(server.unauthorized == 1 && server.requests == requests)
    #expect(said.value.filter { $0.contains("refused the token") }.count == 1, "\(said.value)")
    // The right token: everything waiting goes.
    try ListenBrainzToken.save(server.token, to: directory.file("listenbrainz-token"))
    submitter.tokenChanged()
    #expect(server.waitUntil { $0.listens.count == 3 })
    #expect(server.waitUntil { _ in queued() == 0 })
    #expect(!submitter.status().tokenRefused)
  }

  @Test(.timeLimit(.minutes(1)))
  func aListenTheServerRefusesIsDroppedWithOneLineAndTheOthersAreSent() throws {
    let server = try ListenBrainzLookalike()
    defer { server.stop() }
    // Between two good ones, a listen without a track name (a file from an older build, or
    // damaged): the server refuses the batch.
    try library.listenQueue.add(
      Listen(Self.track(1), startedAt: Self.started + 1, version: "0.1.0").json, listenedAt: Self.started + 1)
    try library.listenQueue.add(
      #"{"listened_at":1765000002,"track_metadata":{"artist_name":"Pink Floyd"}}"#, listenedAt: Self.started + 2)
    try library.listenQueue.add(
      Listen(Self.track(3), startedAt: Self.started + 3, version: "0.1.0").json, listenedAt: Self.started + 3)
    let submitter = try submitter(server)
    defer { submitter.finish(within: 0) }
    #expect(submitter.start())
    #expect(server.waitUntil { _ in queued() == 0 })
    #expect(server.listens.map(\.listenedAt) == [Self.started + 1, Self.started + 3])
    #expect(said.value == ["ListenBrainz refused a listen (400): dropped"])
  }

  @Test(.timeLimit(.minutes(1)))
  func aBacklogGoesAsImportsOfAtMostAThousandListens() throws {
    let server = try ListenBrainzLookalike()
    defer { server.stop() }
    try library.listenQueue.add(
      contentsOf: (1...2_500).map { number in
        (
          Listen(Self.track(number), startedAt: Self.started + Int64(number), version: "0.1.0").json,
          Self.started + Int64(number)
        )
      })
    let submitter = try submitter(server)
    defer { submitter.finish(within: 0) }
    #expect(submitter.start())
    #expect(server.waitUntil { _ in queued() == 0 })
    #expect(server.batchSizes == [1_000, 1_000, 500])
    #expect(server.listens.map(\.listenedAt) == (1...2_500).map { Self.started + Int64($0) })
    #expect(server.invalid.isEmpty)
  }
}
