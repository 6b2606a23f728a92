import BlueSystem
import FoundationEssentials

/// The parts of a Subsonic answer (`f=json`) bluelib reads: its envelope (`status`, the
/// error, what the server is), and the payloads of the requests it makes. Nothing in it is
/// trusted: every text is cut to ``longestText`` characters (escaped where shown, by whoever
/// shows it), every number taken as a string or a number and bounded, every list cut to
/// what was asked; a field of the wrong kind is taken as absent, not as a failure, since
/// servers differ (gonic's albums say `title` and `name`, supysonic's dates have no zone,
/// some servers write numbers as strings).
struct SubsonicAnswer: Decodable {
  /// `ok` or `failed`.
  var status: String
  var version: String?
  /// OpenSubsonic: the server's name (`navidrome`, `gonic`) and version.
  var type: String?
  var serverVersion: String?
  var openSubsonic = false
  var error: Failure?
  var albumList2: [Album]?
  var album: Album?
  var indexes: Indexes?
  var starred2: Starred?
  var openSubsonicExtensions: [Extension]?

  /// The most characters of any text taken.
  static let longestText = 1024
  /// The most albums one page of a list is taken with (what is asked: 500).
  static let mostAlbumsPerPage = 500
  /// The most songs of one album taken.
  static let mostSongsPerAlbum = 5000
  /// The most starred items taken.
  static let mostStarred = 100_000

  struct Failure: Equatable {
    var code: Int
    var message: String
  }

  struct Indexes {
    /// When the library last changed, in milliseconds since 1970; 0 or nil: it does not say.
    var lastModified: Int64?
  }

  struct Starred {
    var albums: [String]
    var songs: [String]
  }

  struct Extension: Equatable {
    var name: String
    var versions: [Int]
  }

  /// An album (`AlbumID3`), with its songs where `getAlbum` gives them.
  struct Album {
    var id: String
    var name: String
    var artist: String?
    var coverArt: String?
    var songCount: Int?
    var duration: Double?
    var year: Int?
    var genre: String?
    var created: Int64?
    var starred: Bool
    var userRating: Int?
    var playCount: Int?
    var played: Int64?
    var musicBrainzID: String?
    var songs: [Song]
  }

  /// A song (`Child`).
  struct Song {
    var id: String
    var title: String?
    var album: String?
    var artist: String?
    var albumArtist: String?
    var track: Int?
    var disc: Int?
    var year: Int?
    var genre: String?
    var duration: Double?
    var suffix: String?
    var created: Int64?
    var starred: Bool
    var userRating: Int?
    var musicBrainzID: String?
    /// Its bitrate in kb/s and sample rate in Hz (OpenSubsonic's `samplingRate`), when said.
    var bitRate: Int?
    var samplingRate: Int?
    /// OpenSubsonic's `displayComposer`.
    var composer: String?
  }

  private struct Envelope: Decodable {
    var response: SubsonicAnswer
    enum CodingKeys: String, CodingKey { case response = "subsonic-response" }
  }

  /// Reads the JSON `data` of an answer.
  static func decode(_ data: Data) throws -> SubsonicAnswer {
    try JSONDecoder().decode(Envelope.self, from: data).response
  }

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let body = try decoder.container(keyedBy: Key.self)
    guard let status = body.text("status") else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no status"))
    }
    self.status = status
    version = body.text("version", cut: 32)
    type = body.text("type", cut: 64)
    serverVersion = body.text("serverVersion", cut: 64)
    openSubsonic = body.flag("openSubsonic")
    if let error = try? body.nestedContainer(keyedBy: Key.self, forKey: Key("error")) {
      self.error = Failure(code: error.integer("code").map(Int.init) ?? 0, message: error.text("message") ?? "")
    }
    if let list = try? body.nestedContainer(keyedBy: Key.self, forKey: Key("albumList2")) {
      albumList2 = list.albums("album", most: Self.mostAlbumsPerPage)
    }
    if let album = try? body.nestedContainer(keyedBy: Key.self, forKey: Key("album")) {
      self.album = Album(album)
    }
    if let indexes = try? body.nestedContainer(keyedBy: Key.self, forKey: Key("indexes")) {
      self.indexes = Indexes(lastModified: indexes.integer("lastModified"))
    }
    if let starred = try? body.nestedContainer(keyedBy: Key.self, forKey: Key("starred2")) {
      self.starred2 = Starred(
        albums: starred.ids("album", most: Self.mostStarred), songs: starred.ids("song", most: Self.mostStarred))
    }
    if var list = try? body.nestedUnkeyedContainer(forKey: Key("openSubsonicExtensions")) {
      var found: [Extension] = []
      while !list.isAtEnd, found.count < 100 {
        guard let item = try? list.nestedContainer(keyedBy: Key.self) else {
          _ = try? list.decode(Skipped.self)
          continue
        }
        if let name = item.text("name", cut: 64) {
          var versions: [Int] = []
          if var numbers = try? item.nestedUnkeyedContainer(forKey: Key("versions")) {
            while !numbers.isAtEnd, versions.count < 16 {
              if let number = try? numbers.decode(Int.self) { versions.append(number) } else { break }
            }
          }
          found.append(Extension(name: name, versions: versions))
        }
      }
      openSubsonicExtensions = found
    }
  }

  /// Anything, read and dropped.
  struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
  }
}

extension SubsonicAnswer.Album {
  fileprivate init?(_ item: KeyedDecodingContainer<SubsonicAnswer.Key>) {
    guard let id = item.text("id", cut: SubsonicAnswer.longestID), !id.isEmpty else { return nil }
    self.id = id
    // gonic's albums have an empty `title` beside their `name`; folder-based lists the reverse.
    name = [item.text("name"), item.text("title"), item.text("album")].compactMap { $0 }.first { !$0.isEmpty } ?? ""
    artist = item.text("artist")
    coverArt = item.text("coverArt", cut: SubsonicAnswer.longestID).flatMap { $0.isEmpty ? nil : $0 }
    songCount = item.integer("songCount").map { Int(min(max($0, 0), 1 << 20)) }
    duration = item.number("duration").map { min(max($0, 0), 366 * 86_400) }
    year = item.integer("year").flatMap { (1...9999).contains($0) ? Int($0) : nil }
    genre = item.text("genre")
    created = item.text("created").flatMap(SubsonicAnswer.seconds(ofDate:))
    starred = item.text("starred").map { !$0.isEmpty } ?? false
    userRating = item.integer("userRating").flatMap { (1...5).contains($0) ? Int($0) : nil }
    playCount = item.integer("playCount").map { Int(min(max($0, 0), 1 << 30)) }
    played = item.text("played").flatMap(SubsonicAnswer.seconds(ofDate:))
    musicBrainzID = item.text("musicBrainzId", cut: 64).flatMap { $0.isEmpty ? nil : $0 }
    songs = []
    if var list = try? item.nestedUnkeyedContainer(forKey: SubsonicAnswer.Key("song")) {
      while !list.isAtEnd, songs.count < SubsonicAnswer.mostSongsPerAlbum {
        if let song = try? list.nestedContainer(keyedBy: SubsonicAnswer.Key.self) {
          if let read = SubsonicAnswer.Song(song) { songs.append(read) }
        } else if (try? list.decode(SubsonicAnswer.Skipped.self)) == nil {
          break
        }
      }
    }
  }
}

extension SubsonicAnswer.Song {
  fileprivate init?(_ item: KeyedDecodingContainer<SubsonicAnswer.Key>) {
    guard let id = item.text("id", cut: SubsonicAnswer.longestID), !id.isEmpty else { return nil }
    self.id = id
    title = item.text("title")
    album = item.text("album")
    artist = item.text("artist")
    // OpenSubsonic's `displayAlbumArtist`; the songs of older servers say none.
    albumArtist = item.text("displayAlbumArtist").flatMap { $0.isEmpty ? nil : $0 }
    track = item.integer("track").flatMap { (0...99_999).contains($0) ? Int($0) : nil }
    disc = item.integer("discNumber").flatMap { (0...999).contains($0) ? Int($0) : nil }
    year = item.integer("year").flatMap { (1...9999).contains($0) ? Int($0) : nil }
    genre = item.text("genre")
    duration = item.number("duration").map { min(max($0, 0), 366 * 86_400) }
    suffix = item.text("suffix", cut: 16).map { $0.filter { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    created = item.text("created").flatMap(SubsonicAnswer.seconds(ofDate:))
    starred = item.text("starred").map { !$0.isEmpty } ?? false
    userRating = item.integer("userRating").flatMap { (1...5).contains($0) ? Int($0) : nil }
    musicBrainzID = item.text("musicBrainzId", cut: 64).flatMap { $0.isEmpty ? nil : $0 }
    bitRate = item.integer("bitRate").flatMap { (1...100_000).contains($0) ? Int($0) : nil }
    samplingRate = item.integer("samplingRate").flatMap { (1...10_000_000).contains($0) ? Int($0) : nil }
    composer = item.text("displayComposer").flatMap { $0.isEmpty ? nil : $0 }
  }
}

extension SubsonicAnswer {
  /// The longest id taken: an album or song with a longer one is left out.
  static let longestID = 200

  /// The seconds since 1970 of an ISO 8601 date and time (`2019-11-30T00:00:00Z`,
  /// `2019-06-13T12:57:28.85+01:00`, supysonic's `2024-12-01T10:00:00.123456` without a
  /// zone, read as UTC); nil when it is none.
  static func seconds(ofDate text: String) -> Int64? {
    let bytes = Array(text.utf8.prefix(40))
    func number(_ range: Range<Int>) -> Int64? {
      guard range.upperBound <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[range] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard let year = number(0..<4), bytes.count >= 10, bytes[4] == 0x2D, let month = number(5..<7), bytes[7] == 0x2D,
      let day = number(8..<10), (1...12).contains(month), (1...31).contains(day), year >= 1
    else { return nil }
    var (hour, minute, second): (Int64, Int64, Int64) = (0, 0, 0)
    var index = 10
    if bytes.count >= 19, bytes[10] == 0x54 || bytes[10] == 0x20, let h = number(11..<13), let m = number(14..<16),
      let s = number(17..<19)
    {
      (hour, minute, second) = (h, m, s)
      index = 19
      while index < bytes.count, bytes[index] == 0x2E || (bytes[index] >= 0x30 && bytes[index] <= 0x39) { index += 1 }
    }
    var offset: Int64 = 0
    if index + 6 <= bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D, let h = number(index + 1..<index + 3),
      let m = number(index + 4..<index + 6)
    {
      offset = (h * 3600 + m * 60) * (bytes[index] == 0x2D ? -1 : 1)
    }
    return secondsSince1970(year: year, month: month, day: day, hour: hour, minute: minute, second: second) - offset
  }
}

extension KeyedDecodingContainer where Key == SubsonicAnswer.Key {
  /// The text at `name`, cut to `cut` characters; a number is taken as its digits; nil when
  /// absent or of another kind.
  fileprivate func text(_ name: String, cut: Int = SubsonicAnswer.longestText) -> String? {
    let key = SubsonicAnswer.Key(name)
    if let text = try? decodeIfPresent(String.self, forKey: key) {
      return text.count > cut ? String(text.prefix(cut)) : text
    }
    if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
    return nil
  }

  /// The whole number at `name` (a number, a whole double, or digits in a string).
  fileprivate func integer(_ name: String) -> Int64? {
    let key = SubsonicAnswer.Key(name)
    if let number = try? decodeIfPresent(Int64.self, forKey: key) { return number }
    if let number = try? decodeIfPresent(Double.self, forKey: key), number.isFinite, abs(number) < 1e15 {
      return Int64(number)
    }
    if let text = try? decodeIfPresent(String.self, forKey: key) { return Int64(text.prefix(18)) }
    return nil
  }

  /// The finite number at `name`.
  fileprivate func number(_ name: String) -> Double? {
    let key = SubsonicAnswer.Key(name)
    if let number = try? decodeIfPresent(Double.self, forKey: key), number.isFinite { return number }
    if let text = try? decodeIfPresent(String.self, forKey: key), let number = Double(text.prefix(32)),
      number.isFinite
    {
      return number
    }
    return nil
  }

  /// Whether `name` is true (`true`, or `"true"`).
  fileprivate func flag(_ name: String) -> Bool {
    let key = SubsonicAnswer.Key(name)
    if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
    return (try? decodeIfPresent(String.self, forKey: key)) == "true"
  }

  /// The albums of the list at `name`, at most `most` of them.
  fileprivate func albums(_ name: String, most: Int) -> [SubsonicAnswer.Album] {
    guard var list = try? nestedUnkeyedContainer(forKey: SubsonicAnswer.Key(name)) else { return [] }
    var albums: [SubsonicAnswer.Album] = []
    while !list.isAtEnd, albums.count < most {
      if let item = try? list.nestedContainer(keyedBy: SubsonicAnswer.Key.self) {
        if let album = SubsonicAnswer.Album(item) { albums.append(album) }
      } else if (try? list.decode(SubsonicAnswer.Skipped.self)) == nil {
        break
      }
    }
    return albums
  }

  /// The ids of the items of the list at `name`, each with its rating after a blank (what a
  /// fingerprint of them needs), at most `most` of them.
  fileprivate func ids(_ name: String, most: Int) -> [String] {
    guard var list = try? nestedUnkeyedContainer(forKey: SubsonicAnswer.Key(name)) else { return [] }
    var ids: [String] = []
    while !list.isAtEnd, ids.count < most {
      if let item = try? list.nestedContainer(keyedBy: SubsonicAnswer.Key.self) {
        let id = item.text("id", cut: SubsonicAnswer.longestID) ?? ""
        ids.append(id + " " + (item.integer("userRating").map(String.init) ?? ""))
      } else if (try? list.decode(SubsonicAnswer.Skipped.self)) == nil {
        break
      }
    }
    return ids
  }
}
