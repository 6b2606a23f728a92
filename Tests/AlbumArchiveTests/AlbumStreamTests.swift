import Foundation
import TestSupport
import Testing

@testable import AlbumArchive
@testable import AlbumModel

/// The streamed decoders against reading at once: whatever the block size, a record that
/// straddles a refill reads the same albums, or fails with the same message.
struct AlbumStreamTests {
  /// Files whose records break at every awkward place: quotes and `""` pairs, CRLF, a BOM,
  /// blank lines, escapes, nesting, and the errors each format reports.
  static let texts: [(String, String)] = [
    ("a.csv", "title,artist,genre,year,coverUrl\r\nA,B,C,1999,https://x.org/a.png\r\nD,,,,\r\n"),
    ("a.csv", "\u{FEFF}title,genre\n\n\"Say \"\"Hi\"\", \"\"Bye\"\"\",\"Pop\nRock\"\n\"\"\"\",\"\"\n"),
    ("a.csv", "Rating,title,yaer\n5,\"A, B\",x\n4,C,\n"),
    ("a.csv", "title,year\r\n\"a\r\nb\",\" 1977 \"\r\nc,12\r"),
    ("a.csv", "title,year\nA,1\nB,2\nC,nineteen\n"),
    ("a.csv", "title,artist\nA,B\n\"Unfinished,C\nD,E\n"),
    ("a.csv", "title,artist\n\"A\"x,B\n"),
    ("a.csv", "title,artist\n\"A\"\r,B\n"),
    ("a.csv", "title,artist,year\nA,B\n"),
    ("a.csv", "title\n   \n"),
    ("a.csv", "title,Title\n"),
    ("a.csv", "\n\n"),
    ("a.csv", "title,coverUrl\nÉté 🎸,ftp://x\n"),
    ("a.json", #"[{"title": "A", "year": 1999}, {"title": "B", "year": "2000", "artist": null}]"#),
    (
      "a.json",
      "\u{FEFF} \n [ \n {\"title\": \"\\\"q\\\" \\\\ \\/ \\u00e9 \\ud83c\\udfb8\", \"coverUrl\": \"https://x.org/c\"} \n ] \n"
    ),
    ("a.json", "[\n{\"title\": \"A\"},\n{\"title\": \"B\", \"yaer\": 1999}\n]"),
    ("a.json", #"[{"title": "A", "year": [1, {"x": "]}"}]}]"#),
    ("a.json", #"[{"title": "A"},]"#),
    ("a.json", "[{\"title\": \"A\"}\n{\"title\": \"B\"}]"),
    ("a.json", "[{\"title\": \"A\""),
    ("a.json", "[{\"title\": \"A"),
    ("a.json", "[{\"title\": \"a\nb\"}]"),
    ("a.json", #"{"title": "A"}"#),
    ("a.json", "[]\n  x"),
    ("a.json", "[1999.5, true]"),
    ("a.json", #"[{"title": "A", "year": 1999.}]"#),
    ("a.json", "[" + String(repeating: "[", count: 300)),
    ("a.json", "   "),
    ("a.txt", "\n\n   \n  [{\"title\": \"A\"}]"),
  ]

  static let corpus: [(name: String, text: [UInt8])] =
    texts.map { ($0.0, Array($0.1.utf8)) } + [
      ("a.csv", Array("title\nA\nB".utf8) + [0xFF] + Array("C\n".utf8)),
      ("a.json", Array("[\n{\"title\": \"".utf8) + [0xC3, 0x28] + Array("\"}]".utf8)),
    ]

  /// The albums `text` decodes to, or the error's message, read `blockSize` bytes at a time.
  static func outcome(_ text: [UInt8], name: String, blockSize: Int) -> String {
    do throws(LibraryError) {
      var stream = try AlbumStream(input: ArchiveInput(copying: text, name: name, blockSize: blockSize))
      let albums = try stream.albums()
      return "\(albums) ignoring \(stream.ignoredColumns)"
    } catch {
      return error.description
    }
  }

  @Test(arguments: 0..<corpus.count)
  func everyBlockSizeReadsWhatReadingAtOnceReads(entry: Int) {
    let (name, text) = Self.corpus[entry]
    let atOnce = Self.outcome(text, name: name, blockSize: text.count + 1)
    for blockSize in [1, 2, 3, 4, 5, 7, 11, 16, 64] {
      #expect(
        Self.outcome(text, name: name, blockSize: blockSize) == atOnce,
        "\(name) \(String(decoding: text, as: UTF8.self).debugDescription) in blocks of \(blockSize)")
    }
  }

  /// Unquoted fields are scanned eight bytes at a time: a comma or a line feed at every
  /// place of a word, after fields of every length up to two words and a half, with LF and
  /// CRLF, splits where it is.
  @Test func unquotedFieldsOfEveryLengthSplitAtTheirCommaOrLineFeed() throws {
    for ending in ["\n", "\r\n"] {
      var csv = "title,artist" + ending
      var expected: [(String, String)] = []
      for length in 1...20 {
        for other in [0, 1, 7, 8, 9, 15, 16, 17] {
          let title = String(repeating: "t", count: length - 1) + "\(length % 10)"
          let artist = String(repeating: "é", count: other / 2) + String(repeating: "a", count: other % 2)
          csv += title + "," + artist + ending
          expected.append((title, artist))
        }
      }
      var stream = try AlbumStream(input: ArchiveInput(copying: Array(csv.utf8), name: "a.csv", blockSize: 1 << 16))
      let albums = try stream.albums()
      #expect(albums.map(\.title) == expected.map(\.0))
      #expect(albums.map(\.artist) == expected.map(\.1))
    }
  }

  @Test func aRowOrElementLongerThanTheMostReadAtOnceIsRefusedWithItsLine() {
    func refusal(_ text: String, _ name: String) -> String? {
      thrownError { () throws(LibraryError) in
        var stream = try AlbumStream(
          input: ArchiveInput(copying: Array(text.utf8), name: name, blockSize: 8, maximumRecordBytes: 64))
        return try stream.albums()
      }?.description
    }
    let long = String(repeating: "x", count: 100)
    #expect(
      refusal("title,notes\nA,short\nB,\(long)\n", "a.csv")
        == "a.csv:3: row is longer than 64 bytes, the most import reads at once")
    #expect(
      refusal("title\nA\n\"B\nC,\(long)\n", "a.csv")
        == "a.csv: quoted field starting on line 3 is longer than 64 bytes, the most import reads at once"
        + " (is its closing quote missing?)")
    #expect(
      refusal("[{\"title\": \"A\"},\n {\"title\": \"\(long)\"}]", "a.json")
        == "a.json:2: value is longer than 64 bytes, the most import reads at once"
        + " (is a closing quote or bracket missing?)")
    // Below the most, a long record is read whole (the buffer grows for it).
    #expect(refusal("title,notes\nA,\(String(repeating: "y", count: 50))\n", "a.csv") == nil)
  }

  @Test func aRowOfManyFieldsOrAnElementOfManyKeysIsCountedNotKept() {
    func message(_ text: String, _ name: String) -> String? {
      thrownError { () throws(LibraryError) in try LibraryArchive.decode(Array(text.utf8), fileName: name) }?
        .description
    }
    #expect(
      message("title\nA" + String(repeating: ",", count: 100_000) + "\n", "a.csv")
        == "a.csv:2: expected 1 field like the header, found 100001")
    #expect(
      message("title" + String(repeating: ",x", count: 2000) + "\n", "a.csv")
        == "a.csv:1: the header has 2001 columns, more than the 2000 import reads")
    let keys = (1...12).map { "\"k\($0)\": 1" }.joined(separator: ", ")
    #expect(
      message("[{\"title\": \"A\", \(keys)}]", "a.json")
        == "a.json:1: element 1: unknown keys 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k10', … (12 in all)"
        + " (keys: title, artist, genre, year, coverUrl, tracks, duration, folder)")
  }

  @Test func theBufferStaysOneBlockWhateverTheLengthOfTheFile() throws {
    var csv = "title,artist,genre,year,coverUrl\n"
    for i in 0..<20_000 {
      csv += "\"Album \(i), \"\"Vol\"\"\",Artist \(i),Pop,\(1950 + i % 70),https://c.example/\(i)\r\n"
    }
    let input = ArchiveInput(copying: Array(csv.utf8), name: "big.csv", blockSize: 4096)
    var stream = try AlbumStream(input: input)
    var count = 0
    var largest = 0
    try stream.forEachAlbum { fields in
      #expect(String(decoding: fields.title, as: UTF8.self) == "Album \(count), \"Vol\"")
      count += 1
      largest = max(largest, input.capacity)
    }
    #expect(count == 20_000)
    #expect(largest == 4096)
  }

  @Test func aFileIsReadInBlocksAndRefusedPastTheSizeLimitOrWhenNotRegular() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("albums.csv")
    var csv = "title\n"
    for i in 0..<5_000 { csv += "Album \(i)\n" }
    try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
    var stream = try AlbumStream(input: ArchiveInput(path: path, blockSize: 100))
    #expect(try stream.albums().map(\.title) == (0..<5_000).map { "Album \($0)" })
    let refused = thrownError { () throws(LibraryError) in try AlbumStream(path: directory.path) }
    #expect(refused?.description == "cannot read '\(directory.path)': it is a directory")
  }
}
