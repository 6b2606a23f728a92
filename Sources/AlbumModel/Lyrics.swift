import BlueSystem
import BlueText
internal import MusicFolder

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A track's lyrics: from an LRC file beside it (`01 Airbag.lrc` for `01 Airbag.mp3`), or
/// embedded in it (ID3v2 USLT or SYLT, Vorbis LYRICS or UNSYNCEDLYRICS, MP4 ©lyr). Synced
/// lyrics have a time for each line (LRC `[mm:ss.xx]` stamps, SYLT); ``line(at:)`` says which
/// line is sung at a time of the track.
package struct Lyrics: Sendable, Equatable {
  /// One line: its text, and for synced lyrics when it starts, in seconds into the track.
  package struct Line: Sendable, Equatable {
    package var time: Double?
    package var text: String
  }

  /// Where the lyrics were found.
  package enum Source: Sendable, Equatable {
    /// An LRC (or plain text) file beside the track, at this path.
    case sidecar(String)
    /// Embedded in the track, at this path.
    case embedded(String)
  }

  /// The lines, in time order when synced (a line sung twice, `[00:12.00][01:15.30]`, is
  /// there twice), else as written.
  package var lines: [Line]
  package var source: Source

  /// Whether every line has a time.
  package var isSynced: Bool { !lines.isEmpty && lines.allSatisfy { $0.time != nil } }

  /// The lines' text, without timestamps: what `lyrics` prints.
  package var text: [String] { lines.map(\.text) }

  package init(lines: [Line], source: Source) {
    self.lines = lines
    self.source = source
  }

  /// The index of the line sung `seconds` into the track: the last one that starts at or
  /// before it. Nil before the first line, and for lyrics that are not synced.
  package func index(at seconds: Double) -> Int? {
    guard isSynced, seconds.isFinite else { return nil }
    // The lines are in time order: the first one that starts after `seconds`, less one.
    var low = 0
    var high = lines.count
    while low < high {
      let middle = (low + high) / 2
      if lines[middle].time ?? 0 <= seconds { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : low - 1
  }

  /// The text of the line sung `seconds` into the track (see ``index(at:)``): what a
  /// now-playing line shows of synced lyrics. Nil before the first line and for lyrics that
  /// are not synced.
  package func line(at seconds: Double) -> String? {
    index(at: seconds).map { lines[$0].text }
  }

  // MARK: - LRC

  /// Lyrics from the text of an LRC file (or plain text): `[mm:ss.xx]` stamps before a line
  /// give its times (several stamps, several times; `[mm:ss]`, `[mm:ss:xx]` and hours too);
  /// `[offset:+500]` moves every line 500 ms earlier; tags such as `[ar:…]` and `[ti:…]` and
  /// the word stamps of enhanced LRC (`<mm:ss.xx>`) are left out. When no line has a stamp,
  /// the text's lines as they are, blank lines at the ends dropped. A line sung more than
  /// ``stampsPerLine`` times keeps its first stamps, and at most ``timedLines`` lines are
  /// kept: a chorus needs a handful, and one line of 100,000 stamps printed 100,000 lines.
  package init(lrc: String, source: Source) {
    var timed: [(time: Double, order: Int, text: String)] = []
    var plain: [String] = []
    var offset = 0.0
    for raw in lrc.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      var rest = Substring(raw)
      var times: [Double] = []
      var tagged = false
      while rest.first == "[", let close = rest.firstIndex(of: "]") {
        let tag = rest[rest.index(after: rest.startIndex)..<close]
        if let time = Self.time(tag) {
          times.append(time)
        } else if let colon = tag.firstIndex(of: ":"), tag[..<colon].allSatisfy(\.isLetter) {
          tagged = true
          if tag[..<colon].lowercased() == "offset", let milliseconds = Double(tag[tag.index(after: colon)...]) {
            offset = milliseconds / 1000
          }
        } else {
          break
        }
        rest = rest[rest.index(after: close)...]
      }
      let text = Self.withoutWordStamps(rest).trimming(.whitespaces)
      if times.isEmpty {
        if !tagged { plain.append(text) }
      } else {
        for time in times.prefix(Self.stampsPerLine) where timed.count < Self.timedLines {
          timed.append((time, timed.count, text))
        }
      }
    }
    if timed.isEmpty {
      while plain.last?.isEmpty == true { plain.removeLast() }
      let first = plain.firstIndex { !$0.isEmpty } ?? plain.endIndex
      self.init(lines: plain[first...].map { Line(time: nil, text: $0) }, source: source)
    } else {
      let sorted = timed.sorted { ($0.time, $0.order) < ($1.time, $1.order) }
      self.init(lines: sorted.map { Line(time: max(0, $0.time - offset), text: $0.text) }, source: source)
    }
  }

  /// The most times one line of an LRC file is sung: its stamps after these are left out.
  static let stampsPerLine = 64
  /// The most timed lines kept of an LRC file: a song has a hundred or so.
  static let timedLines = 10_000

  /// `mm:ss`, `mm:ss.xx`, `mm:ss:xx` (hundredths after a colon) or `hh:mm:ss.xx` in
  /// seconds; nil for other text.
  static func time(_ tag: Substring) -> Double? {
    let parts = tag.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count) else { return nil }
    var numbers: [Double] = []
    for (index, part) in parts.enumerated() {
      let isLast = index == parts.count - 1
      guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
        let value = Double(part)
      else { return nil }
      numbers.append(value)
    }
    guard parts.count == 3 else { return numbers[0] * 60 + numbers[1] }
    if !parts[2].contains("."), parts[2].count == 2 { return numbers[0] * 60 + numbers[1] + numbers[2] / 100 }
    return numbers[0] * 3600 + numbers[1] * 60 + numbers[2]
  }

  /// `text` without the `<mm:ss.xx>` word stamps of enhanced LRC.
  static func withoutWordStamps(_ text: Substring) -> String {
    guard text.contains("<") else { return String(text) }
    var result = ""
    var rest = text
    while let open = rest.firstIndex(of: "<") {
      result += rest[..<open]
      guard let close = rest[open...].firstIndex(of: ">"), time(rest[rest.index(after: open)..<close]) != nil else {
        result.append("<")
        rest = rest[rest.index(after: open)...]
        continue
      }
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }

  // MARK: - Reading

  /// The most bytes of an LRC file read: lyrics are kilobytes; anything larger is not them.
  static let sidecarLimit = 1 << 20

  /// The lyrics of the audio file at `path`: the LRC file beside it (the same name with
  /// `.lrc` or `.LRC` in place of its extension) when there is one, else those it embeds
  /// (synced SYLT lines before unsynced text, which may itself be LRC). Nil when it has none.
  /// A server's song (`mpd://HOST:PORT/…`) has none here: no local file is opened for it.
  package static func read(forTrack path: String) -> Lyrics? {
    find(forTrack: path).lyrics
  }

  /// An LRC file beside a track that was there but not read, and why: `larger than 1 MiB`,
  /// `not a regular file but a FIFO`, `not text`, `empty`.
  package struct Unread: Sendable, Equatable {
    package var path: String
    package var reason: String
  }

  /// ``read(forTrack:)``, and the LRC files beside the track that were not read (so a user
  /// is told why rather than that there is none).
  package static func find(forTrack path: String) -> (lyrics: Lyrics?, unread: [Unread]) {
    if !path.hasPrefix("/") && path.contains("://") { return (nil, []) }
    var unread: [Unread] = []
    for sidecar in sidecarPaths(of: path) {
      let bytes: [UInt8]
      switch readSmallFile(sidecar) {
      case .absent: continue
      case .unread(let reason):
        unread.append(Unread(path: sidecar, reason: reason))
        continue
      case .read(let read): bytes = read
      }
      guard Self.looksLikeText(bytes) else {
        unread.append(Unread(path: sidecar, reason: "not text"))
        continue
      }
      let lyrics = Lyrics(lrc: decode(bytes), source: .sidecar(sidecar))
      if !lyrics.lines.isEmpty { return (lyrics, unread) }
      unread.append(Unread(path: sidecar, reason: bytes.isEmpty ? "empty" : "no lyrics in it"))
    }
    return (embeddedLyrics(of: path), unread)
  }

  /// The lyrics `path` embeds, nil when none.
  private static func embeddedLyrics(of path: String) -> Lyrics? {
    guard let embedded = EmbeddedLyrics.read(path) else { return nil }
    if !embedded.synced.isEmpty {
      let timed = embedded.synced.allSatisfy { $0.milliseconds != nil }
      let lines = embedded.synced.enumerated().map { index, line in
        (line: Line(time: timed ? Double(line.milliseconds ?? 0) / 1000 : nil, text: line.text), index: index)
      }
      let ordered = timed ? lines.sorted { ($0.line.time ?? 0, $0.index) < ($1.line.time ?? 0, $1.index) } : lines
      return Lyrics(lines: ordered.map(\.line), source: .embedded(path))
    }
    guard let text = embedded.text else { return nil }
    let lyrics = Lyrics(lrc: text, source: .embedded(path))
    return lyrics.lines.isEmpty ? nil : lyrics
  }

  /// `dir/name.lrc` for `dir/name.ext`: where ``read(forTrack:)`` looks first.
  package static func sidecarPath(of path: String) -> String {
    let slash = path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex
    let stem = path[slash...].lastIndex(of: ".").map { path[..<$0] } ?? Substring(path)
    return stem + ".lrc"
  }

  /// `dir/name.lrc` and `dir/name.LRC` for `dir/name.ext`.
  static func sidecarPaths(of path: String) -> [String] {
    let lower = sidecarPath(of: path)
    return [lower, String(lower.dropLast(4)) + ".LRC"]
  }

  /// What was read of a file beside a track.
  private enum SmallFile {
    case absent
    case unread(String)
    case read([UInt8])
  }

  /// The bytes of the regular file at `path`, at most ``sidecarLimit``; why not when it is
  /// not a regular file (a FIFO would block, `/dev/zero` never ends), is larger or cannot be
  /// read.
  private static func readSmallFile(_ path: String) -> SmallFile {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else {
      let code = errno
      return code == ENOENT || code == ENOTDIR ? .absent : .unread("cannot be read: \(String(cString: strerror(code)))")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .unread("cannot be read: \(String(cString: strerror(errno)))") }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: return .unread("a folder, not a file")
    case S_IFIFO: return .unread("not a regular file but a FIFO")
    case S_IFCHR, S_IFBLK: return .unread("not a regular file but a device")
    default: return .unread("not a regular file")
    }
    guard info.st_size <= sidecarLimit else { return .unread("larger than 1 MiB") }
    do throws(SystemError) {
      return .read(try readToEnd(fd, sizeHint: Int(info.st_size), atMost: sidecarLimit))
    } catch {
      return .unread("cannot be read: \(SystemError.reason(error.errno))")
    }
  }

  /// Whether `bytes` may be text: no NUL, and few other control bytes — random bytes have
  /// one in eight; text has tabs and line breaks, and now and then a stray one (an escape a
  /// tagger left, printed escaped like any other text).
  static func looksLikeText(_ bytes: [UInt8]) -> Bool {
    var controls = 0
    for byte in bytes {
      if byte == 0 { return false }
      if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C || byte == 0x7F { controls += 1 }
    }
    return controls * 20 <= bytes.count
  }

  /// UTF-8 (a byte-order mark dropped), else Latin-1, which old LRC files are often in.
  static func decode(_ bytes: [UInt8]) -> String {
    let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    if let text = String(validating: body, as: UTF8.self) { return text }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
    return String(scalars)
  }
}
