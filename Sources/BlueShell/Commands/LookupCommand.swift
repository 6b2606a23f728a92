import AlbumModel
import BlueCovers
import BlueLibrary
import BlueSystem
import BlueText
import Synchronization

/// `lookup [--retry] [ALBUM…|all]`: find the MusicBrainz release group of albums that have
/// no cover and no MusicBrainz id, so that `download` finds their covers in the Cover Art
/// Archive.
struct LookupCommand: AlbumChoosingCommand {
  static let configuration = CommandConfiguration(
    verb: "lookup", group: .covers, synopsis: "[--retry] [ALBUM…|all]",
    summary: "find the MusicBrainz release group of albums without a cover (then 'download')",
    details: """
      Asks MusicBrainz's search (BLUELIB_MUSICBRAINZ_URL: a mirror), one request a second as it
      asks, about each album that has no cover and no MusicBrainz id (the current one by
      default; 'all' is every such album of the view), by its title and artist. A match is
      taken only when it is clear: the one release group whose title and artist are the
      album's (accents and case aside), or of several such the one scored 90 or more, and of
      its year when the album has one. It becomes the album's cover (caa:release-group/ID),
      saved at once; the albums one run finds are one step, which 'undo' takes back.
      'download' then fetches the covers from the Cover Art Archive. An unclear match is
      listed with its candidates, never guessed: 'edit N cover=caa:release-group/ID' takes
      one. Albums MusicBrainz has nothing like are counted in the last line, listed by
      'find lookup:none', and left out of 'lookup all' for 30 days ('--retry' asks again).
      Three failures in a row (MusicBrainz unreachable) end the run. Ctrl-C stops and keeps
      what was found. Set BLUELIB_CONTACT (your e-mail address or web page) to name a
      contact in each request, as MusicBrainz asks.
      """,
    examples: ["lookup", "lookup all", "find art:none; lookup all; download all", "lookup --retry all"],
    arguments: [.album])

  let choice: AlbumChoice
  /// `--retry`: ask again about albums MusicBrainz had nothing like in the last 30 days.
  let retry: Bool

  init(arguments: [Word]) throws(CommandError) {
    (choice, retry) = try AlbumChoice.parse(arguments, option: "--retry")
  }

  /// The contact MusicBrainz is told of (`BLUELIB_CONTACT`, without control characters: it
  /// goes into a header), or nil when there is none.
  static func contact(in environment: [String: String]) -> String? {
    var text = String.UnicodeScalarView()
    for scalar in (environment["BLUELIB_CONTACT"] ?? "").unicodeScalars
    where scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) {
      text.append(scalar)
    }
    let contact = String(text).trimming(.whitespaces)
    return contact.isEmpty ? nil : contact
  }

  /// Whether this process said how to name a contact: once is enough.
  private static let saidHowToNameAContact = Atomic<Bool>(false)

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    guard library.musicBrainz != nil else { throw CommandError("MusicBrainz look-ups are off in this shell") }
    let indices = choice.all ? [] : try choice.indices(in: library)
    let plan = try library.lookupPlan(all: choice.all, indices: indices, retry: retry)
    let left = Self.leftOut(plan)
    guard !plan.ids.isEmpty else {
      if plan.remembered > 0 { return .lines(["nothing to look up: " + left.joined(separator: "; ")]) }
      let what = choice.all || indices.count > 1 ? "none of these albums needs" : "the album does not need"
      throw CommandError("\(what) a look-up: each has a cover or a MusicBrainz id (or no artist to look it up by)")
    }
    let progress = environment.progressLine
    var heard = false
    var unclear: [(id: Int64, candidates: [MusicBrainzSearch.Candidate])] = []
    let outcome = try library.lookUp(
      plan, timeout: library.downloadTimeout,
      progress: { place, count, album in
        progress?("looking up \(place + 1) of \(count): \(TextSanitizer.escaped(album.title))")
      }, shouldStop: environment.cancellation.check(),
      report: { answer in
        progress?(nil)
        if !heard {
          // Said once MusicBrainz answers: before, it might promise what cannot happen.
          heard = true
          if plan.ids.count > 1 {
            environment.announce(
              "looking up \(albumCount(plan.ids.count)) in MusicBrainz, one a second (about "
                + "\(Self.duration(seconds: plan.ids.count)); Ctrl-C stops and keeps what was found)")
          }
          if Self.contact(in: environment.processEnvironment) == nil,
            Self.saidHowToNameAContact.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
          {
            environment.announce(
              "(MusicBrainz asks for a contact with each search: set BLUELIB_CONTACT to your e-mail address or web page)"
            )
          }
        }
        // Unclear albums are listed together at the end, numbered as the view then stands
        // (albums found meanwhile leave `find art:none`).
        if case .unclear(let album, let candidates) = answer, let id = album.id {
          unclear.append((id, candidates))
        }
        for line in Self.lines(answer) { environment.announce(line) }
      })
    progress?(nil)
    var stored: [Int64: Album] = [:]
    if !unclear.isEmpty {
      for album in try library.albums(ids: unclear.map(\.id)) { stored[album.id ?? -1] = album }
    }
    for (id, candidates) in unclear {
      // Deleted meanwhile, in another shell: nothing to choose for.
      guard let album = stored[id] else { continue }
      // Its number now, in the view as it is now.
      let number = library.index(of: album).map { String($0 + 1) } ?? "N"
      environment.announce(
        "? \(Self.name(album)): \(Library.counted(candidates.count, "candidate")), none clearly it "
          + "('edit \(number) cover=caa:release-group/ID' takes one):")
      for candidate in candidates { environment.announce("    " + Self.describe(candidate)) }
    }
    var summary =
      "looked up \(albumCount(outcome.asked)): \(outcome.found) found, \(outcome.unclear) unclear, "
      + "\(outcome.notFound) not found"
      + (outcome.notFound > 0 ? " ('find lookup:none' lists \(outcome.notFound == 1 ? "it" : "them"))" : "")
      + ", \(outcome.failed) failed"
    var notes = left
    if outcome.changedSince > 0 { notes.append("\(albumCount(outcome.changedSince)) changed meanwhile left alone") }
    if outcome.stopped { notes.append("stopped by a signal, what was found is kept") }
    if !notes.isEmpty { summary += "; " + notes.joined(separator: "; ") }
    if outcome.found > 0 { summary += " ('download' fetches the covers found; 'undo' takes them back)" }
    if let reason = outcome.gaveUp {
      // A script's exit status says the run did not do its job.
      let gaveUp =
        "MusicBrainz could not be asked \(Library.lookupFailuresInARow) times in a row (\(reason)): stopped, "
        + "\(albumCount(outcome.notAsked)) not asked"
      throw CommandError(gaveUp + "; " + (outcome.asked == outcome.failed ? "nothing was looked up" : summary))
    }
    // Asked of nobody: the service could not be reached.
    if outcome.asked > 0 && outcome.failed == outcome.asked, let reason = outcome.firstFailure {
      throw CommandError("MusicBrainz could not be asked (\(reason)); nothing was looked up")
    }
    return outcome.found == 0 ? .lines([summary]) : .changed(summary, redraw: false)
  }

  /// The albums the plan left out, and why.
  private static func leftOut(_ plan: LookupPlan) -> [String] {
    var notes: [String] = []
    if plan.remembered > 0 {
      notes.append(
        "\(albumCount(plan.remembered)) not found in the last 30 days left out ('lookup --retry all' asks again)")
    }
    if plan.leftAlone > 0 { notes.append("\(albumCount(plan.leftAlone)) with a cover or an id left alone") }
    return notes
  }

  /// The lines an answer prints as it comes: a found album, or a failure. A "not found"
  /// prints none (the last line counts them), an unclear one is listed at the end.
  private static func lines(_ answer: LookupAnswer) -> [String] {
    switch answer {
    case .found(let album, let candidate):
      ["✓ \(name(album)): release group \(candidate.id.prefix(8)) (\(describe(candidate).prefix(4)))"]
    case .unclear, .notFound:
      []
    case .failed(let album, let reason):
      ["✗ \(name(album)): \(TextSanitizer.escaped(reason))"]
    }
  }

  /// `"Title" — Artist`, escaped.
  private static func name(_ album: Album) -> String {
    "\"\(TextSanitizer.escaped(album.title))\" — \(TextSanitizer.escaped(album.artist))"
  }

  /// A candidate's year, id, title, artist, type and score. Its texts were escaped as
  /// MusicBrainzSearch read them; escaped again here (which changes nothing) so that no
  /// text reaches the terminal unlooked at.
  private static func describe(_ candidate: MusicBrainzSearch.Candidate) -> String {
    "\(candidate.year.map(String.init) ?? "----")  \(candidate.id)  \"\(TextSanitizer.escaped(candidate.title))\" — "
      + "\(TextSanitizer.escaped(candidate.artist)) ("
      + "\(candidate.type.map { TextSanitizer.escaped($0) + ", " } ?? "")score \(candidate.score))"
  }

  /// `about N s`, minutes, hours or days for `seconds`, as a person says it.
  static func duration(seconds: Int) -> String {
    switch seconds {
    case ..<120: "\(seconds) s"
    case ..<(120 * 60): "\(seconds / 60) minutes"
    case ..<(48 * 3600): "\(seconds / 3600) hours"
    default: "\(seconds / 86_400) days"
    }
  }
}
