import BlueLibrary

/// `list [QUERY]` (`ls`): one line per album, filtered by words that must all appear.
public struct ListCommand: Command {
  public static let configuration = CommandConfiguration(
    verb: "list", aliases: ["ls"], group: .browse, synopsis: "[QUERY]",
    summary: "one line per album (QUERY filters title, artist, genre, year)",
    details: """
      The current album is marked with '*'. Each word of QUERY must appear in the title,
      artist, genre or year, in any order, ignoring case and accents ('cafe' finds "Café").
      """,
    examples: ["list", "list sun", "list bjork jazz", "ls 2000"], arguments: [.text])

  let query: String?

  public init(arguments: [Word]) throws(CommandError) {
    query = arguments.isEmpty ? nil : arguments.map(\.text).joined(separator: " ")
  }

  public func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    let total = try library.count()
    // Checked before the first line: a failed first page is an error, not a short list.
    let first = try library.search(query ?? "", from: 0, limit: Self.pageSize)
    return .lines(AlbumListing(library: library, query: query, total: total, first: first))
  }

  static let pageSize = 1000
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
  let query: String?
  let total: Int
  /// Digits of the largest index: every index is padded to it.
  private let indexWidth: Int
  private var page: [Album]
  private var index = 0
  private var shown = 0
  private var done = false

  init(library: Library, query: String?, total: Int, first: [Album]) {
    self.library = library
    self.query = query
    self.total = total
    indexWidth = String(total).utf8.count
    page = first
  }

  mutating func next() -> String? {
    if index == page.count, page.count == ListCommand.pageSize, let last = page.last {
      page = (try? library.search(query ?? "", from: last.position + 1, limit: ListCommand.pageSize)) ?? []
      index = 0
    }
    if index < page.count {
      defer { index += 1 }
      shown += 1
      return line(for: page[index])
    }
    guard !done else { return nil }
    done = true
    if let query { return "\(shown) of \(albumCount(total)) match \(TextSanitizer.quotedWord(query))" }
    return albumCount(total)
  }

  /// The plain `list` (no query) writes each album's line from the library's row bytes
  /// (a million of these is the whole cost of `list` once the rows are read); a query goes
  /// through ``next()``. Both make their lines with ``appendLine(_:to:)``.
  func write(to output: OutputChannel) {
    guard query == nil, index == 0, shown == 0 else {
      var copy = self
      while !output.isClosed, let line = copy.next() { output.line(line) }
      return
    }
    do {
      try library.forEachListRow(from: 0) { row in
        output.append { bytes in
          appendLine(row, to: &bytes)
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
  private func appendLine(_ row: AlbumListRow, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: row.position == library.selection ? "* ".utf8 : "  ".utf8)
    let number = String(row.position + 1)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: Swift.max(0, indexWidth - number.utf8.count)))
    bytes.append(contentsOf: number.utf8)
    bytes.append(contentsOf: ". ".utf8)
    TextSanitizer.appendEscaped(row.title, to: &bytes)
    if !row.artist.isEmpty {
      bytes.append(contentsOf: " — ".utf8)
      TextSanitizer.appendEscaped(row.artist, to: &bytes)
    }
    if row.year != nil || !row.genre.isEmpty {
      bytes.append(contentsOf: " (".utf8)
      if let year = row.year {
        bytes.append(contentsOf: String(year).utf8)
        if !row.genre.isEmpty { bytes.append(contentsOf: ", ".utf8) }
      }
      TextSanitizer.appendEscaped(row.genre, to: &bytes)
      bytes.append(UInt8(ascii: ")"))
    }
    // ``CoverState/label(url:)``, without a `String` for the common states.
    switch library.coverState(ofURL: row.coverURL, cached: row.coverCached) {
    case .cached: break
    case .none where !row.coverURL.isEmpty && !LocalCover.isLocal(row.coverURL):
      bytes.append(contentsOf: " · cover: not downloaded".utf8)
    case let state:
      bytes.append(contentsOf: " · cover: ".utf8)
      bytes.append(contentsOf: state.label(url: String(decoding: row.coverURL, as: UTF8.self)).utf8)
    }
  }

  private func line(for album: Album) -> String {
    var bytes: [UInt8] = []
    album.withListRow { row in appendLine(row, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
