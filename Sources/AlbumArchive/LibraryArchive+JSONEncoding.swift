import AlbumModel
package import MusicFolder

extension LibraryArchive {
  /// The albums as pretty-printed JSON in the original app's shape, ending in a newline.
  ///
  /// Keys come in a stable order (`title`, `artist`, `genre`, `year`, `coverUrl`);
  /// `year` is a string as in the original app, `""` when unknown. An album imported from
  /// a music folder adds `tracks`, `duration` (seconds, a number) and `folder` (a string),
  /// each only when known: `tracks` is the array of its tracks (``appendTracks(_:to:)``)
  /// when `tracks` gives them, else their count. Control characters are escaped, so the
  /// file is safe to `cat`.
  package static func encodeJSON(_ albums: [Album]) -> [UInt8] {
    encodeJSON(albums) { _ in nil }
  }

  /// ``encodeJSON(_:)`` with each album's tracks as `tracks` gives them (nil: none known).
  package static func encodeJSON(_ albums: [Album], tracks: (Album) -> [MusicTrack]?) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(albums.count * 160 + 4)
    for (offset, album) in albums.enumerated() {
      appendJSON(album, tracks: tracks(album), first: offset == 0, to: &out)
    }
    endJSON(count: albums.count, to: &out)
    return out
  }

  /// Appends `album` as an element of the array ``encodeJSON(_:)`` writes (the opening
  /// bracket before the `first`); ``endJSON(count:to:)`` closes it. `export` streams a
  /// library of any size through these, a page of albums at a time.
  package static func appendJSON(
    _ album: Album, tracks trackList: [MusicTrack]? = nil, first: Bool, to out: inout [UInt8]
  ) {
    out.append(contentsOf: first ? "[\n  {\n    \"title\": ".utf8 : ",\n  {\n    \"title\": ".utf8)
    appendJSONString(album.title, to: &out)
    out.append(contentsOf: ",\n    \"artist\": ".utf8)
    appendJSONString(album.artist, to: &out)
    out.append(contentsOf: ",\n    \"genre\": ".utf8)
    appendJSONString(album.genre, to: &out)
    out.append(contentsOf: ",\n    \"year\": \"".utf8)
    if let year = album.year {
      out.append(contentsOf: String(year).utf8)
    }
    out.append(contentsOf: "\",\n    \"coverUrl\": ".utf8)
    appendJSONString(album.coverURL, to: &out)
    if let trackList, !trackList.isEmpty {
      out.append(contentsOf: ",\n    \"tracks\": ".utf8)
      appendTracks(trackList, to: &out)
    } else if let tracks = album.tracks {
      out.append(contentsOf: ",\n    \"tracks\": \(tracks)".utf8)
    }
    if let duration = album.duration {
      // Swift's shortest form that reads back as the same Double (`2712.345`).
      out.append(contentsOf: ",\n    \"duration\": \(duration)".utf8)
    }
    if let folder = album.folder {
      out.append(contentsOf: ",\n    \"folder\": ".utf8)
      appendJSONString(folder, to: &out)
    }
    out.append(contentsOf: "\n  }".utf8)
  }

  /// `tracks` as a JSON array of objects, one line each: `path`, `disc` (the track's disc,
  /// from its tag or its disc folder), `discnumber` (the tag), `number`, `title`, `artist`,
  /// `albumartist`, `album`, `date`, `genre`, `length` (seconds), `format`, `bitrate`
  /// (kb/s), `samplerate` (Hz), `composer`, `size` (bytes), `modified` and `changed` (the file's modification and status-change
  /// times, nanoseconds since 1970), `inode`, `picture` (the embedded
  /// picture's MIME type, `""` when the file does not say; absent without one), and the
  /// MusicBrainz ids `mb_trackid`, `mb_albumid`, `mb_releasegroupid`; keys without a value
  /// are left out. A JSON `import` reads it back as the album's tracks.
  static func appendTracks(_ tracks: [MusicTrack], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (index, track) in tracks.enumerated() {
      out.append(contentsOf: (index == 0 ? "\n      {" : ",\n      {").utf8)
      let tags = track.tags
      out.append(contentsOf: "\"path\": ".utf8)
      appendJSONString(track.path, to: &out)
      func number(_ key: String, _ value: Int?) {
        if let value { out.append(contentsOf: ", \"\(key)\": \(value)".utf8) }
      }
      func string(_ key: String, _ value: String?) {
        guard let value else { return }
        out.append(contentsOf: ", \"\(key)\": ".utf8)
        appendJSONString(value, to: &out)
      }
      number("disc", track.disc)
      number("discnumber", tags.discNumber)
      number("number", tags.trackNumber)
      string("title", tags.title)
      string("artist", tags.artist)
      string("albumartist", tags.albumArtist)
      string("album", tags.album)
      string("date", tags.date)
      string("genre", tags.genre)
      out.append(contentsOf: ", \"length\": \(tags.duration)".utf8)
      string("format", tags.format)
      number("bitrate", tags.bitrate)
      number("samplerate", tags.sampleRate > 0 ? tags.sampleRate : nil)
      string("composer", tags.composer)
      out.append(contentsOf: ", \"size\": \(track.size), \"modified\": \(track.modified)".utf8)
      if track.changed >= 0 {
        out.append(contentsOf: ", \"changed\": \(track.changed), \"inode\": \(track.inode)".utf8)
      }
      string("picture", tags.hasPicture ? tags.pictureMimeType ?? "" : nil)
      string("mb_trackid", tags.musicBrainzTrackID)
      string("mb_albumid", tags.musicBrainzAlbumID)
      string("mb_releasegroupid", tags.musicBrainzReleaseGroupID)
      out.append(UInt8(ascii: "}"))
    }
    out.append(contentsOf: "\n    ]".utf8)
  }

  /// Closes the array after `count` elements (`[]` when there were none).
  package static func endJSON(count: Int, to out: inout [UInt8]) {
    out.append(contentsOf: count == 0 ? "[]\n".utf8 : "\n]\n".utf8)
  }

  private static func appendJSONString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { bytes in
      // Copy runs of plain bytes at once; escape the rest one by one.
      var runStart = 0
      for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x5C {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
        runStart = i + 1
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
        case 0x0A: out.append(contentsOf: "\\n".utf8)
        case 0x0D: out.append(contentsOf: "\\r".utf8)
        case 0x09: out.append(contentsOf: "\\t".utf8)
        default:
          let hex = Array("0123456789abcdef".utf8)
          out.append(contentsOf: "\\u00".utf8)
          out.append(hex[Int(byte >> 4)])
          out.append(hex[Int(byte & 0xF)])
        }
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
    out.append(UInt8(ascii: "\""))
  }
}
