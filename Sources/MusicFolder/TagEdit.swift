internal import CTagLib

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tags to write into an audio file with TagLib: how the tests and the benchmark tag their
/// copies of the silent fixtures. A nil field leaves that tag as it is, an empty one removes it.
package struct TagEdit: Sendable {
  package var album: String?
  package var artist: String?
  package var albumArtist: String?
  package var title: String?
  package var trackNumber: String?
  package var date: String?
  package var genre: String?
  /// The disc number as written ("1", "1/2").
  package var discNumber: String?
  /// The MusicBrainz ids, written where TagLib maps them (ID3v2 UFID and TXXX
  /// `MusicBrainz Album Id`, Vorbis `MUSICBRAINZ_ALBUMID`, MP4 `----:com.apple.iTunes:…`).
  package var musicBrainzTrackID: String?
  package var musicBrainzAlbumID: String?
  package var musicBrainzReleaseGroupID: String?
  /// Replaces the file's pictures with this one front cover (when not empty).
  package var picture: (bytes: [UInt8], mimeType: String)?
  /// The rating in stars: 1 to 5 sets it, 0 removes it, nil leaves it (where each format
  /// keeps it: see `CTLTags.rating`).
  package var rating: Int?
  /// True marks the track a favourite, false removes the mark, nil leaves it.
  package var favourite: Bool?
  /// The file's rating and favourite tags as ``ratingTags(of:)`` read them (from this file,
  /// before a write): put back exactly, in place of every tag ``rating`` and ``favourite``
  /// write, which are then ignored. Nil leaves them to ``rating`` and ``favourite``.
  package var ratingTags: [UInt8]?
  /// For MP3: 3 writes ID3v2.3 (the date as a TYER frame), 4 writes ID3v2.4.
  package var id3v2Version: Int
  /// For MP3: keep the file's ID3v1 and APE tags (updated) and its ID3v2 version, as a
  /// user's file wants; else only an ID3v2 tag of ``id3v2Version`` is kept.
  package var keepOtherTags = false

  /// An edit of the given tags.
  package init(
    album: String? = nil, artist: String? = nil, albumArtist: String? = nil, title: String? = nil,
    trackNumber: String? = nil, date: String? = nil, genre: String? = nil, discNumber: String? = nil,
    musicBrainzTrackID: String? = nil, musicBrainzAlbumID: String? = nil, musicBrainzReleaseGroupID: String? = nil,
    picture: (bytes: [UInt8], mimeType: String)? = nil, id3v2Version: Int = 4, rating: Int? = nil,
    favourite: Bool? = nil
  ) {
    self.album = album
    self.artist = artist
    self.albumArtist = albumArtist
    self.title = title
    self.trackNumber = trackNumber
    self.date = date
    self.genre = genre
    self.discNumber = discNumber
    self.musicBrainzTrackID = musicBrainzTrackID
    self.musicBrainzAlbumID = musicBrainzAlbumID
    self.musicBrainzReleaseGroupID = musicBrainzReleaseGroupID
    self.picture = picture
    self.id3v2Version = id3v2Version
    self.rating = rating
    self.favourite = favourite
  }

  /// Why writing failed.
  package struct Failure: Error, CustomStringConvertible {
    package var path: String
    package var status: Int32
    /// The file holds a POPM play count TagLib would cut, and its bytes could not be kept.
    package var keepsAPlayCount: Bool { status == CTL_CANNOT_KEEP }
    package var description: String {
      if status == CTL_UNAVAILABLE, let reason = ctl_unavailable() {
        return "cannot write tags to '\(path)': \(String(cString: reason))"
      }
      if keepsAPlayCount { return "cannot write tags to '\(path)': \(TagEdit.playCountReason)" }
      return "TagLib could not write tags to '\(path)' (status \(status))"
    }
  }

  /// Why a file holding a play count TagLib would cut is not written.
  package static let playCountReason =
    "it has a POPM play count longer than TagLib writes back (4 bytes), which could not be kept as it is"

  /// The rating and favourite tags of the file at `path` as it holds them (see
  /// `ctl_read_rating_tags`), for ``ratingTags`` to put back; opened as ``TrackTags/read(_:)``
  /// opens it.
  package static func ratingTags(of path: String) throws(Failure) -> [UInt8] {
    guard case .descriptor(let fd) = TrackTags.checkedDescriptor(path) else {
      throw Failure(path: path, status: Int32(CTL_NOT_AUDIO))
    }
    var tags = CTLBytes()
    defer { ctl_bytes_free(&tags) }
    // The descriptor is TagLib's now: closed when the call returns.
    let status = ctl_read_rating_tags(fd, path, &tags)
    guard status == CTL_OK else { throw Failure(path: path, status: status) }
    return tags.size == 0 ? [] : Array(UnsafeBufferPointer(start: tags.bytes, count: tags.size))
  }

  /// Writes the edit into the file at `path`, in place.
  package func write(to path: String) throws(Failure) {
    // strdup'ed copies stay valid for the whole call, however many fields are set.
    let texts = [
      album, artist, albumArtist, title, trackNumber, date, genre, picture?.mimeType, discNumber, musicBrainzTrackID,
      musicBrainzAlbumID, musicBrainzReleaseGroupID,
    ].map {
      $0.map { strdup($0)! }
    }
    defer { for text in texts { free(text) } }
    let status = (picture?.bytes ?? []).withUnsafeBufferPointer { bytes in
      (ratingTags ?? []).withUnsafeBufferPointer { kept in
        write(to: path, texts: texts, picture: bytes, ratingTags: kept)
      }
    }
    guard status == CTL_OK else { throw Failure(path: path, status: status) }
  }

  /// ``write(to:)`` with the C strings, the picture's bytes and the kept rating tags.
  private func write(
    to path: String, texts: [UnsafeMutablePointer<CChar>?], picture bytes: UnsafeBufferPointer<UInt8>,
    ratingTags kept: UnsafeBufferPointer<UInt8>
  ) -> Int32 {
    var tags = CTLTags(
      album: texts[0], artist: texts[1], albumArtist: texts[2], title: texts[3], trackNumber: texts[4],
      date: texts[5], genre: texts[6], discNumber: texts[8], musicBrainzTrackId: texts[9],
      musicBrainzAlbumId: texts[10], musicBrainzReleaseGroupId: texts[11],
      picture: picture == nil ? nil : bytes.baseAddress,
      pictureSize: bytes.count, pictureMimeType: texts[7], id3v2Version: Int32(id3v2Version),
      keepOtherTags: keepOtherTags ? 1 : 0, rating: Int32(rating.map { min(max($0, 0), 5) } ?? -1),
      favourite: favourite.map { $0 ? 1 : 0 } ?? -1, ratingTags: ratingTags == nil ? nil : kept.baseAddress,
      ratingTagsSize: kept.count)
    return ctl_write(path, &tags)
  }
}
