import BluePlayback
import BlueText
import FoundationEssentials

/// One listen as ListenBrainz takes it (`POST /1/submit-listens`): what was played, from
/// the library's track, and when it started.
///
/// ```json
/// {"listened_at": 1765000000, "track_metadata": {"artist_name": "Pink Floyd",
///  "track_name": "Shine On", "release_name": "Wish You Were Here", "additional_info":
///  {"tracknumber": 1, "duration_ms": 60000, "recording_mbid": "…", "media_player": "bluelib",
///  "submission_client": "bluelib", "submission_client_version": "0.1.0"}}}
/// ```
package struct Listen: Sendable, Equatable, Encodable {
  /// When the track started (seconds since 1970); nil for `playing_now`, which has none.
  package var listenedAt: Int64?
  package var trackMetadata: TrackMetadata

  /// ListenBrainz's required and optional fields of a track.
  package struct TrackMetadata: Sendable, Equatable, Encodable {
    package var artistName: String
    package var trackName: String
    package var releaseName: String?
    package var additionalInfo: AdditionalInfo
  }

  /// `additional_info`: the track's place and length, its MusicBrainz ids where the tags
  /// give them, and who sent it.
  package struct AdditionalInfo: Sendable, Equatable, Encodable {
    package var trackNumber: Int?
    package var durationMs: Int?
    package var recordingMBID: String?
    package var releaseMBID: String?
    package var releaseGroupMBID: String?
    package var mediaPlayer = "bluelib"
    package var submissionClient = "bluelib"
    package var submissionClientVersion: String

    /// The one key that is not its name in snake case.
    enum CodingKeys: String, CodingKey {
      case trackNumber = "tracknumber"
      case durationMs, recordingMBID, releaseMBID, releaseGroupMBID, mediaPlayer, submissionClient
      case submissionClientVersion
    }
  }

  /// The most characters a text field keeps: a listen stays well under ListenBrainz's
  /// 10,240 bytes (`MAX_LISTEN_SIZE`) whatever the tags hold.
  static let fieldLimit = 500

  /// The listen of `track` started at `startedAt` (nil: playing now), sent by bluelib
  /// `version`. The artist is the track's own, else the album's; a MusicBrainz id that is
  /// not a UUID is left out (ListenBrainz refuses the whole listen for one).
  package init(_ track: Player.Track, startedAt: Int64?, version: String) {
    listenedAt = startedAt
    let own = track.trackArtist.flatMap { $0.isEmpty ? nil : $0 }
    let artist = own ?? (track.artist.isEmpty ? "[unknown]" : track.artist)
    trackMetadata = TrackMetadata(
      artistName: Self.cut(artist), trackName: Self.cut(track.title.isEmpty ? "[untitled]" : track.title),
      releaseName: track.album.isEmpty ? nil : Self.cut(track.album),
      additionalInfo: AdditionalInfo(
        trackNumber: track.number.flatMap { $0 > 0 ? $0 : nil },
        durationMs: track.duration > 0 && track.duration < 1e7 ? Int((track.duration * 1000).rounded()) : nil,
        recordingMBID: Self.uuid(track.musicBrainz.recording), releaseMBID: Self.uuid(track.musicBrainz.release),
        releaseGroupMBID: Self.uuid(track.musicBrainz.releaseGroup), submissionClientVersion: version))
  }

  /// The listen as JSON text (keys sorted, so one listen is always the same text), each
  /// key its name in snake case (`listenedAt`: `listened_at`, `recordingMBID`:
  /// `recording_mbid`), as ListenBrainz spells them.
  package var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  private static func cut(_ text: String) -> String {
    text.count > fieldLimit ? String(text.prefix(fieldLimit)) : text
  }

  /// `id` lowercased when it is a UUID (`8-4-4-4-12` hexadecimal digits), else nil.
  static func uuid(_ id: String?) -> String? {
    guard let id = id?.trimming(.whitespaces).lowercased(), id.utf8.count == 36 else { return nil }
    for (offset, byte) in id.utf8.enumerated() {
      if [8, 13, 18, 23].contains(offset) {
        guard byte == UInt8(ascii: "-") else { return nil }
      } else {
        guard
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        else { return nil }
      }
    }
    return id
  }
}
