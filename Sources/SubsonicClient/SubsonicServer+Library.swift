import BlueSystem
import BlueText
import FoundationEssentials
import MusicSource

// The server's albums as a source of the library: its list of albums by pages of 500
// (`getAlbumList2 alphabeticalByName`), never a request an album at a sync; each album's
// tracks (`getAlbum`) when the library first needs them; what says it changed in a few
// small requests; and the stars and ratings every client of it shares.
//
// Where things are filed (below ``root``): an album at its id (`ID`), its tracks at
// `ID/SONG.SUFFIX`, its cover at `cover:COVERID`, each id with what is not a letter, a digit
// or `-_.~` percent-encoded (so `/`, `:` and `.` in an id stay inside it). The paths alone
// say which album, song or cover they are: nothing is looked up.
extension SubsonicServer {
  /// An id as it is filed.
  static func filed(_ id: String) -> String {
    var out = ""
    for byte in id.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
  }

  /// The id filed as `text` (``filed(_:)`` undone); nil when it is not one.
  static func id(filed text: Substring) -> String? {
    guard !text.isEmpty else { return nil }
    return text.percentDecoded
  }

  /// The album and song ids of a track's path (`ALBUM/SONG.SUFFIX`), or the album's alone
  /// for an album's (`ALBUM`).
  static func ids(ofPath path: String) -> (album: String, song: String?)? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, let album = id(filed: parts[0]) else { return nil }
    guard parts.count == 2 else { return (album, nil) }
    let file = parts[1]
    guard let song = id(filed: file.prefix { $0 != "." }) else { return nil }
    return (album, song)
  }

  /// What a cover's place below the root starts with.
  static let coverPrefix = "cover:"

  /// The cover URL of the cover `id`.
  func coverURL(ofCover id: String) -> String { root + "/" + Self.coverPrefix + Self.filed(id) }

  /// The album listed at `path` has no single first track whose picture stands for it:
  /// its cover comes with its entry in the list (``SourceAlbum/coverURL``).
  package func coverURL(ofTrack path: String) -> String {
    guard let ids = Self.ids(ofPath: path) else { return "" }
    return coverURL(ofCover: ids.song ?? ids.album)
  }

  // MARK: - Fingerprint

  /// What changes when the albums, stars or ratings do, in a few small requests:
  /// `getIndexes` with an `ifModifiedSince` in the future (its `lastModified`: when the
  /// library was last scanned, without the list of artists), the OpenSubsonic extensions
  /// once (for a server that speaks OpenSubsonic), `getStarred2` (the starred albums and
  /// songs, and their ratings where it says them), and, from a server whose `lastModified`
  /// says nothing (gonic's is 0), the head of its newest albums. The first of them finds how
  /// to authenticate (a supysonic: two requests). Three or four requests in all.
  package func fingerprint() throws(SourceError) -> String {
    do throws(SubsonicError) {
      let later = (Int64(Date().timeIntervalSince1970) + 86_400) * 1000
      let indexes = try call("getIndexes", [("ifModifiedSince", String(later))])
      askExtensions()
      var parts: [String] = []
      if let modified = indexes.indexes?.lastModified, modified > 0 {
        parts.append("scanned \(modified)")
      } else {
        let newest = try call(
          "getAlbumList2", [("type", "newest"), ("size", "50"), ("offset", "0")], maxBytes: Self.largestList)
        parts.append("newest " + Self.hash((newest.albumList2 ?? []).map(Self.stamp)))
      }
      let starred = try call("getStarred2", maxBytes: Self.largestList).starred2
      parts.append(
        "starred " + Self.hash((starred?.albums ?? []).map { "a" + $0 } + (starred?.songs ?? []).map { "s" + $0 }))
      if ratesSongsOnly { parts.append("songs rated") }
      // The way that worked, for the next start (``recall(lastFingerprint:)``).
      if authentication == .password { parts.append("by password") }
      let fingerprint = parts.joined(separator: " ")
      noteFingerprint(fingerprint)
      return fingerprint
    } catch {
      throw error.sourceError
    }
  }

  /// The password, hex-encoded, from the first request, when the last sync found the server
  /// takes no token (its fingerprint says `by password`): one request fewer at each start
  /// (supysonic answers the token with error 10 every time). A wrong password is still
  /// error 40, said as such.
  package func recall(lastFingerprint: String?) {
    guard let lastFingerprint, lastFingerprint.hasSuffix(" by password") else { return }
    usePasswordFromTheStart()
  }

  /// What of an album a change of it changes.
  private static func stamp(_ album: SubsonicAnswer.Album) -> String {
    "\(album.id)\u{0}\(album.name)\u{0}\(album.songCount ?? -1)\u{0}\(album.duration ?? -1)\u{0}\(album.created ?? 0)"
  }

  /// 16 hex digits (FNV-1a) of `texts` in order.
  static func hash(_ texts: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for text in texts {
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      hash = (hash ^ 0xFF) &* 0x100_0000_01b3
    }
    return String(hash, radix: 16).leftPadded(to: 16) + "-\(texts.count)"
  }

  // MARK: - Listing

  /// Every album, without its tracks: `getAlbumList2 type=alphabeticalByName size=500`,
  /// page after page until one has fewer than 500 (each page handed on as it arrives). An
  /// album listed twice (the list changed between pages) is handed on once; a server that
  /// answers the same page whatever the offset is stopped at its second.
  package func listTracks(_ receive: (SourceListing) -> Bool) throws(SourceError) {
    do throws(SubsonicError) {
      var seen = Set<String>()
      var offset = 0
      var previousFirst: String?
      for _ in 0..<Self.mostPages {
        let page =
          try call(
            "getAlbumList2",
            [("type", "alphabeticalByName"), ("size", String(Self.albumsPerPage)), ("offset", String(offset))],
            maxBytes: Self.largestList
          ).albumList2 ?? []
        if offset > 0, let first = page.first?.id, first == previousFirst, page.count == Self.albumsPerPage {
          throw SubsonicError(server: name, .badAnswer("the same albums at offset \(offset) as before it"))
        }
        previousFirst = page.first?.id
        let fresh = page.filter { seen.insert($0.id).inserted }
        if !fresh.isEmpty, !receive(.albums(fresh.map(sourceAlbum))) { return }
        if page.count < Self.albumsPerPage { return }
        offset += Self.albumsPerPage
      }
    } catch {
      throw error.sourceError
    }
  }

  /// An album of a list as the library takes it.
  func sourceAlbum(_ album: SubsonicAnswer.Album) -> SourceAlbum {
    var listed = SourceAlbum(
      path: Self.filed(album.id), title: album.name, artist: album.artist ?? "", trackCount: album.songCount ?? 0,
      duration: album.duration ?? 0)
    listed.year = album.year
    listed.genre = album.genre
    listed.modified = album.created ?? 0
    listed.coverURL = album.coverArt.map(coverURL(ofCover:))
    listed.musicBrainzAlbumID = album.musicBrainzID
    listed.rating = album.userRating
    // A server of OpenSubsonic's rates albums and says so in its list (no `userRating`: none);
    // one that rates songs only (supysonic) says nothing of an album's: the library's stands.
    listed.ratingKnown = album.userRating != nil || (features?.openSubsonic == true && !ratesSongsOnly)
    listed.favourite = album.starred
    listed.plays = album.playCount
    listed.lastPlayed = album.played
    return listed
  }

  /// The tracks of the album filed at `album` (`getAlbum`), in its order.
  package func tracks(ofAlbum album: String) throws(SourceError) -> [SourceTrack] {
    guard let id = Self.ids(ofPath: album)?.album else {
      throw SourceError("\(name): '\(TextSanitizer.escaped(album))' is no album of it", refused: true)
    }
    do throws(SubsonicError) {
      guard let found = try call("getAlbum", [("id", id)], maxBytes: Self.largestList).album else {
        throw SubsonicError(server: name, .badAnswer("no album in the answer"))
      }
      return found.songs.map { song in
        let suffix = song.suffix.flatMap { $0.isEmpty ? nil : $0 } ?? "audio"
        var track = SourceTrack(
          uri: album + "/" + Self.filed(song.id) + "." + suffix, modified: song.created ?? found.created ?? 0,
          duration: song.duration ?? 0)
        track.album = song.album ?? found.name
        track.artist = song.artist
        track.albumArtist = song.albumArtist ?? found.artist
        track.title = song.title
        track.track = song.track
        track.disc = song.disc
        track.date = (song.year ?? found.year).map(String.init)
        track.genre = song.genre
        track.musicBrainzTrackID = song.musicBrainzID
        track.musicBrainzAlbumID = found.musicBrainzID
        track.rating = song.userRating
        track.favourite = song.starred
        track.bitrate = song.bitRate ?? 0
        track.sampleRate = song.samplingRate ?? 0
        track.composer = song.composer
        return track
      }
    } catch {
      throw error.sourceError
    }
  }
}
