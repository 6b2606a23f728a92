import BlueCovers
import BlueLibrary
import BlueSystem
import Synchronization

/// The shell's observer of cover downloads: turns each outcome into one status line for
/// the terminal's owner (never printing itself) and remembers finished ones for `downloads`.
///
/// - Important: ``handle(_:)`` runs on the loader's delivery queue; everything here is locked.
final class CoverStatusReporter: Sendable {
  private let messages: MessageQueue
  private let showsTimes: Bool
  private let state = Mutex(State())

  /// The latest outcome of each (URL, album).
  private struct State {
    /// Keyed by URL and album title; a later outcome replaces an earlier one.
    var latest: [String: (order: Int, sequence: Int, text: String)] = [:]
    /// The keys of `latest` as their outcomes came, oldest first from `oldestKey` (a key
    /// whose outcome came again since is there twice; its older copy is passed over).
    var arrivals: [(key: String, sequence: Int)] = []
    var oldestKey = 0
    var sequence = 0
    /// The outcomes of the downloads `download` started and has not summed up yet.
    var tally = Tally()

    /// Forgets the oldest outcomes past ``CoverStatusReporter/remembered``: amortized
    /// O(1) an outcome, where sorting them all for each one made `download all` on
    /// 100,000 albums take minutes.
    mutating func forgetOldest() {
      while latest.count > CoverStatusReporter.remembered, oldestKey < arrivals.count {
        let (key, sequence) = arrivals[oldestKey]
        oldestKey += 1
        if latest[key]?.sequence == sequence { latest[key] = nil }
      }
      if oldestKey >= 1024, oldestKey * 2 >= arrivals.count {
        arrivals.removeFirst(oldestKey)
        oldestKey = 0
      }
    }
  }

  /// The most outcomes `downloads` remembers (the oldest are forgotten first).
  static let remembered = 1000

  /// The outcomes of a batch of downloads, for the line that sums it up.
  struct Tally {
    var expected = 0
    var seen = 0
    var downloaded = 0
    var none = 0
    var noneOnServer = 0
    var failed = 0
    var cancelled = 0

    /// `11 covers downloaded, 59 albums have none in the archive, 0 failed`.
    var summary: String {
      var parts = ["\(Library.counted(downloaded, "cover")) downloaded"]
      if none > 0 { parts.append("\(Library.albumCount(none)) \(none == 1 ? "has" : "have") none in the archive") }
      if noneOnServer > 0 {
        parts.append("\(Library.albumCount(noneOnServer)) \(noneOnServer == 1 ? "has" : "have") none on the server")
      }
      parts.append("\(Library.grouped(failed)) failed")
      if cancelled > 0 { parts.append("\(Library.grouped(cancelled)) cancelled") }
      return parts.joined(separator: ", ")
    }
  }

  /// `download` started `count` downloads (not counting covers found in the cache or read
  /// from the albums' own files): once that many have reported, a line sums them up —
  /// when there were more than one.
  func expect(_ count: Int) {
    guard count > 0 else { return }
    state.withLock { state in
      if state.tally.seen >= state.tally.expected { state.tally = Tally() }
      state.tally.expected += count
    }
  }

  /// Creates a reporter posting to `messages`; `showsTimes` adds the download time (on a
  /// terminal; scripts leave it out so their output is the same every run).
  init(messages: MessageQueue, showsTimes: Bool) {
    self.messages = messages
    self.showsTimes = showsTimes
  }

  /// The latest outcome of each cover asked for (one line per album: a cover fetched
  /// again or found in the cache replaces its earlier line), in album order, at most
  /// ``remembered`` of them.
  var finished: [String] {
    state.withLock { state in
      state.latest.values.sorted { ($0.order, $0.sequence) < ($1.order, $1.sequence) }.map(\.text)
    }
  }

  /// Handles one loader event.
  func handle(_ event: CoverEvent) {
    guard event.isTerminal else { return }
    var event = event
    if event.albums.contains(where: \.forCard) {
      // A cover a card asked for: the card shows it, drawn again once it lands; a line
      // only for the albums `download` asked for too.
      messages.coverLandedForCard()
      let asked = event.albums.filter { !$0.forCard }
      guard !asked.isEmpty else { return }
      event = event.for(asked)
    }
    let lines = event.albums.map { Self.line(for: event, album: $0.title, showsTimes: showsTimes) }
    // Each line stands where its album stands (the event says); one asked for from nowhere
    // keeps the place of its earlier line.
    let (orders, summary) = state.withLock { state in
      let orders = event.albums.map { album in
        album.order != .max ? album.order : state.latest[event.url + "\u{0}" + album.title]?.order ?? .max
      }
      for ((album, line), order) in zip(zip(event.albums, lines), orders) {
        state.sequence += 1
        let key = event.url + "\u{0}" + album.title
        state.latest[key] = (order, state.sequence, line)
        state.arrivals.append((key, state.sequence))
      }
      state.forgetOldest()
      return (orders, Self.count(event, in: &state.tally))
    }
    // Only a real download prints a line: a cover found in the cache (the command counted
    // it) or read from the album's files or folder says nothing unless it failed
    // (`downloads` still lists it).
    if case .finished(_, _, _, _, let fromCache) = event, fromCache || LocalCover.isLocal(event.url) { return }
    for (line, order) in zip(lines, orders) { messages.post(line, order: order) }
    // Last, after every line of the batch (a script prints them in album order).
    if let summary { messages.post(summary, order: .max) }
  }

  /// Counts `event` in `tally` when it is the outcome of a download `download` started (not
  /// a cover from the cache or the album's files); the summary line once the batch is done.
  private static func count(_ event: CoverEvent, in tally: inout Tally) -> String? {
    guard tally.seen < tally.expected, !LocalCover.isLocal(event.url) else { return nil }
    let albums = event.albums.count
    switch event {
    case .finished(_, _, _, _, true): return nil
    case .finished: tally.downloaded += albums
    case .failed(_, _, .notInArchive): tally.none += albums
    case .failed(_, _, .noneOnServer): tally.noneOnServer += albums
    case .failed(_, _, .cancelled): tally.cancelled += albums
    case .failed: tally.failed += albums
    default: return nil
    }
    tally.seen += albums
    guard tally.seen >= tally.expected else { return nil }
    return tally.expected > 1 ? tally.summary : nil
  }

  /// `cover of "Title": 4.2 KB in 0.31 s`, or `cover of "Title" failed: HTTP 404`.
  static func line(for event: CoverEvent, album: String, showsTimes: Bool) -> String {
    let name = "cover of \"" + TextSanitizer.escaped(album) + "\""
    switch event {
    case .finished(_, _, let bytes, let seconds, let fromCache):
      if fromCache { return name + ": cached (\(formatBytes(bytes)))" }
      return name + ": " + formatBytes(bytes) + (showsTimes ? " in " + formatSeconds(seconds) : "")
    case .failed(_, _, .notInArchive(let release, let group)):
      // An answer, not a failure: the archive has no cover for it.
      return name + ": " + CoverFailure.notInArchive(release: release, group: group).description
    case .failed(_, _, .noneOnServer(let server, let song)):
      // An answer too: the server has no picture for it.
      return name + ": " + CoverFailure.noneOnServer(server: server, song: song).description
    case .failed(_, _, let failure):
      return name + " failed: " + TextSanitizer.escaped(failure.description)
    default:
      return name
    }
  }

  static func formatBytes(_ bytes: Int) -> String {
    if bytes < 1024 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
    if bytes < 1 << 20 { return oneDecimal(Double(bytes) / 1024) + " KB" }
    return oneDecimal(Double(bytes) / Double(1 << 20)) + " MB"
  }

  static func formatSeconds(_ seconds: Double) -> String {
    seconds < 10 ? String(format2(seconds)) + " s" : "\(Int(seconds.rounded())) s"
  }

  private static func oneDecimal(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  private static func format2(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
  }
}

extension CoverEvent {
  /// The same outcome, for `albums`.
  fileprivate func `for`(_ albums: [CoverRequester]) -> CoverEvent {
    switch self {
    case .queued(let url, _): .queued(url: url, albums: albums)
    case .started(let url, _): .started(url: url, albums: albums)
    case .finished(let url, _, let bytes, let seconds, let fromCache):
      .finished(url: url, albums: albums, bytes: bytes, seconds: seconds, fromCache: fromCache)
    case .failed(let url, _, let failure): .failed(url: url, albums: albums, failure)
    }
  }
}
