import AlbumModel
import BlueLibrary
import BlueSystem

/// `edit [ALBUM…|all] FIELD=VALUE…`: change fields of an album, or of several as one step;
/// `edit [ALBUM] track N|RANGE|all FIELD=VALUE…`: change tracks' title, artist or number.
struct EditCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "edit", group: .change, synopsis: "[ALBUM…|all] FIELD=VALUE…",
    summary: "change fields of an album (the current one by default), of several at once, or of a track",
    details: """
      Fields: title, artist, genre, year, cover, albumartist. An empty value clears year or
      cover. albumartist (one album at a time) is the artist too, and 'write' puts it into
      the album-artist tag of every file of the album, even where bluelib inferred it (a
      compilation's "Various Artists").
      Albums by index, range (2-4), title or 'all' (every album of the view, at most
      10,000): the same fields set on each, as one step that one 'undo' takes back. Several
      words before the first FIELD=VALUE that are not numbers name one title (edit Best of
      Bowie year=1993).

      edit [ALBUM] track N|RANGE|all FIELD=VALUE… edits tracks of an album from a music
      folder (numbered as 'show' lists them: 3, 1-10, 1,4,7-9, or all of them), as one step
      that one 'undo' takes back: title, artist (empty: none, the album's artist stands for
      it), number (1 to 9999, one track at a time) or albumartist (the file's album-artist
      tag: one that differs makes its track another album at the next import). A number
      the album does not have is
      refused, and nothing changes. 'show' marks an edited track with what its file says, an
      import keeps the edit, and 'write' puts it into the files.
      """,
    examples: [
      "edit year=1993", "edit 2 artist=\"No Doubt\" genre=Rock", "edit 1-3 6 genre=Jazz",
      "edit 6 track 3 title=\"Subterranean Homesick Alien\"", "edit track 2 number=3 artist=\"Thom Yorke\"",
      "edit 6 track 1-10 artist=Radiohead", "edit track all artist=", "edit 4 albumartist=\"Various Artists\"",
    ],
    arguments: [.album, .assignments])

  static func completionKinds(at position: Int, after previous: [Word]) -> [CommandConfiguration.Argument] {
    // After `track N|RANGE|all`, a track's fields.
    if let keyword = previous.lastIndex(where: { !$0.isQuoted && $0.text.lowercased() == "track" }),
      keyword + 1 < previous.count, TrackNumbers.namesTracks(previous[keyword + 1].text)
    {
      return [.trackAssignments]
    }
    if previous.last.map({ !$0.isQuoted && $0.text.lowercased() == "track" }) == true { return [.keyword(["all"])] }
    // The albums are optional: any word up to the first FIELD=VALUE may already be one.
    if previous.contains(where: { !$0.isQuoted && $0.text.contains("=") }) { return [.assignments] }
    return (position == 0 ? [.keyword(["all"])] : []) + [.keyword(["track"]), .album, .assignments]
  }

  /// The albums typed; nil for the current album.
  let albums: AlbumChoice?
  let assignments: [FieldAssignment]
  /// `albumartist=X`, when typed (not for tracks).
  let albumArtist: String?
  /// `track N|RANGE|all FIELD=VALUE…`: the album (nil: the current one), the tracks' places
  /// (nil: every track), and what their fields become (the fields in the order typed, for
  /// the message).
  let trackEdit: (album: AlbumReference?, places: [Int]?, edit: TrackEdit, fields: [TrackField])?

  init(arguments: [Word]) throws(CommandError) {
    if let track = try Self.trackEdit(arguments) {
      trackEdit = track
      albums = nil
      assignments = []
      albumArtist = nil
      return
    }
    trackEdit = nil
    // `albumartist=X`: the album's artist, written into each of its files.
    let isAlbumArtist = { (word: Word) in word.text.lowercased().hasPrefix("albumartist=") }
    albumArtist = try arguments.last(where: isAlbumArtist).map { word throws(CommandError) in
      let value = String(word.text.dropFirst("albumartist=".count))
      do throws(LibraryError) { _ = try TrackEdit().setting(.albumartist, to: value) } catch {
        throw CommandError(error)
      }
      return value
    }
    var words = arguments.filter { !isAlbumArtist($0) }[...]
    var albumWords: [Word] = []
    // Albums up to the first FIELD=VALUE (`title="Ray of Light"` is one, quotes and all; a
    // quoted title with an `=` that names no field is a title).
    while let first = words.first {
      let assignment: FieldAssignment?
      do throws(CommandError) {
        assignment = try FieldAssignment.parse(first)
      } catch {
        guard first.isQuoted else { throw error }
        assignment = nil
      }
      if assignment != nil { break }
      albumWords.append(first)
      words = words.dropFirst()
    }
    let typed = albumWords
    if albumWords.count > 1, albumWords.allSatisfy({ !$0.isQuoted && !AlbumReferences.namesByNumber($0.text) }) {
      // Words that are not numbers, ranges or 'all': one title typed without quotes.
      albumWords = [try AlbumReference(restOfLine: albumWords[...]).word]
    }
    albums = albumWords.isEmpty ? nil : try AlbumChoice(arguments: albumWords)
    var assignments: [FieldAssignment] = []
    for word in words {
      guard let assignment = try FieldAssignment.parse(word) else {
        throw CommandError("expected FIELD=VALUE, got \(TextSanitizer.quotedWord(word.text))")
      }
      assignments.append(assignment)
    }
    guard !assignments.isEmpty || albumArtist != nil else {
      // `edit 2 oops`: the last word was meant as the change.
      if typed.count > 1, let last = typed.last {
        throw CommandError("expected FIELD=VALUE, got \(TextSanitizer.quotedWord(last.text))")
      }
      throw .missing("FIELD=VALUE", usage: Self.configuration.usage)
    }
    self.assignments = assignments
  }

  /// `edit changes at most 10,000 albums at once, not 25,000 (narrow the view with 'find')`.
  private static func tooMany(_ count: Int) -> CommandError {
    CommandError(
      "edit changes at most \(Library.grouped(maximumAlbums)) albums at once, not \(Library.grouped(count)) "
        + "(narrow the view with 'find')")
  }

  /// `track 3`, `tracks 1-10`, `every track`.
  private static func named(_ places: [Int]?) -> String {
    guard let places else { return "every track" }
    return places.count == 1 ? "track \(places[0])" : "tracks " + LibraryError.ranges(places)
  }

  /// The most albums one `edit` changes: each is read, checked and logged (before and after)
  /// on its own, some 2 KB each while the command runs.
  static let maximumAlbums = 10_000

  /// `[ALBUM] track N|RANGE|all FIELD=VALUE…` when `arguments` are that: an unquoted
  /// `track` followed by track numbers (`3`, `1-10`, `1,4,7-9`, several such words) or
  /// `all`, and only assignments after them; nil for any other edit.
  private static func trackEdit(
    _ arguments: [Word]
  ) throws(CommandError) -> (album: AlbumReference?, places: [Int]?, edit: TrackEdit, fields: [TrackField])? {
    guard let keyword = arguments.firstIndex(where: { !$0.isQuoted && $0.text.lowercased() == "track" }),
      keyword + 1 < arguments.count
    else { return nil }
    var end = keyword + 1
    while end < arguments.count, !arguments[end].isQuoted, TrackNumbers.namesTracks(arguments[end].text) { end += 1 }
    guard end > keyword + 1, arguments[end...].allSatisfy({ $0.text.contains("=") }) else { return nil }
    let places = try TrackNumbers.places(arguments[(keyword + 1)..<end].map(\.text), allowingAll: true)
    let changes = arguments[end...]
    guard !changes.isEmpty else { throw .missing("FIELD=VALUE", usage: "edit [ALBUM] track N|RANGE|all FIELD=VALUE…") }
    var edit = TrackEdit()
    var fields: [TrackField] = []
    do throws(LibraryError) {
      for word in changes {
        let equals = word.text.firstIndex(of: "=")!
        let field = try TrackField(parsing: String(word.text[..<equals]))
        edit = try edit.setting(field, to: String(word.text[word.text.index(after: equals)...]))
        if !fields.contains(field) { fields.append(field) }
      }
    } catch {
      throw CommandError(error)
    }
    if edit.number != nil, places.map({ Set($0).count != 1 }) ?? true {
      throw CommandError("number= gives one track its number: edit [ALBUM] track N number=M")
    }
    let album = keyword == 0 ? nil : try AlbumReference(restOfLine: arguments[..<keyword])
    return (album, places, edit, fields)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    if let trackEdit {
      let change = try library.editTracks(
        ofAlbumAt: try trackEdit.album.resolve(in: library), places: trackEdit.places, trackEdit.edit)
      let name = "\(quotedTitle(change.album)) " + Self.named(trackEdit.places)
      guard change.changed else {
        let plural = (trackEdit.places?.count ?? 1) > 1
        return .lines(["\(name) already \(plural ? "say" : "says") that; nothing changed"])
      }
      let tracklist = Tracklist(
        tracks: change.tracks, discs: 1, musicBrainzAlbumID: nil, musicBrainzReleaseGroupID: nil)
      return .lines(
        ["edited \(name): " + trackEdit.fields.map(\.rawValue).joined(separator: ", ")]
          + AlbumBrowser.trackLines(tracklist, albumArtist: change.album.artist, style: .plain))
    }
    if let albums, albums.all, try library.count() > Self.maximumAlbums {
      throw Self.tooMany(try library.count())
    }
    let indices = try albums?.indices(in: library) ?? [Optional<AlbumReference>.none.resolve(in: library)]
    guard !indices.isEmpty else { throw CommandError("no albums to edit (\(library.extent(0)))") }
    guard indices.count <= Self.maximumAlbums else { throw Self.tooMany(indices.count) }
    let fields = (assignments.map(\.field.rawValue) + (albumArtist != nil ? ["albumartist"] : []))
      .joined(separator: ", ")
    if let albumArtist {
      guard indices.count == 1, let index = indices.first else {
        throw CommandError("albumartist= is given to one album at a time (it goes into each of its files)")
      }
      let before = try library.album(at: index)
      let edited = try FieldAssignment.apply(assignments, to: before)
      guard try library.tracklist(of: before)?.tracks.isEmpty == false else {
        // No files to write it into: it is the album's artist.
        var album = edited
        album.artist = albumArtist
        let (_, after) = try library.edit(album)
        return index == library.selection
          ? .changed("edited \(quotedTitle(after)): " + fields)
          : .changedAlbum("edited \(quotedTitle(after)): " + fields, after)
      }
      let change = try library.editAlbumArtist(ofAlbumAt: index, to: albumArtist, with: edited)
      guard change.changed else { return .lines(["\(quotedTitle(change.album)) already says that; nothing changed"]) }
      let message = "edited \(quotedTitle(change.album)): " + fields
      return index == library.selection ? .changed(message) : .changedAlbum(message, change.album)
    }
    guard indices.count == 1, let index = indices.first else {
      // Each album checked before any is written: a bad value changes nothing.
      let edited = try indices.map { index in try FieldAssignment.apply(assignments, to: library.album(at: index)) }
      let after = try library.edit(edited)
      let named = namedTitles(after, of: after.count)
      return .changed("edited \(albumCount(after.count)) (\(named)): " + fields)
    }
    let before = try library.album(at: index)
    // Editing is not a selection move: the current album stays current.
    let (_, after) = try library.edit(FieldAssignment.apply(assignments, to: before))
    let message = "edited \(quotedTitle(after)): " + fields
    // The viewport shows the current album; an edit of another one shows that one.
    return index == library.selection ? .changed(message) : .changedAlbum(message, after)
  }
}
