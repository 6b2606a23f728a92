import BlueCovers
import BlueLibrary
import Testing

@testable import BlueShell

/// The `downloads` list: the current state of each cover, not an ever-growing log.
struct CoverStatusReporterTests {
  let reporter = CoverStatusReporter(messages: MessageQueue(), showsTimes: false)

  func finish(_ url: String, _ album: String, at order: Int = .max, fromCache: Bool = false) {
    reporter.handle(
      .finished(
        url: url, albums: [CoverRequester(title: album, order: order)], bytes: 3500, seconds: 0.1,
        fromCache: fromCache))
  }

  @Test func aCoverAskedForAgainReplacesItsLineInsteadOfAddingOne() {
    // Each line stands where its album does: A (at 0) before B (at 1), however they came.
    finish("bluelib:b", "B", at: 1)
    finish("bluelib:a", "A", at: 0)
    finish("bluelib:a", "A", at: 0, fromCache: true)
    finish("bluelib:a", "A", fromCache: true)
    #expect(reporter.finished == ["cover of \"A\": cached (3.4 KB)", "cover of \"B\": 3.4 KB"])
  }

  @Test func aFailureThenASuccessShowsOnlyTheSuccess() {
    reporter.handle(.failed(url: "http://x/c.png", albums: [CoverRequester(title: "C")], .httpStatus(404)))
    finish("http://x/c.png", "C")
    #expect(reporter.finished == ["cover of \"C\": 3.4 KB"])
  }

  @Test func theListIsBounded() {
    for index in 0..<(CoverStatusReporter.remembered + 50) {
      finish("bluelib:\(index)", "Album \(index)")
    }
    let finished = reporter.finished
    #expect(finished.count == CoverStatusReporter.remembered)
    // The oldest are forgotten first.
    #expect(!finished.contains("cover of \"Album 0\": 3.4 KB"))
    #expect(finished.contains("cover of \"Album \(CoverStatusReporter.remembered + 49)\": 3.4 KB"))
  }

  /// An outcome that came again since is kept by its newest arrival: the oldest ones go
  /// first, and a cover reported twice is not forgotten for its first report.
  @Test func theListForgetsByTheNewestArrivalOfEachCover() {
    finish("bluelib:kept", "Kept")
    for index in 0..<(CoverStatusReporter.remembered - 10) { finish("bluelib:\(index)", "Album \(index)") }
    finish("bluelib:kept", "Kept")
    for index in 0..<20 { finish("bluelib:more-\(index)", "More \(index)") }
    let finished = reporter.finished
    #expect(finished.count == CoverStatusReporter.remembered)
    #expect(finished.contains("cover of \"Kept\": 3.4 KB"))
    #expect(!finished.contains("cover of \"Album 10\": 3.4 KB") && finished.contains("cover of \"Album 11\": 3.4 KB"))
  }

  @Test func statusLinesWaitingToBePrintedAreBoundedAndTheRestCounted() {
    let messages = MessageQueue()
    for index in 0..<(MessageQueue.limit + 500) { messages.post("line \(index)", order: index) }
    let lines = messages.drain()
    #expect(lines.count == MessageQueue.limit + 1)
    #expect(lines.first == "line 0")
    #expect(lines[MessageQueue.limit - 1] == "line \(MessageQueue.limit - 1)")
    #expect(lines.last == "… and 500 more lines not shown ('downloads' lists the latest)")
    // Drained: the next lines start afresh.
    messages.post("after")
    #expect(messages.drain() == ["after"])
  }

  /// A server without a picture for an album is an answer, as the archive's none: not a
  /// failure, summed up as such (issue 47, item 3).
  @Test func noneOnTheServerIsAnAnswerNotAFailure() {
    let messages = MessageQueue()
    let reporter = CoverStatusReporter(messages: messages, showsTimes: false)
    reporter.expect(2)
    reporter.handle(
      .finished(
        url: "mpd://h:1/A/01.flac", albums: [CoverRequester(title: "A", order: 0)], bytes: 10, seconds: 0.1,
        fromCache: false))
    reporter.handle(
      .failed(
        url: "mpd://h:1/B/01.ogg", albums: [CoverRequester(title: "B", order: 1)],
        .noneOnServer(server: "MPD at h:1", song: "B/01.ogg")))
    #expect(
      messages.drain() == [
        "cover of \"A\": 10 bytes",
        "cover of \"B\": none on MPD at h:1 (no picture in 01.ogg, no cover file in its folder)",
        "1 cover downloaded, 1 album has none on the server, 0 failed",
      ])
  }

  /// A cover a card asked for has no line of its own (the card shows it) and is not counted
  /// in `download`'s tally; its landing wakes the prompt, to draw the cards again.
  @Test func aCoverACardAskedForHasNoLineAndIsToldToTheCards() {
    let messages = MessageQueue()
    let reporter = CoverStatusReporter(messages: messages, showsTimes: false)
    reporter.handle(
      .finished(
        url: "mpd://h:1/A/01.flac", albums: [CoverRequester(title: "A", order: 0, forCard: true)], bytes: 10,
        seconds: 0.1, fromCache: false))
    #expect(messages.drain().isEmpty)
    #expect(reporter.finished.isEmpty)
    #expect(messages.takeCardCoverLanded())
    #expect(!messages.takeCardCoverLanded())
    // Asked for by `download` too: its line, once.
    reporter.handle(
      .failed(
        url: "mpd://h:1/B/01.ogg",
        albums: [CoverRequester(title: "B", order: 1, forCard: true), CoverRequester(title: "B", order: 1)],
        .httpStatus(500)))
    #expect(messages.drain() == ["cover of \"B\" failed: HTTP 500"])
    #expect(messages.takeCardCoverLanded())
  }
}
