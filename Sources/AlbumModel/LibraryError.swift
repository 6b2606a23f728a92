import BlueSystem

/// Everything that can go wrong in the library: opening it, changing it, importing into it.
///
/// Each description is one lowercase line that names what was wrong and, where
/// it helps, what would be right. Values taken from the user are quoted with
/// control characters escaped and long values cut short, so an error can be
/// printed as is. Indices are stored 0-based and printed 1-based, as `list`
/// numbers albums: `.noAlbum(index: 8, count: 5)` reads `no album 9 (the library has 5)`,
/// and in the view `sun`, `no album 9 (the view 'sun' has 5)`.
package enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The library file exists but cannot be used; it has been left untouched.
  case cannotOpen(path: String, reason: String)
  /// A 0-based index past the end of the library or of the view (its query's text), or negative.
  case noAlbum(index: Int, count: Int, view: String? = nil)
  /// A 0-based range not inside the library or the view.
  case noAlbums(range: Range<Int>, count: Int, view: String? = nil)
  /// An update named an album id that is not (or no longer) stored.
  case noAlbumWithID(Int64)
  /// `edit`/`add` named a field that does not exist.
  case unknownField(String)
  /// A title that is empty or only blanks.
  case emptyTitle
  /// `edit ALBUM track N` named a field a track does not have.
  case unknownTrackField(String)
  /// A track's title given empty or only blanks.
  case emptyTrackTitle
  /// A track's number that is not a whole number from 1 to 9999.
  case invalidTrackNumber(String)
  /// An album with no track at place `number` (1-based) of its `count`; with `count` 0, one
  /// with no tracks at all (not from a music folder).
  case noTrack(title: String, number: Int, count: Int)
  /// The album titled `title` has `count` tracks: none of `numbers` (more than one, 1-based).
  case noTracks(title: String, numbers: [Int], count: Int)
  /// A year that is not a whole number.
  case invalidYear(String)
  /// A whole-number year outside 0...9999.
  case yearOutOfRange(String)
  /// A cover that is not an http, https or file URL.
  case invalidCover(String)
  /// A rating that is not 0 to 5 stars, or a favourite mark that is not true or false: the
  /// whole message.
  case invalidRating(String)
  /// A text field holding a NUL character.
  case nulCharacter(AlbumField)
  /// A field longer than its limit (title, artist, genre: 1,000 characters; cover: 8 KiB).
  case tooLong(field: AlbumField, limit: String, actual: String)
  /// A music-folder field (`tracks`, `duration`, `folder`) out of its bounds; `reason`
  /// follows the field's name: `must be a whole number from 0 to 100000, got '-1'`.
  case invalidMusicField(field: String, reason: String)
  /// A music folder that could not be scanned (not a directory, unreadable).
  case cannotScan(path: String, reason: String)
  /// An import was cancelled (Ctrl-C) before it changed anything.
  case cancelled
  /// An import file that cannot be decoded; `line` is 1-based when known.
  case invalidArchive(file: String, line: Int?, reason: String)
  /// A file that could not be read.
  case cannotRead(path: String, reason: String)
  /// A file that could not be written; the previous file, if any, is intact.
  case cannotWrite(path: String, reason: String)
  /// SQLite refused a change or a read; the library is as it was before the command.
  case database(String)
  /// `undo` found no standing step in the log.
  case nothingToUndo
  /// `redo` found no undone step in the log.
  case nothingToRedo
  /// An album the step touches was edited or moved since (by this or another shell);
  /// nothing was undone (`undoing`) or redone.
  case changedSince(title: String, undoing: Bool)
  /// An album the step touches was deleted since; nothing was undone (`undoing`) or redone.
  case deletedSince(title: String, undoing: Bool)

  /// SQLite found the library file damaged earlier in this run; no change is written to it.
  case damaged
  /// A query with more words, or a longer word, than a search takes.
  case queryTooLong(words: Int, bytes: Int)

  /// An album an undone import would bring back was imported again since (its folder, by
  /// this or another shell); nothing was redone.
  case importedSince(title: String)
  /// A query word that cannot be read (an unknown field, a bad number, date or pattern).
  case badQuery(word: String, reason: String)
  /// A `::pattern` word while ICU, which reads regular expressions, cannot be loaded (`why`):
  /// the word is sound, the machine lacks a library (a saved view with one is kept).
  case patternsNeedICU(word: String, why: String)
  /// A move inside a view sorted by a query, whose order is not the library's.
  case sortedView(String)
  /// A regular expression that took longer than its budget on one album (`(a+)+$` on a
  /// long title backtracks without end); nothing was matched or changed.
  case patternTooSlow(pattern: String)
  /// A saved view that does not exist.
  case noView(name: String, known: [String])
  /// `view save NAME` with words that would reach NAME again: the views of the circle,
  /// NAME first and last. Nothing was saved.
  case viewRefersToItself(name: String, circle: [String])
  /// `view save NAME` would make the saved view `other` fail as `reason` says. Nothing was saved.
  case viewWouldBreak(name: String, other: String, reason: String)

  /// `write` found an album changed (by another shell) since it read it; nothing was written.
  case changedBeforeWriting(title: String)
  /// Another bluelib (process `pid`) is writing the files of the step `summary`: a write,
  /// undo or redo of a write waits for no other; nothing was changed.
  case writeInProgress(summary: String, pid: Int32)
  /// A signal stopped the finishing of `summary`'s files, which a bluelib that died left
  /// halfway, after `done` of `files`: its journal stays, and the next write, undo or redo,
  /// or the next start, finishes it. (A write the user started is cancelled instead.)
  case writeStopped(summary: String, done: Int, files: Int)

  /// A music server could not answer: its own line, naming it (``SourceError``).
  case server(String)
  /// `write` of an album whose files are on the music server `server` (its name), which
  /// bluelib reaches only through its protocol; nothing was written.
  case filesOnServer(title: String, server: String)

  /// The one-line, lowercase message to show the user.
  package var description: String {
    switch self {
    case .cannotOpen(let path, let reason):
      "cannot open library '\(path)': \(reason)"
    case .noAlbum(let index, let count, let view):
      "no album \(Self.oneBased(index)) (\(Self.size(count, view: view)))"
    case .noAlbums(let range, let count, let view) where range.count <= 1:
      "no album \(Self.oneBased(range.lowerBound)) (\(Self.size(count, view: view)))"
    case .noAlbums(let range, let count, let view):
      "no albums \(Self.oneBased(range.lowerBound)) to \(Self.oneBased(range.upperBound - 1)) (\(Self.size(count, view: view)))"
    case .noAlbumWithID(let id):
      "no album with id \(id) (it may have been deleted)"
    case .unknownField(let name):
      "unknown field \(Self.quoted(name)) (fields: \(AlbumField.typed.map(\.rawValue).joined(separator: ", ")))"
    case .emptyTitle:
      "title must not be empty"
    case .unknownTrackField(let name):
      "unknown track field \(Self.quoted(name)) (fields: \(TrackField.allCases.map(\.rawValue).joined(separator: ", ")))"
    case .emptyTrackTitle:
      "a track's title must not be empty"
    case .invalidTrackNumber(let text):
      "a track's number is a whole number from 1 to 9999, got \(Self.quoted(text))"
    case .noTrack(let title, _, 0):
      "\(Self.quoted(title, mark: "\"")) has no tracks (it did not come from a music folder)"
    case .noTrack(let title, let number, let count):
      "\(Self.quoted(title, mark: "\"")) has no track \(number) (it has \(count))"
    case .noTracks(let title, let numbers, let count):
      "\(Self.quoted(title, mark: "\"")) has no tracks \(Self.ranges(numbers)) (it has \(count))"
    case .invalidYear(let text):
      "year must be a whole number, got \(Self.quoted(text))"
    case .yearOutOfRange(let text):
      "year must be between 0 and 9999, got \(Self.quoted(text))"
    case .invalidCover(let text):
      "cover must be an http, https or file URL, got \(Self.quoted(text))"
    case .invalidRating(let message):
      message
    case .nulCharacter(let field):
      "\(field.rawValue) must not contain a NUL character"
    case .tooLong(let field, let limit, let actual):
      "\(field.rawValue) is longer than the limit of \(limit) (\(actual))"
    case .invalidMusicField(let field, let reason):
      "\(field) \(reason)"
    case .cannotScan(let path, let reason):
      "cannot scan '\(path)': \(reason)"
    case .cancelled:
      "cancelled; nothing was changed"
    case .invalidArchive(let file, let line, let reason):
      line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
    case .cannotRead(let path, let reason):
      "cannot read '\(path)': \(reason)"
    case .cannotWrite(let path, let reason):
      "cannot write '\(path)': \(reason)"
    case .database(let message):
      "library database error: \(message)"
    case .nothingToUndo:
      "nothing to undo"
    case .nothingToRedo:
      "nothing to redo"
    case .changedSince(let title, let undoing):
      "\(Self.quoted(title, mark: "\"")) was changed since (by another shell?); nothing \(undoing ? "undone" : "redone")"
    case .deletedSince(let title, let undoing):
      "\(Self.quoted(title, mark: "\"")) was deleted since (by another shell?); nothing \(undoing ? "undone" : "redone")"
    case .queryTooLong(let words, let bytes):
      "the query is too long (at most \(words) words of \(bytes >> 10) KiB each)"
    case .damaged:
      "the library file is damaged (database disk image is malformed), so no change is written to it;"
        + " save what can still be read with 'export FILE'"
    case .changedBeforeWriting(let title):
      "\(Self.quoted(title, mark: "\"")) was changed since it was read (by another shell?); nothing was written"
    case .writeInProgress(let summary, let pid):
      "another bluelib (process \(pid)) is writing the files of \(Self.quoted(summary)); nothing was changed"
        + " (try again when it is done)"
    case .writeStopped(let summary, let done, let files):
      "stopped after \(Counting.grouped(done)) of \(Counting.counted(files, "file")) of"
        + " \(Self.quoted(summary)); the next start of bluelib (or its next write, undo or redo) finishes it"
    case .importedSince(let title):
      "\(Self.quoted(title, mark: "\"")) was imported again since; nothing redone"
    case .badQuery(let word, let reason):
      "bad query word \(Self.quoted(word)): \(reason)"
    case .patternsNeedICU(let word, let why):
      "bad query word \(Self.quoted(word)): \(Self.patternsNeedICU(why))"
    case .sortedView(let query):
      "this view is sorted (\(Self.quoted(query))), so there is no place to move to; 'find' alone shows the library order"
    case .noView(let name, let known):
      "no view named \(Self.quoted(name))"
        + (known.isEmpty
          ? " (no views are saved; 'view save NAME' saves one)"
          : " (views: \(known.prefix(10).joined(separator: ", "))\(known.count > 10 ? " and \(known.count - 10) more" : ""))")
    case .patternTooSlow(let pattern):
      "the regular expression \(Self.quoted(pattern)) takes too long (over \(AlbumQuery.patternBudgetMilliseconds) ms on one album); try a simpler one"
    case .viewRefersToItself(let name, let circle) where circle.count <= 2:
      "@\(name) would refer to itself; nothing saved"
    case .viewRefersToItself(let name, let circle):
      "@\(name) would refer to itself (\(circle.map { "@" + $0 }.joined(separator: " → "))); nothing saved"
    case .viewWouldBreak(let name, let other, let reason):
      "saving @\(name) would break the view @\(other) (\(reason)); nothing saved"
    case .server(let message):
      message
    case .filesOnServer(let title, let server):
      "\(Self.quoted(title, mark: "\"")) is on \(server): bluelib cannot reach the server's files to write their tags;"
        + " nothing was written"
    }
  }

  private static func oneBased(_ index: Int) -> String {
    index == Int.max ? String(index) : String(index + 1)
  }

  /// `the library is empty`, `the library has 1 album`, `the library has N`, or the same of
  /// the view whose query is `view` (`the view 'sun' has 2`): how messages about a missing
  /// album say what there is.
  package static func size(_ count: Int, view: String? = nil) -> String {
    let scope = view.map { "the view \(quoted($0))" } ?? "the library"
    return switch count {
    case 0: "\(scope) is empty"
    case 1: "\(scope) has 1 album"
    default: "\(scope) has \(Counting.grouped(count))"
    }
  }

  /// `11, 12, 14-20`: ascending numbers, each run of three or more as a range, at most ten
  /// items (then `…`).
  package static func ranges(_ numbers: [Int]) -> String {
    var runs: [String] = []
    var index = 0
    let sorted = Array(Set(numbers)).sorted()
    while index < sorted.count {
      var end = index
      while end + 1 < sorted.count && sorted[end + 1] == sorted[end] + 1 { end += 1 }
      if end - index >= 2 {
        runs.append("\(sorted[index])-\(sorted[end])")
      } else {
        runs += sorted[index...end].map(String.init)
      }
      index = end + 1
    }
    return runs.prefix(10).joined(separator: ", ") + (runs.count > 10 ? ", …" : "")
  }

  /// Why a regular expression cannot be read now: `regular expressions need ICU: cannot
  /// load ICU (…)`, where `why` is the loader's one line.
  package static func patternsNeedICU(_ why: String) -> String {
    "regular expressions need ICU: \(why)"
  }

  /// `'value'` (or quoted with `mark`) with control characters escaped (`\n`, `\u{1B}`) and anything past
  /// 60 characters replaced by `…`, so a hostile or huge value stays one short line.
  package static func quoted(_ value: String, mark: Character = "'") -> String {
    var out = String(mark)
    var characters = 0
    for scalar in value.unicodeScalars {
      if characters == 60 {
        out += "…"
        break
      }
      characters += 1
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    out.append(mark)
    return out
  }
}
