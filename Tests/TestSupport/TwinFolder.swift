import Foundation

/// The twin folder of issue 50: one release, Kind of Blue, as FLAC and as MP3 in two folders
/// (and once more as MP3 in a backup folder), beside another album, Blue Train. The audio is
/// made with ffmpeg (a second of noise, which FLAC cannot shrink: its bitrate is far above
/// the MP3's 320 kb/s), the tags with mutagen, as another tagger leaves them:
///
/// - `FLAC/Miles Davis - Kind of Blue/01.flac`, `02.flac`: 48 kHz;
/// - `MP3/Miles Davis - Kind of Blue/01.mp3`, `02.mp3`: 320 kb/s, 44.1 kHz;
/// - `Backup/Kind of Blue/01.mp3`, `02.mp3`: the same MP3s again;
/// - `FLAC/John Coltrane - Blue Train/01.flac`: 44.1 kHz.
///
/// Kind of Blue's first track is composed by Miles Davis, its second by Bill Evans; Blue
/// Train's by John Coltrane.
package enum TwinFolder {
  /// Makes the folder under `root` (which must exist).
  package static func make(in root: String) throws {
    let kindOfBlue = [("So What", "Miles Davis"), ("Blue in Green", "Bill Evans")]
    for (folder, format, rate) in [
      ("FLAC/Miles Davis - Kind of Blue", "flac", 48_000), ("MP3/Miles Davis - Kind of Blue", "mp3", 44_100),
      ("Backup/Kind of Blue", "mp3", 44_100),
    ] {
      for (index, (title, composer)) in kindOfBlue.enumerated() {
        try track(
          root + "/\(folder)/0\(index + 1).\(format)", rate: rate,
          tags: [
            "album": "Kind of Blue", "artist": "Miles Davis", "title": title, "tracknumber": "\(index + 1)",
            "date": "1959", "genre": "Jazz", "composer": composer,
          ])
      }
    }
    try track(
      root + "/FLAC/John Coltrane - Blue Train/01.flac", rate: 44_100,
      tags: [
        "album": "Blue Train", "artist": "John Coltrane", "title": "Blue Train", "tracknumber": "1", "date": "1957",
        "genre": "Jazz", "composer": "John Coltrane",
      ])
  }

  /// A second of stereo noise at `rate` Hz in the format of `path`'s extension (an MP3 at
  /// 320 kb/s), tagged with mutagen's easy keys.
  package static func track(_ path: String, rate: Int, tags: [String: String]) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments =
      [
        "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "anoisesrc=r=\(rate):a=0.5:seed=7", "-ac", "2", "-t",
        "1",
      ] + (path.hasSuffix(".mp3") ? ["-b:a", "320k"] : []) + ["-map_metadata", "-1", "-y", path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw Mutagen.Failure(description: "ffmpeg could not write \(path)") }
    let script = """
      import sys, mutagen
      audio = mutagen.File(sys.argv[1], easy=True)
      if audio.tags is None:
          audio.add_tags()
      for pair in sys.argv[2:]:
          key, value = pair.split("=", 1)
          audio[key] = [value]
      audio.save()
      """
    _ = try Mutagen.run(script, [path] + tags.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value })
  }
}
