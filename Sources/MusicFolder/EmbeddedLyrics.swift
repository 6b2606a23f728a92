internal import CTagLib

/// The lyrics an audio file embeds, as TagLib reads them: unsynchronised text (ID3v2 USLT,
/// Vorbis LYRICS or UNSYNCEDLYRICS, MP4 ©lyr) and synchronised lines (ID3v2 SYLT).
package struct EmbeddedLyrics: Sendable, Equatable {
  /// One line of synchronised lyrics: its time in milliseconds (nil when the file counts
  /// MPEG frames instead) and its text.
  package struct Line: Sendable, Equatable {
    package var milliseconds: Int64?
    package var text: String

    package init(milliseconds: Int64?, text: String) {
      self.milliseconds = milliseconds
      self.text = text
    }
  }

  /// The unsynchronised lyrics (which may themselves be LRC, with timestamps); nil for none.
  package var text: String?
  /// The synchronised lines, in the file's order; empty for none.
  package var synced: [Line]

  package init(text: String?, synced: [Line]) {
    self.text = text
    self.synced = synced
  }

  /// Reads the lyrics of the file at `path`, opened as ``TrackTags/read(_:)`` opens it (no
  /// FIFO or device blocks it); nil when it has none or cannot be read.
  package static func read(_ path: String) -> EmbeddedLyrics? {
    guard case .descriptor(let fd) = TrackTags.checkedDescriptor(path) else { return nil }
    var lyrics = CTLLyrics()
    defer { ctl_lyrics_free(&lyrics) }
    // The descriptor is TagLib's now: closed when the call returns.
    guard ctl_read_lyrics(fd, path, &lyrics) == CTL_OK else { return nil }
    let text = lyrics.text.map { String(cString: $0) }.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
    var synced: [Line] = []
    for index in 0..<lyrics.syncedCount {
      let time = lyrics.syncedTimes[index]
      synced.append(
        Line(
          milliseconds: time < 0 ? nil : time,
          text: lyrics.syncedLines[index].map { String(cString: $0) } ?? ""))
    }
    guard text != nil || !synced.isEmpty else { return nil }
    return EmbeddedLyrics(text: text, synced: synced)
  }
}
