import AlbumModel
import BlueLibrary
import Foundation
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#endif

extension RunsAlone {
  /// Verbs over a whole view of 400,000 albums read it a page at a time (round 4, G18: on a
  /// million albums `show 1-1000000` peaked at 277 MB and `stats` with a million genres at
  /// 307 MB, as each loaded every album or every genre).
  @Suite(.enabled(if: FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs"), "needs Linux's clear_refs"))
  struct WholeViewMemoryTests {
    static let count = 400_000

    /// The process's peak resident set since the last reset, in bytes (Linux's VmHWM).
    static func peak(_ field: String = "VmHWM:") throws -> Int {
      let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field) })
      return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    /// How much the peak resident set grows while `line` runs, printing to /dev/null, on a
    /// library of ``count`` albums of as many genres.
    static func growth(running line: String) throws -> (growth: Int, failures: [String]) {
      let library = Library.inMemory(
        seed: (0..<count).map {
          Album(title: "Album \($0)", artist: "Artist \($0 % 5000)", genre: "G\($0)", year: 1990)
        })
      let null = open("/dev/null", O_WRONLY)
      defer { close(null) }
      let interpreter = Interpreter(
        environment: CommandEnvironment(library: library, output: OutputChannel(fileDescriptor: null)))
      try Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
      let baseline = try peak("VmRSS:")
      let failures = interpreter.run(line: line, stopAtFirstFailure: false)
      return (try peak() - baseline, failures)
    }

    @Test(arguments: ["show 1-400000", "stats", "stats G1"])
    func aVerbOverTheWholeViewStaysUnder48MiB(line: String) throws {
      let (growth, failures) = try Self.growth(running: line)
      #expect(failures == [])
      #expect(growth < 48 << 20, "\(line): peak grew by \(growth >> 20) MiB")
    }

    /// The genres `stats` draws: the twelve most common, then the rest together.
    @Test func statsCountsTheGenresBeyondTheTwelveShownTogether() throws {
      var albums = (0..<30).map { Album(title: "A\($0)", genre: "Rare \($0)") }
      albums += (0..<12).flatMap { genre in (0..<3).map { Album(title: "C\(genre)-\($0)", genre: "Common \(genre)") } }
      let stats = try Library.inMemory(seed: albums).statistics(nil)
      #expect(stats.genres.count == 12 && stats.genres.allSatisfy { $0.name.hasPrefix("Common") && $0.count == 3 })
      #expect(stats.albumsOfOtherGenres == 30)
    }
  }
}
