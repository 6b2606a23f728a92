import BlueCovers
import BlueLibrary
import BlueSystem
import CoverArt

/// `cover [ALBUM] [--size COLSxROWS] [--force]`: draw an album's cover in real pixels where
/// the terminal shows images (kitty graphics, sixel, iTerm2), else with half blocks.
struct CoverCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "cover", group: .covers, synopsis: "[ALBUM] [--size COLSxROWS] [--force]",
    summary: "draw the album's cover in the terminal (download it first, unless it is local)",
    details: """
      In real pixels where the terminal shows images: the kitty graphics protocol,
      sixel or iTerm2's inline images, as the terminal answers when asked (--graphics
      and BLUELIB_GRAPHICS choose instead). Elsewhere, in tmux and screen, and in a pipe:
      two pixel rows per character cell (▀/▄),
      24-bit colour when COLORTERM says so, 256 colours otherwise, a brightness ramp
      under --no-color/NO_COLOR/TERM=dumb. The default size is 40x20 cells (narrower on
      a narrow window); on a terminal a larger box is fitted to the window, its shape kept. To a pipe or file the cover is drawn only with --force (bluelib -c 'cover --force' > art.txt). A local
      cover (a file: URL, or a picture embedded in an audio file: albums from 'import DIR')
      is read when needed, without 'download'.
      """,
    examples: ["download; wait; cover", "cover 3 --size 20x10", "cover 3 --force"],
    arguments: [.album, .keyword(["--size", "--force"])])

  let album: AlbumReference?
  let size: (columns: Int, rows: Int)?
  let force: Bool

  init(arguments: [Word]) throws(CommandError) {
    var album: AlbumReference?
    var size: (Int, Int)?
    var force = false
    var words = arguments[...]
    while let word = words.popFirst() {
      switch word.isQuoted ? "" : word.text {
      case "--force":
        force = true
      case "--size":
        guard let value = words.popFirst() else { throw .missing("COLSxROWS", usage: Self.configuration.usage) }
        size = try Self.parseSize(value.text)
      default:
        if word.text.hasPrefix("--size=") {
          size = try Self.parseSize(String(word.text.dropFirst("--size=".count)))
        } else if !word.isQuoted && word.text.hasPrefix("--") {
          throw CommandError("unknown option \(TextSanitizer.quotedWord(word.text)) (options: --size, --force)")
        } else if album == nil {
          album = AlbumReference(word: word)
        } else {
          throw .unexpectedArgument(word)
        }
      }
    }
    self.album = album
    self.size = size
    self.force = force
  }

  static func parseSize(_ text: String) throws(CommandError) -> (Int, Int) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
      (1...400).contains(columns), (1...200).contains(rows)
    else {
      throw CommandError(
        "--size must be COLSxROWS with 1-400 columns and 1-200 rows, got \(TextSanitizer.quotedWord(text))")
    }
    return (columns, rows)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    guard environment.outputIsTerminal || force else {
      throw CommandError("output is not a terminal; add --force to draw the cover anyway")
    }
    let library = environment.library
    let index = try album.resolve(in: library)
    let chosen = try library.album(at: index)
    let name = quotedTitle(chosen)
    guard !chosen.coverURL.isEmpty else {
      if chosen.folder != nil {
        throw CommandError("\(name) has no cover (no picture in its audio files, no cover image in its folder)")
      }
      throw CommandError("\(name) has no cover URL (set one with 'edit cover=URL')")
    }
    guard library.fetchesCovers else { throw CommandError("cover downloads are off in this shell") }
    let capabilities = environment.graphics
    guard capabilities.graphics != .none else { throw CommandError("cover art is off (--graphics none)") }
    var columns = size?.columns ?? min(40, max(10, environment.window.columns - 1))
    var rows = size?.rows ?? (columns + 1) / 2
    if environment.outputIsTerminal {
      (columns, rows) = Self.fitted(columns: columns, rows: rows, in: environment.window)
    }
    let painter = environment.coverPainter
    let mode = environment.colorMode
    do {
      // A picture taller than the window cannot come back to its first line: half blocks scroll.
      if capabilities.graphics.drawsPixels && (!environment.outputIsTerminal || rows < environment.window.rows) {
        if let frame = try painter.picture(
          of: chosen, columns: columns, rows: rows, mode: mode, graphics: capabilities)
        {
          return .text(painter.box(frame, rows: rows))
        }
      } else if let drawn = try painter.cells(of: chosen, columns: columns, rows: rows, mode: mode) {
        return .text(drawn)
      }
    } catch {
      throw CommandError("cannot draw the cover of \(name): \(error)")
    }
    // Nothing to draw: a local cover is read by the painter, into the same cache (no
    // 'download'); anything else says what it is waiting for.
    switch library.coverState(of: chosen) {
    case .failed(let failure) where LocalCover.isLocal(chosen.coverURL):
      // Read from a file, not downloaded: nothing to fetch again until the file is fixed.
      throw CommandError(
        "cannot read the cover of \(name): \(failure) (once the file is fixed, 'download \(index + 1)' reads it again)")
    case .queued, .downloading:
      throw CommandError("the cover of \(name) is still downloading ('wait' waits for it)")
    case .failed(let failure):
      throw CommandError("the cover of \(name) failed to download: \(failure) ('download' tries again)")
    default:
      throw CommandError("the cover of \(name) is not downloaded ('download \(index + 1)' fetches it)")
    }
  }

  /// A box of `columns`×`rows` cells made to fit the window, the prompt's line below it
  /// kept, its shape kept: a picture is drawn at the fitted box's own pixel size, so the
  /// terminal never rescales it (a box taller than the window would otherwise fall back to
  /// half blocks, or be squeezed by the terminal into blended colours).
  static func fitted(columns: Int, rows: Int, in window: WindowSize) -> (columns: Int, rows: Int) {
    let room = (columns: max(1, window.columns - 1), rows: max(1, window.rows - 1))
    guard columns > room.columns || rows > room.rows else { return (columns, rows) }
    // As many rows as the window holds, the columns in proportion; else as many columns.
    let byRows = (columns: max(1, columns * room.rows / rows), rows: room.rows)
    if byRows.columns <= room.columns && rows > room.rows { return byRows }
    return (room.columns, max(1, min(room.rows, rows * room.columns / columns)))
  }
}
