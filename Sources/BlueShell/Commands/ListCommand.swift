import AlbumModel
import BlueCovers
import BlueLibrary
import BlueSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `list [-f FORMAT] [QUERY]` (`ls`): one line per album of the view (or library), or of
/// those QUERY matches, in its order.
struct ListCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "list", aliases: ["ls"], group: .browse, synopsis: "[-f FORMAT] [QUERY]",
    summary: "one line per album, or per album QUERY matches (in the view, when there is one)",
    details: """
      The current album is marked with '*'; the indices are those tap, show and delete take,
      until the albums are numbered anew (another view, a delete, an add, an import, another
      shell's change): a verb then refuses a number from this list rather than act on another
      album, and says so; list again. The last list is kept for the next start.
      -f FORMAT prints each album as FORMAT, with $field or ${field} for a field ($index,
      $title, $artist, $albumartist, $genre, $year, $tracks, $length, $folder, $cover, $added,
      $discs, $mb_albumid, $mb_releasegroupid, $format, $bitrate, $samplerate, $composer,
      $duplicate, $missing, $played, $last_played, $art, $rating, $fav), and no summary line.

      """ + "\n" + querySyntaxHelp,
    examples: ["list", "list sun", "list bjork jazz", "ls year:2000", "list -f '$year  $artist — $title' year-"],
    arguments: [.query])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    previous.last.map(isFormatFlag) == true ? [.text] : [.query]
  }

  /// Whether `word` is `-f` or `--format` (unquoted: `list '-f'` looks for the text).
  static func isFormatFlag(_ word: Word) -> Bool {
    !word.isQuoted && (word.text == "-f" || word.text == "--format")
  }

  let query: TypedQuery
  let format: ListFormat?
  /// The command as typed (`list sun`): where its numbers are said to come from.
  let typed: String

  init(arguments: [Word]) throws(CommandError) {
    typed =
      (["list"] + arguments.map { Completer.needsQuoting($0.text) ? Completer.quoted($0.text, force: true) : $0.text })
      .joined(separator: " ")
    var rest = arguments[...]
    var format: ListFormat?
    if let first = rest.first, Self.isFormatFlag(first) {
      guard rest.count > 1 else { throw .missing("FORMAT", usage: Self.configuration.usage) }
      format = try ListFormat(rest[rest.startIndex + 1].text)
      rest = rest.dropFirst(2)
    }
    self.format = format
    query = TypedQuery(words: Array(rest))
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let query = try self.query.resolve(in: library)
    let total = try library.count()
    // Its numbers are what a verb's numbers mean from now on, until the albums are renumbered.
    let numbered = format?.parts.contains(.field("index")) ?? true
    if query == nil, format == nil, library.view == nil {
      if total > 0 { library.noteListing(typed) }
      return .lines(AlbumListing(library: library, query: nil, total: total, entries: nil, format: nil))
    }
    let entries = try library.listing(query)
    if numbered, !entries.isEmpty { library.noteListing(typed) }
    return .lines(AlbumListing(library: library, query: query, total: total, entries: entries, format: format))
  }

  static let pageSize = 1000
}

/// `$year  $artist — $title`: literal text and fields.
struct ListFormat: Equatable {
  enum Part: Equatable {
    case text(String)
    case field(String)
  }

  /// Every query field but `track` (an album has many), and the index.
  static let fields = ["index"] + QueryField.allCases.filter { $0 != .track }.map(\.rawValue)
  let parts: [Part]

  init(_ format: String) throws(CommandError) {
    var parts: [Part] = []
    var text = ""
    var rest = Substring(format)
    while let dollar = rest.firstIndex(of: "$") {
      text += rest[..<dollar]
      rest = rest[rest.index(after: dollar)...]
      let name: Substring
      if rest.hasPrefix("$") {
        text += "$"
        rest = rest.dropFirst()
        continue
      } else if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}") {
        name = rest[rest.index(after: rest.startIndex)..<close]
        rest = rest[rest.index(after: close)...]
      } else {
        name = rest.prefix { $0.isASCII && ($0.isLetter || $0 == "_") }
        rest = rest.dropFirst(name.count)
      }
      let field = name.lowercased()
      guard Self.fields.contains(field) else {
        throw CommandError(
          "unknown field \(TextSanitizer.quotedWord("$" + name)) in the format (fields: \(Self.fields.joined(separator: ", ")))"
        )
      }
      if !text.isEmpty { parts.append(.text(text)) }
      text = ""
      parts.append(.field(field))
    }
    text += rest
    if !text.isEmpty { parts.append(.text(text)) }
    self.parts = parts
  }

  /// The line for `album`; `stored` gives the fields the album value does not hold
  /// (`added`, and what its files say: `discs`, `mb_albumid`, `mb_releasegroupid`, `format`).
  func line(for album: Album, index: Int, stored: (String) -> String) -> String {
    var line = ""
    for part in parts {
      switch part {
      case .text(let text): line += text
      case .field(let name): line += TextSanitizer.escaped(Self.value(name, album, index) ?? stored(name))
      }
    }
    return line
  }

  /// The field `name` of `album`, nil for one the library is asked for.
  private static func value(_ name: String, _ album: Album, _ index: Int) -> String? {
    switch name {
    case "index": String(index + 1)
    case "title": album.title
    case "artist", "albumartist": album.artist
    case "genre": album.genre
    case "year": album.year.map(String.init) ?? ""
    case "tracks": album.tracks.map(String.init) ?? ""
    case "length": album.duration.map(Album.length) ?? ""
    case "folder": album.folder ?? ""
    case "cover": album.coverURL
    case "art": album.art.rawValue
    case "rating": album.rating.map(String.init) ?? ""
    case "fav": album.favourite ? "true" : "false"
    default: nil
    }
  }

  /// A field the album value does not hold, read from `library`: `added`, `discs`,
  /// `mb_albumid`, `mb_releasegroupid`, and what its tracks say: `format` (each once, `FLAC`
  /// or `FLAC+MP3`), `bitrate` (their average in kb/s), `samplerate` (the highest, in Hz)
  /// and `composer` (each once).
  static func storedValue(_ name: String, of album: Album, in library: Library) -> String {
    if name == "played" || name == "last_played" {
      let plays = (try? library.plays(of: album)) ?? (count: 0, last: nil)
      if name == "played" { return String(plays.count) }
      return plays.last.map { ListFormat.day(Date(timeIntervalSince1970: TimeInterval($0))) } ?? ""
    }
    if name == "duplicate" {
      return (try? library.isDuplicate(album)) == true ? "true" : "false"
    }
    if name == "lookup" {
      return (try? library.lookupFoundNothing(for: album)) == true ? "none" : ""
    }
    if name == "added" {
      return (try? library.addedTime(of: album)).flatMap { $0 }.map {
        ListFormat.day(Date(timeIntervalSince1970: TimeInterval($0)))
      } ?? ""
    }
    // The id `lookup` found, kept as the album's cover, when its files name none.
    let lookedUp =
      album.coverURL.lowercased().hasPrefix("caa:release-group/") ? String(album.coverURL.dropFirst(18)) : ""
    guard let tracklist = try? library.storedTracklist(of: album) else {
      return name == "mb_releasegroupid" ? lookedUp : ""
    }
    switch name {
    case "discs": return String(tracklist.discs)
    case "mb_albumid": return tracklist.musicBrainzAlbumID ?? ""
    case "mb_releasegroupid": return tracklist.musicBrainzReleaseGroupID ?? lookedUp
    case "missing": return tracklist.missing ? "true" : "false"
    case "format": return tracklist.format
    case "bitrate": return tracklist.bitrate.map(String.init) ?? ""
    case "samplerate": return tracklist.sampleRates.map(\.upperBound).map(String.init) ?? ""
    case "composer": return tracklist.composer
    default: return ""
    }
  }

  /// `2026-11-25`, local time.
  static func day(_ date: Date) -> String {
    // The C library's local time: Foundation's own needs its ICU data (issue 47).
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return "0000-00-00" }
    func padded(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
  }
}

/// The lines of `list`, read from the store a page at a time as they are printed, so a
/// million albums never sit in memory at once.
/// Lines that can also be written straight to the output as bytes, which is faster than
/// a `String` per line when nobody pages through them.
protocol DirectlyWritten: Sequence<String> {
  /// Writes every line (each ending in a newline) to `output`, stopping when it closes.
  func write(to output: OutputChannel)
}

struct AlbumListing: Sequence, IteratorProtocol, DirectlyWritten {
  let library: Library
  let query: AlbumQuery?
  /// How many albums the view (or library) has.
  let total: Int
  /// The albums to list with their indices; nil: every album of the library, in order.
  let entries: [ListedAlbum]?
  let format: ListFormat?
  /// What tells each album that shares its artist and title with another from the others
  /// (``Library/twins()``), read once.
  private let twins: [Int64: TwinLabel]
  /// Whether the query lists duplicates (`duplicate:true`): a format twin says so.
  private let marksFormatTwins: Bool
  /// Digits of the largest index: every index is padded to it.
  private let indexWidth: Int
  private var page: [(album: Album, index: Int)] = []
  /// Where the next page of ``entries`` starts (or the next library position).
  private var nextEntry = 0
  private var index = 0
  private var shown = 0
  private var done = false

  init(library: Library, query: AlbumQuery?, total: Int, entries: [ListedAlbum]?, format: ListFormat?) {
    self.library = library
    self.query = query
    self.total = total
    self.entries = entries
    self.format = format
    indexWidth = String(total).utf8.count
    twins = format == nil ? (try? library.twins()) ?? [:] : [:]
    marksFormatTwins =
      query?.groups.contains { group in
        group.contains { $0.field == .duplicate && !$0.negated && $0.match == .number(lower: 1, upper: 1) }
      } ?? false
  }

  /// Reads the next page of albums; false at the end (or when the library cannot be read:
  /// the lines so far stand).
  private mutating func readPage() -> Bool {
    index = 0
    page = []
    if let entries {
      let slice = entries[
        Swift.min(nextEntry, entries.count)..<Swift.min(nextEntry + ListCommand.pageSize, entries.count)]
      nextEntry += slice.count
      guard !slice.isEmpty, let albums = try? library.albums(ids: slice.map(\.id)) else { return false }
      // An album deleted since the listing was read is left out.
      var byID: [Int64: Album] = [:]
      for album in albums { if let id = album.id { byID[id] = album } }
      page = slice.compactMap { entry in byID[entry.id].map { ($0, entry.index ?? $0.position) } }
      return !page.isEmpty || nextEntry < entries.count && readPage()
    }
    let range = nextEntry..<Swift.min(nextEntry + ListCommand.pageSize, total)
    nextEntry = range.upperBound
    guard !range.isEmpty, let albums = try? library.albums(in: range) else { return false }
    page = albums.map { ($0, $0.position) }
    return !page.isEmpty
  }

  mutating func next() -> String? {
    if index == page.count, !done, readPage() {}
    if index < page.count {
      defer { index += 1 }
      shown += 1
      let (album, albumIndex) = page[index]
      if let format {
        return format.line(for: album, index: albumIndex) { ListFormat.storedValue($0, of: album, in: library) }
      }
      return line(for: album, index: albumIndex)
    }
    guard !done else { return nil }
    done = true
    if format != nil { return nil }
    let scope = library.view.map { "the view's \(albumCount(total)) (\(TextSanitizer.quotedWord($0.query.text)))" }
    if let query {
      let hint = shown == 0 ? QueryHints.hint(for: query.words).map { " (\($0))" } ?? "" : ""
      return "\(Library.grouped(shown)) of \(scope ?? albumCount(total)) match \(TextSanitizer.quotedWord(query.text))"
        + hint
    }
    if let view = library.view {
      return "\(albumCount(shown)) in the view \(TextSanitizer.quotedWord(view.query.text))"
        + " (\((try? library.libraryCount()).map(albumCount) ?? "?") in the library; 'find' alone shows them all)"
    }
    return albumCount(total)
  }

  /// The plain `list` (no query) writes each album's line from the library's row bytes
  /// (a million of these is the whole cost of `list` once the rows are read); a query goes
  /// through ``next()``. Both make their lines with ``appendLine(_:index:selection:to:)``.
  func write(to output: OutputChannel) {
    guard entries == nil, format == nil, index == 0, shown == 0, library.view == nil else {
      var copy = self
      while !output.isClosed, let line = copy.next() { output.line(line) }
      return
    }
    let selection = library.selection
    do {
      try library.forEachListRow(from: 0) { row in
        output.append { bytes in
          appendLine(row, selection: selection, to: &bytes)
          bytes.append(UInt8(ascii: "\n"))
        }
      }
    } catch {
      // As a later page of ``next()``: the lines so far stand (the first page was checked).
    }
    output.line(albumCount(total))
  }

  /// `*  3. Title — Artist (1999, Pop) · cover: failed: HTTP 404`, appended as bytes:
  /// printable text as it is, no `String` per field. Indices are right-aligned to the
  /// widest the library has; a cover in the cache (the ordinary state) says nothing.
  private func appendLine(_ row: AlbumListRow, index: Int? = nil, selection: Int?, to bytes: inout [UInt8]) {
    let index = index ?? row.position
    bytes.append(index == selection ? "* " : "  ")
    bytes.appendDecimal(index + 1, width: indexWidth)
    bytes.append(". ")
    TextSanitizer.appendEscaped(row.title, to: &bytes)
    if !row.artist.isEmpty {
      bytes.append(" — ")
      TextSanitizer.appendEscaped(row.artist, to: &bytes)
    }
    if row.year != nil || !row.genre.isEmpty {
      bytes.append(" (")
      if let year = row.year {
        bytes.appendDecimal(year)
        if !row.genre.isEmpty { bytes.append(", ") }
      }
      TextSanitizer.appendEscaped(row.genre, to: &bytes)
      bytes.append(UInt8(ascii: ")"))
    }
    // Which of two albums of the same artist and title this is: its format, or its folder.
    if !twins.isEmpty, let twin = twins[row.id] {
      bytes.append(" · ")
      bytes.append(contentsOf: TextSanitizer.escaped(twin.text).utf8)
      if marksFormatTwins && twin.isFormatTwin { bytes.append(" (format twin)") }
    }
    // ``CoverState/label(url:)``, without a `String` for the common states.
    switch library.coverState(ofURL: row.coverURL, cached: row.coverCached) {
    case .cached: break
    case .none where !row.coverURL.isEmpty:
      bytes.append(" · cover: not downloaded")
    case let state:
      bytes.append(" · cover: ")
      bytes.append(contentsOf: state.label(url: String(decoding: row.coverURL, as: UTF8.self)).utf8)
    }
  }

  private func line(for album: Album, index: Int) -> String {
    var bytes: [UInt8] = []
    let selection = library.selection
    album.withListRow { row in appendLine(row, index: index, selection: selection, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
