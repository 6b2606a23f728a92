import Foundation

/// mutagen (Debian's python3-mutagen), a second reader and writer of tags beside TagLib: what
/// a test writes through TagLib is read back by it, and what other players write is made
/// with it.
package enum Mutagen {
  /// Runs `script` with Debian's python3 on `arguments`; its standard output. A failure of
  /// the script throws, with what it printed on standard error.
  package static func run(_ script: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let problems = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "python3 failed on \(arguments): " + String(decoding: problems, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// Each file's `artist|albumartist` as mutagen's easy interface reads them (`-` for none).
  package static func artists(_ paths: [String]) throws -> [String] {
    let script = """
      import sys, mutagen
      for path in sys.argv[1:]:
          tags = mutagen.File(path, easy=True).tags or {}
          print("|".join(tags[k][0] if k in tags else "-" for k in ("artist", "albumartist")))
      """
    return try run(script, paths).split(separator: "\n").map(String.init)
  }

  /// A script that failed.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// The rating and favourite tags of each file as mutagen reads them, one line per file, the
  /// tags sorted and joined by spaces (`-` for none): ID3 `POPM:EMAIL=BYTE`,
  /// `TXXX:FMPS_Rating=0.8`, `TXXX:LOVE RATING=L`; Vorbis comments `RATING=4`,
  /// `FMPS_RATING=0.8`, `LOVE RATING=L`; MP4 `rate=80`, `----:com.apple.iTunes:FMPS_Rating=0.8`,
  /// `----:com.apple.iTunes:LOVE RATING=L`.
  package static func ratingTags(_ paths: [String]) throws -> [String] {
    let script = """
      import sys, mutagen
      for path in sys.argv[1:]:
          f = mutagen.File(path)
          tags = f.tags if f.tags is not None else {}
          out = []
          if path.endswith(".mp3"):
              for frame in tags.getall("POPM"):
                  out.append("POPM:%s=%d" % (frame.email, frame.rating))
              for frame in tags.getall("TXXX"):
                  if frame.desc.upper() in ("FMPS_RATING", "LOVE RATING"):
                      out.append("TXXX:%s=%s" % (frame.desc, frame.text[0]))
          elif path.endswith(".m4a"):
              for key in ("rate", "----:com.apple.iTunes:FMPS_Rating", "----:com.apple.iTunes:LOVE RATING"):
                  if key in tags:
                      value = tags[key][0]
                      out.append("%s=%s" % (key, value.decode() if isinstance(value, bytes) else value))
          else:
              for key in ("rating", "fmps_rating", "love rating"):
                  if key in tags:
                      out.append("%s=%s" % (key.upper(), tags[key][0]))
          print(" ".join(sorted(out)) or "-")
      """
    return try run(script, paths).split(separator: "\n").map(String.init)
  }
}
