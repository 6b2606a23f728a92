import MusicSource

// Stickers: name–value pairs MPD keeps for a song (in its `sticker_file`), which every client
// of the server sees — where shared data such as ratings belongs.
extension MPDServer {
  /// The ratings and favourite marks of every song that has one (its stickers `rating` and
  /// `like`, as a listing reads them); nil when the server keeps no stickers.
  package func marks() throws(SourceError) -> [String: TrackMarks]? {
    do throws(MPDError) {
      return try withConnection { connection throws(MPDError) in try Self.marks(connection) }?.mapValues {
        TrackMarks(rating: $0.rating, favourite: $0.favourite)
      }
    } catch {
      throw error.sourceError
    }
  }

  /// The value of the sticker `name` on the song `uri`; nil when the song has none.
  ///
  /// - Throws: ``MPDError``: the server refuses (no such song, no sticker database), or
  ///   cannot be reached.
  package func sticker(_ name: String, ofSong uri: String) throws(MPDError) -> String? {
    do throws(MPDError) {
      let answer = try withConnection { connection throws(MPDError) in
        try connection.run(MPDCommand("sticker", "get", "song", uri, name))
      }
      return answer.first { $0.name == "sticker" }.flatMap { Self.stickerValue($0.value, named: name) }
    } catch let error where error.isNoSuchSticker {
      return nil
    }
  }

  /// Sets the sticker `name` of the song `uri` to `value`, replacing the one it had.
  package func setSticker(_ name: String, to value: String, onSong uri: String) throws(MPDError) {
    try withConnection { connection throws(MPDError) in
      try connection.run(MPDCommand("sticker", "set", "song", uri, name, value))
    }
  }

  /// Removes the sticker `name` from the song `uri`; nothing happens when it has none.
  package func deleteSticker(_ name: String, ofSong uri: String) throws(MPDError) {
    do throws(MPDError) {
      try withConnection { connection throws(MPDError) in
        try connection.run(MPDCommand("sticker", "delete", "song", uri, name))
      }
    } catch let error where error.isNoSuchSticker {
      return
    }
  }

  /// Every song under the folder `directory` (`""`: the whole database) with a sticker
  /// `name`, and its value, in the server's order.
  package func songs(withSticker name: String, under directory: String = "") throws(MPDError)
    -> [(uri: String, value: String)]
  {
    let answer = try withConnection { connection throws(MPDError) in
      try connection.run(MPDCommand("sticker", "find", "song", directory, name))
    }
    var found: [(uri: String, value: String)] = []
    var song: String?
    for (key, value) in answer {
      if key == "file" {
        song = value
      } else if key == "sticker", let uri = song, let sticker = Self.stickerValue(value, named: name) {
        found.append((uri, sticker))
        song = nil
      }
    }
    return found
  }

  /// The value of `NAME=VALUE` when its name is `name`.
  private static func stickerValue(_ pair: String, named name: String) -> String? {
    guard pair.hasPrefix(name + "=") else { return nil }
    return String(pair.dropFirst(name.count + 1))
  }
}

extension MPDError {
  /// Whether MPD said the song has no such sticker (`ACK [50@0] {sticker} no such sticker`).
  var isNoSuchSticker: Bool {
    if case .refused(50, "sticker", let message) = reason {
      message.lowercased().contains("no such sticker")
    } else {
      false
    }
  }
}
