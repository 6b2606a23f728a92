import AlbumModel
import BlueCovers
import BlueLibrary
import BlueSystem

/// `lookup [ALBUM…|all]`: find the MusicBrainz release group of albums that have no cover
/// and no MusicBrainz id, so that `download` finds their covers in the Cover Art Archive.
struct LookupCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "lookup", group: .covers, synopsis: "[ALBUM…|all]",
    summary: "find the MusicBrainz release group of albums without a cover (then 'download')",
    details: """
      Asks MusicBrainz's search (BLUELIB_MUSICBRAINZ_URL: a mirror), one request a second as it
      asks, about each album that has no cover and no MusicBrainz id (the current one by
      default; 'all' is every such album of the view), by its title and artist. A match is
      taken only when it is clear: one release group scored 90 or more whose title and artist
      are the album's (accents and case aside), and of its year when the album has one. It
      becomes the album's cover (caa:release-group/ID), in one step that 'undo' takes back;
      'download' then fetches the cover from the Cover Art Archive. An unclear match is
      listed with its candidates, never guessed: 'edit N cover=caa:release-group/ID' takes
      one. Ctrl-C stops and keeps what was found.
      """,
    examples: ["lookup", "lookup all", "find art:none; lookup all; download all"],
    arguments: [.album])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    AlbumChoice.completionKinds(at: position)
  }

  let choice: AlbumChoice

  init(arguments: [Word]) throws(CommandError) {
    choice = try AlbumChoice(arguments: arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    guard library.musicBrainz != nil else { throw CommandError("MusicBrainz look-ups are off in this shell") }
    let indices = try choice.indices(in: library)
    var albums: [(index: Int, album: Album)] = []
    var skipped = 0
    for page in stride(from: 0, to: indices.count, by: 1000) {
      let chunk = indices[page..<min(page + 1000, indices.count)]
      for index in chunk {
        let album = try library.album(at: index)
        if library.needsLookup(album) { albums.append((index, album)) } else { skipped += 1 }
      }
    }
    if albums.isEmpty {
      let what = choice.all || indices.count > 1 ? "none of these albums needs" : "the album does not need"
      throw CommandError("\(what) a look-up: each has a cover or a MusicBrainz id (or no artist to look it up by)")
    }
    let positions = Dictionary(albums.map { ($0.album.id ?? -1, $0.index) }, uniquingKeysWith: { first, _ in first })
    let progress = environment.progressLine
    if albums.count > 1 {
      environment.announce("looking up \(albumCount(albums.count)) in MusicBrainz (one a second; Ctrl-C stops)")
    }
    let outcome = try library.lookUp(
      albums.map(\.album), timeout: library.downloadTimeout,
      progress: { place, count, album in
        progress?("looking up \(place + 1) of \(count): \(TextSanitizer.escaped(album.title))")
      }, shouldStop: environment.cancellation.check())
    progress?(nil)
    var lines: [String] = []
    func name(_ album: Album) -> String {
      "\"\(TextSanitizer.escaped(album.title))\" — \(TextSanitizer.escaped(album.artist))"
    }
    func describe(_ candidate: MusicBrainzSearch.Candidate) -> String {
      "\(candidate.year.map(String.init) ?? "----")  \(candidate.id)  \"\(TextSanitizer.escaped(candidate.title))\" — "
        + "\(TextSanitizer.escaped(candidate.artist)) (\(candidate.type.map { $0 + ", " } ?? "")score \(candidate.score))"
    }
    for (album, candidate) in outcome.found {
      lines.append("✓ \(name(album)): release group \(candidate.id.prefix(8)) (\(describe(candidate).prefix(4)))")
    }
    for (album, candidates) in outcome.unclear {
      let number = positions[album.id ?? -1].map { String($0 + 1) } ?? "N"
      lines.append(
        "? \(name(album)): \(Library.counted(candidates.count, "candidate")), none clearly it "
          + "('edit \(number) cover=caa:release-group/ID' takes one):")
      lines += candidates.map { "    " + describe($0) }
    }
    for album in outcome.notFound { lines.append("✗ \(name(album)): nothing like it in MusicBrainz") }
    for (album, reason) in outcome.failed { lines.append("✗ \(name(album)): \(TextSanitizer.escaped(reason))") }
    let asked = outcome.found.count + outcome.unclear.count + outcome.notFound.count + outcome.failed.count
    var summary =
      "looked up \(albumCount(asked)): \(outcome.found.count) found, \(outcome.unclear.count) unclear, "
      + "\(outcome.notFound.count) not found, \(outcome.failed.count) failed"
    if skipped > 0 { summary += "; \(albumCount(skipped)) with a cover or an id left alone" }
    if outcome.stopped { summary += "; stopped by a signal, what was found is kept" }
    if !outcome.found.isEmpty { summary += " ('download' fetches the covers found; 'undo' takes them back)" }
    lines.append(summary)
    // Asked of nobody: the service could not be reached (a script's exit status says so).
    if asked > 0 && outcome.failed.count == asked {
      throw CommandError(
        "MusicBrainz could not be asked (\(TextSanitizer.escaped(outcome.failed[0].reason))); nothing was looked up")
    }
    return outcome.found.isEmpty ? .lines(lines) : .changed(lines.joined(separator: "\n"), redraw: false)
  }
}
