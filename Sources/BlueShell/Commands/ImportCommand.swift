import AlbumArchive
import AlbumModel
import BlueLibrary
import BlueSystem
import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `import FILE|DIR`: append albums from JSON (the `export` format) or CSV, all or nothing;
/// or bring in the albums of a music folder, updating those imported from it before.
struct ImportCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "import", group: .change, synopsis: "[--with-deleted] FILE|DIR",
    summary: "append albums from a JSON or CSV file, or from a folder of audio files",
    details: """
      DIR: a music folder, scanned recursively for every format TagLib reads (MP3, FLAC,
      Ogg, Opus, AAC/ALAC, WMA, APE, WavPack, Musepack, AIFF, WAV, modules…): tracks
      with the same album tag in a folder make one album, discs in CD1/, CD2/ make one,
      the album artist is the album-artist tag, else the one artist, else Various Artists;
      the cover is the first embedded picture, else cover/folder/album/front.jpg|png.
      Each track is kept ('show' lists them). Albums imported from the folder before are
      updated in place; files whose size and time did not change are not read again. The
      summary says how many were added, updated and unchanged, and which files were
      skipped. One step for undo; Ctrl-C during the scan cancels and changes nothing.
      Your changes stick: an edited field is kept (see 'unedit'), and an album you deleted
      is left out (said in the summary); --with-deleted brings such albums back.
      The first import into a library that holds only the five sample albums, untouched,
      takes them out in the same step (the summary says so; 'undo' brings them back).
      FILE: JSON, an array of objects with the keys title, artist, genre, year, coverUrl
      (the 'export' format; year may be a number; tracks (a count, or the array of tracks
      'export' writes), duration, folder optional). CSV:
      a header row naming the same keys; other columns are skipped, with one line saying
      which. A file with any bad row changes nothing and the error names the line.
      Ctrl-C (SIGTERM, SIGHUP) during a long file import cancels it too: nothing imported.
      """,
    examples: ["import ~/Music", "import albums.json", "import ~/music/albums.csv"], arguments: [.path])

  /// The path as typed, for messages (`~/` is the environment's HOME).
  let shownPath: String
  /// `--with-deleted`: a music folder's albums you deleted come back.
  let withDeleted: Bool

  init(arguments: [Word]) throws(CommandError) {
    var arguments = arguments
    let option = { (word: Word) in !word.isQuoted && word.text == "--with-deleted" }
    withDeleted = arguments.contains(where: option)
    arguments.removeAll(where: option)
    guard let file = arguments.first else { throw .missing("FILE or DIR", usage: Self.configuration.usage) }
    if arguments.count > 1 { throw .unexpectedArgument(arguments[1]) }
    shownPath = file.text
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let path = environment.expandingTilde(shownPath)
    var info = stat()
    if stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
      return try importFolder(path, in: environment)
    }
    if let format = Library.audioFormat(ofFileAt: path) {
      let folder = shownPath.contains("/") ? String(shownPath[..<shownPath.lastIndex(of: "/")!]) : "."
      throw CommandError(
        "'\(TextSanitizer.escaped(shownPath))' is an audio file (\(format)); import its folder: "
          + "import \(TextSanitizer.escaped(folder))")
    }
    let library = environment.library
    let range: Range<Int>
    let ignoredColumns: [String]
    let samplesLeft: Int
    do throws(LibraryError) {
      (range, ignoredColumns, samplesLeft) = try library.importAlbums(
        fromFile: path, isCancelled: environment.cancellation.check())
    } catch {
      if error == .cancelled { throw CommandError("cancelled; nothing was imported") }
      throw CommandError(error)
    }
    let total = try library.libraryCount()
    var message = "imported \(albumCount(range.count)) (\(albumCount(total)) in all)"
    if samplesLeft > 0 { message += "\n" + Self.samplesLeftLine(samplesLeft) }
    if !ignoredColumns.isEmpty {
      let names = ignoredColumns.prefix(5).map { TextSanitizer.quotedWord($0) }.joined(separator: ", ")
      let more = ignoredColumns.count > 5 ? ", …" : ""
      message =
        "ignored \(ignoredColumns.count == 1 ? "a column" : "\(ignoredColumns.count) columns") "
        + "bluelib does not read: \(names)\(more) (it reads \(LibraryArchive.keyList))\n" + message
    }
    // The samples the cards showed are gone: at a terminal, draw the library as it is now.
    return .changed(message, redraw: samplesLeft > 0 && environment.isInteractive)
  }
}

// MARK: - A music folder

extension ImportCommand {
  /// The paths a skipped-files line names before it ends in `…`.
  static let skippedShown = 3

  /// `import DIR`: scans the folder at `path` (a progress line on a terminal), then one change.
  private func importFolder(_ path: String, in environment: CommandEnvironment) throws -> CommandOutcome {
    let name = TextSanitizer.escaped(shownPath)
    let progressLine = environment.progressLine
    let start = ContinuousClock.now
    defer { progressLine?(nil) }
    let result: FolderImport
    do throws(LibraryError) {
      result = try environment.library.importFolder(
        path, named: shownPath, withDeleted: withDeleted,
        progress: progressLine.map { show in
          { progress in show(Self.progressText(progress, folder: name, since: start)) }
        },
        isCancelled: environment.cancellation.check())
    } catch {
      if error == .cancelled { throw CommandError("cancelled; nothing was imported") }
      throw CommandError(error)
    }
    var lines = [Self.summary(result, name: name)] + Self.namedChanges(result)
    if result.samplesLeft > 0 { lines.append(Self.samplesLeftLine(result.samplesLeft)) }
    if result.gone > 0 {
      lines.append("'find missing:true' lists the albums whose files are gone; they stay until you delete them")
    }
    if result.leftOut > 0 {
      lines.append(
        "'import --with-deleted \(name)' brings back the \(albumCount(result.leftOut)) you deleted from the library")
    }
    // A folder that could not be listed, every time: it may hide albums (an unmounted share).
    // (The scan says which: nothing is looked at again.)
    let folders = result.skipped.filter(\.isFolder)
    for (reason, paths) in Self.byReason(folders) {
      let left =
        result.leftAsTheyWere == 0
        ? "" : "; \(albumCount(result.leftAsTheyWere)) with files under it left as they were"
      lines.append(
        "could not read \(Library.counted(paths.count, "folder")) (\(reason)): \(shownPaths(paths, in: result))" + left)
    }
    let files = result.skipped.filter { !folders.contains($0) }
    // One line per reason, in the order the reasons first come up.
    let byReason = Self.byReason(files)
    if result.skippedAsBefore, !files.isEmpty {
      // Listed when they first came up; a re-import only says they are still there.
      lines.append(
        "skipped the same \(Library.counted(files.count, "file")) as before (\(byReason.map(\.reason).joined(separator: ", ")))"
      )
    } else {
      for (reason, paths) in byReason {
        lines.append("skipped \(Library.counted(paths.count, "file")) (\(reason)): \(shownPaths(paths, in: result))")
      }
    }
    let message = lines.joined(separator: "\n")
    let redraw = result.samplesLeft > 0 && environment.isInteractive
    return result.summary == nil ? .lines(lines) : .changed(message, redraw: redraw)
  }

  /// The paths of `skipped`, by reason, in the order the reasons first come up.
  private static func byReason(_ skipped: [FolderImport.Skipped]) -> [(reason: String, paths: [String])] {
    var groups: [(reason: String, paths: [String])] = []
    for entry in skipped {
      if let index = groups.firstIndex(where: { $0.reason == entry.reason }) {
        groups[index].paths.append(entry.path)
      } else {
        groups.append((entry.reason, [entry.path]))
      }
    }
    return groups
  }

  /// The first few of `paths`, relative to the imported folder, then `…`.
  private func shownPaths(_ paths: [String], in result: FolderImport) -> String {
    let shown = paths.prefix(Self.skippedShown).map { TextSanitizer.escaped(Self.relative($0, to: result.folder)) }
    return shown.joined(separator: ", ") + (paths.count > Self.skippedShown ? ", …" : "")
  }

  /// `imported 12 albums (140 tracks) from ~/Music: 2 added, 1 updated, 9 unchanged`.
  static func summary(_ result: SourceImport, name: String) -> String {
    let tracks = Library.counted(result.tracks, "track")
    return "imported \(albumCount(result.albums)) (\(tracks)) from \(name)"
      + (result.albums == 0
        ? " (no readable audio files)" : ": " + counts(result, unchanged: result.unchanged, leftOut: result.leftOut))
  }

  /// What a sync with a music server did, as its line above the prompt says it (the same
  /// result as an import's, ``SourceImport``): `synced with MPD at 127.0.0.1:6600: 2 added,
  /// 1 updated` (`name` escaped).
  static func syncLine(_ result: SourceImport, name: String) -> String {
    "synced with \(name): " + counts(result, unchanged: 0, leftOut: 0)
  }

  /// `2 added, 1 updated, 9 unchanged`: the counts of `result` that are not 0 (a sync
  /// says neither the albums unchanged nor those left out).
  private static func counts(_ result: SourceImport, unchanged: Int, leftOut: Int) -> String {
    Library.counts(
      added: result.added, updated: result.updated, moved: result.moved, unchanged: unchanged, leftOut: leftOut,
      gone: result.gone)
  }

  /// `the 5 sample albums left to make room; 'undo' brings them back (and takes back the import)`.
  static func samplesLeftLine(_ count: Int) -> String {
    "the \(Library.counted(count, "sample album")) left to make room; 'undo' brings them back "
      + "(and takes back the import)"
  }

  /// A line per kind of change that names a few albums:
  /// `  updated: Greatest Hits — Queen (genre), … and 3 more`.
  static func namedChanges(_ result: FolderImport) -> [String] {
    FolderImport.Change.Kind.allCases.compactMap { kind in
      let named = result.named.filter { $0.kind == kind }
      guard !named.isEmpty else { return nil }
      let more = result.count(of: kind) - named.count
      return "  \(kind.rawValue): "
        + named.map { change in
          // A moved album's detail is the folder it was in.
          let detail = kind == .moved ? change.detail.map { "from " + relative($0, to: result.folder) } : change.detail
          return TextSanitizer.escaped(change.album) + (detail.map { " (" + TextSanitizer.escaped($0) + ")" } ?? "")
        }.joined(separator: ", ") + (more > 0 ? " and \(Library.grouped(more)) more" : "")
    }
  }

  /// `scanning ~/Music: 5,000 of 20,000 files, 480 albums, 9,800 files/s`.
  static func progressText(_ progress: MusicScanProgress, folder: String, since start: ContinuousClock.Instant)
    -> String
  {
    guard progress.filesScanned > 0 else {
      return "scanning \(folder): \(Library.grouped(progress.filesFound)) audio files found"
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Int((Double(progress.filesScanned) / seconds).rounded()) : 0
    return
      "scanning \(folder): \(Library.grouped(progress.filesScanned)) of \(Library.grouped(progress.filesFound)) files, "
      + "\(albumCount(progress.albumsFound)), \(Library.grouped(rate)) files/s"
  }

  /// `path` relative to `folder` when it is inside it.
  private static func relative(_ path: String, to folder: String) -> String {
    path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
  }
}
