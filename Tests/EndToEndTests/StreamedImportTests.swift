import Foundation
import TestSupport
import Testing

/// `import FILE` streams (issue 13): the binary's memory does not grow with the file, a bad
/// last line keeps nothing, and the import is one undo step either way round.
@Suite(.serialized)
struct StreamedImportTests {
  typealias F = LibraryFixture

  static let hasProc = FileManager.default.fileExists(atPath: "/proc/self/status")

  /// `rows` albums as CSV, about 80 bytes a row.
  static func csv(rows: Int, last: String? = nil) -> String {
    var csv = "title,artist,genre,year,coverUrl\n"
    csv.reserveCapacity(rows * 84)
    for i in 1...rows {
      csv +=
        "Streamed album number \(i),Artist \(i % 100),Genre \(i % 10),\(1900 + i % 100),https://c.example/\(i).png\n"
    }
    if let last { csv += last + "\n" }
    return csv
  }

  /// `rows` albums as the JSON `export` writes, about 170 bytes an element.
  static func json(rows: Int) -> String {
    var json = "[\n"
    json.reserveCapacity(rows * 172)
    for i in 1...rows {
      json += """
          {
            "title": "Streamed album number \(i)",
            "artist": "Artist \(i % 100)",
            "genre": "Genre \(i % 10)",
            "year": "\(1900 + i % 100)",
            "coverUrl": "https://c.example/\(i).png"
          }\(i == rows ? "" : ",")

        """
    }
    return json + "]\n"
  }

  /// The peak memory (KiB) of a shell that runs `script` and then `list zzzz`.
  private func peak(_ runner: BinaryRunner, _ script: String) throws -> (result: BinaryRunner.Result, peakKiB: Int) {
    let (result, peak) = try runner.runMeasuringPeakMemory(script: script + "list zzzz\n", until: "match 'zzzz'\n")
    return (result, try #require(peak, "no peak memory read; stderr: \(result.stderr)"))
  }

  @Test(.enabled(if: hasProc), arguments: ["csv", "json"])
  func importingALargeFileTakesNoMoreMemoryThanAShellThatImportsNothing(format: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    // About 24 MiB either way: the old import held the file, every album and its strings
    // at once, some 70 MiB more than an idle shell for this file.
    let rows = format == "csv" ? 300_000 : 140_000
    let file = try F.write(
      format == "csv" ? Self.csv(rows: rows) : Self.json(rows: rows), to: "big.\(format)", in: runner)
    let idle = try peak(runner, "")
    #expect(idle.result.stdout == "0 of 5 albums match 'zzzz'\n")
    let imported = try peak(runner, "import '\(file)'\n")
    #expect(
      imported.result.stdout
        == "imported \(grouped(rows)) albums (\(grouped(rows)) albums in all)\nthe 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n"
        + "0 of \(grouped(rows)) albums match 'zzzz'\n"
    )
    #expect(imported.result.stderr == "")
    // A block of the file, SQLite's page cache and the allocator's slack, whatever the size.
    let growthKiB = imported.peakKiB - idle.peakKiB
    #expect(growthKiB < 12 * 1024, "importing \(rows) rows of \(format) took \(growthKiB) KiB more than an idle shell")
  }

  /// `export` streams too: a page of albums at a time, a block of bytes at a time, so a
  /// large library exports in the memory of a small one (round 3, F14: it held every album
  /// and the whole file, 272 MB for a million). What it writes reads back whole.
  @Test(.enabled(if: hasProc), arguments: ["csv", "json"])
  func exportingALargeLibraryTakesNoMoreMemoryThanAShellThatExportsNothing(format: String) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let rows = 200_000
    let file = try F.write(Self.csv(rows: rows), to: "big.csv", in: runner)
    #expect(try runner.run(["-c", "import '\(file)'"]).status == 0)
    let idle = try peak(runner, "")
    let out = runner.home.appendingPathComponent("out.\(format)").path
    let exported = try peak(runner, "export '\(out)'\n")
    #expect(exported.result.stderr == "")
    #expect(exported.result.stdout.hasPrefix("exported \(grouped(rows)) albums to \(out)"))
    let growthKiB = exported.peakKiB - idle.peakKiB
    #expect(
      growthKiB < 12 * 1024, "exporting \(rows) albums as \(format) took \(growthKiB) KiB more than an idle shell")
    let again = BinaryRunner()
    defer { again.cleanUp() }
    let reimported = try again.run(["-c", "add Mine", "-c", "import '\(out)'"])
    #expect(reimported.stdout.hasSuffix("imported \(grouped(rows)) albums (\(grouped(rows + 6)) albums in all)\n"))
  }

  @Test func aBadLastLineOfALargeFileChangesNothingAndNamesTheLine() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let rows = 100_000
    let file = try F.write(Self.csv(rows: rows, last: "Last,,,2x00,"), to: "big.csv", in: runner)
    let result = try runner.run(script: "tap 3\nimport '\(file)'\nlist zzzz\nundo\nview\n")
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "bluelib: stdin:2: import: \(file):\(rows + 2): year must be a whole number, got '2x00'\n"
        + "bluelib: stdin:4: undo: nothing to undo\n")
    #expect(result.stdout == F.view(3) + "0 of 5 albums match 'zzzz'\n" + F.view(3))
  }

  @Test func undoAndRedoOfAStreamedImportTakeItBackAndMakeItAgainInLaterRuns() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let rows = 40_000  // some 3 MiB: several blocks of the reader
    let file = try F.write(Self.json(rows: rows), to: "albums.json", in: runner)
    #expect(
      try runner.run(["-c", "tap 2", "-c", "import '\(file)'"]).stdout.hasSuffix(
        "imported \(grouped(rows)) albums (\(grouped(rows)) albums in all)\nthe 5 sample albums left to make room; 'undo' brings them back (and takes back the import)\n"
      ))
    let last =
      "Artist: Artist 0\nAlbum: Streamed album number \(rows)\nGenre: Genre 0\nYear: 1900\n"
      + "Cover: https://c.example/\(rows).png (not downloaded)\n"
    #expect(try runner.run(["-c", "show \(rows)"]).stdout == last)
    let undone = try runner.run(["-c", "undo", "-c", "list zzzz", "-c", "undo --list 1"])
    #expect(
      undone.stdout
        == "undid import of \(grouped(rows)) albums in place of the 5 sample albums\n" + F.view(2)
        + "0 of 5 albums match 'zzzz'\n"
        + "  1  import of \(grouped(rows)) albums in place of the 5 sample albums  (undone)\n")
    let redone = try runner.run(["-c", "redo", "-c", "show \(rows)"])
    #expect(redone.stdout.hasPrefix("redid import of \(grouped(rows)) albums in place of the 5 sample albums\n"))
    #expect(redone.stdout.hasSuffix(last))
  }
}
