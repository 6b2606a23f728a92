import Foundation
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
public struct Lyrics: Sendable, Equatable {
  /// One line: its text, and for synced lyrics when it starts, in seconds into the track.
  public struct Line: Sendable, Equatable {
    public var time: Double?
    public var text: String

    public init(time: Double?, text: String) {
      self.time = time
      self.text = text
    }
  }

  /// Where the lyrics were found.
  public enum Source: Sendable, Equatable {
    /// An LRC (or plain text) file beside the track, at this path.
    case sidecar(String)
    /// Embedded in the track, at this path.
    case embedded(String)
  }

  /// The lines, in time order when synced (a line sung twice, `[00:12.00][01:15.30]`, is
  /// there twice), else as written.
  public var lines: [Line]
  public var source: Source

  /// Whether every line has a time.
  public var isSynced: Bool { !lines.isEmpty && lines.allSatisfy { $0.time != nil } }

  /// The lines' text, without timestamps: what `lyrics` prints.
  public var text: [String] { lines.map(\.text) }

  public init(lines: [Line], source: Source) {
    self.lines = lines
    self.source = source
  }

  /// The index of the line sung `seconds` into the track: the last one that starts at or
  /// before it. Nil before the first line, and for lyrics that are not synced.
  public func index(at seconds: Double) -> Int? {
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
  public func line(at seconds: Double) -> String? {
    index(at: seconds).map { lines[$0].text }
  }

  // MARK: - LRC

  /// Lyrics from the text of an LRC file (or plain text): `[mm:ss.xx]` stamps before a line
  /// give its times (several stamps, several times; `[mm:ss]`, `[mm:ss:xx]` and hours too);
  /// `[offset:+500]` moves every line 500 ms earlier; tags such as `[ar:…]` and `[ti:…]` and
  /// the word stamps of enhanced LRC (`<mm:ss.xx>`) are left out. When no line has a stamp,
  /// the text's lines as they are, blank lines at the ends dropped.
  public init(lrc: String, source: Source) {
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
      let text = Self.withoutWordStamps(rest).trimmingCharacters(in: .whitespaces)
      if times.isEmpty {
        if !tagged { plain.append(text) }
      } else {
        for time in times { timed.append((time, timed.count, text)) }
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
  public static func read(forTrack path: String) -> Lyrics? {
    if !path.hasPrefix("/") && path.contains("://") { return nil }
    for sidecar in sidecarPaths(of: path) {
      guard let bytes = readSmallFile(sidecar) else { continue }
      let lyrics = Lyrics(lrc: decode(bytes), source: .sidecar(sidecar))
      if !lyrics.lines.isEmpty { return lyrics }
    }
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
  public static func sidecarPath(of path: String) -> String {
    let slash = path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex
    let stem = path[slash...].lastIndex(of: ".").map { path[..<$0] } ?? Substring(path)
    return stem + ".lrc"
  }

  /// `dir/name.lrc` and `dir/name.LRC` for `dir/name.ext`.
  static func sidecarPaths(of path: String) -> [String] {
    let lower = sidecarPath(of: path)
    return [lower, String(lower.dropLast(4)) + ".LRC"]
  }

  /// The bytes of the regular file at `path`, at most ``sidecarLimit``; nil when there is
  /// none, it is not a regular file (a FIFO would block), or it is larger.
  private static func readSmallFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= sidecarLimit else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var filled = 0
    while filled < bytes.count {
      let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      filled += count
    }
    return Array(bytes[..<filled])
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
