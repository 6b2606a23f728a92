import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The cost gate of CI (issue 36): bluelib and a reference doing the same work at a small
/// size, each run under `valgrind --tool=callgrind`, which counts the instructions a
/// process runs — the same count run after run, where wall time on shared cores is noise.
/// Each figure's ratio (bluelib's count over the reference's) must stay under its bar, and
/// the bars live in one file of the repository (`.ci/gate-bars`).
///
/// This part is the arithmetic: the bars file, the figures, the verdicts. ``GateRun`` runs
/// the programs.
enum Gate {
  /// One figure: what is counted, for bluelib and for its reference.
  struct Figure: Sendable, Equatable {
    /// Its name in the bars file.
    var name: String
    /// What it is, in words.
    var title: String
    var ours: String
    var theirs: String
  }

  /// The figures, in the order they run and are reported.
  static let figures = [
    Figure(
      name: "startup", title: "start-up", ours: "bluelib --home H -c quit", theirs: "sqlite3 :memory: .quit"),
    Figure(
      name: "import", title: "import of a \(grouped(GateRun.importRows))-row CSV",
      ours: "bluelib --home FRESH -c 'import albums.csv'", theirs: "sqlite3 FRESH/t.db '.import --csv albums.csv t'"),
    Figure(
      name: "scroll", title: "\(grouped(GateRun.scrolls)) piped `scroll right` on \(grouped(GateRun.albums)) albums",
      ours: "… | bluelib --home H", theirs: "\(grouped(GateRun.scrolls)) × `select title … where position=N;` | sqlite3"
    ),
    Figure(
      name: "list", title: "`list` of \(grouped(GateRun.albums)) albums", ours: "bluelib --home H -c list",
      theirs: "sqlite3 H/library.sqlite 'select position, title, … order by position'"),
    Figure(
      name: "query", title: "a field query on \(grouped(GateRun.albums)) albums",
      ours: "bluelib --home H -c \"\(GateRun.query)\"", theirs: "sqlite3 H/library.sqlite \"select title … like …\""),
    Figure(
      name: "folder", title: "import of a \(grouped(GateRun.tracks))-track music folder",
      ours: "bluelib --home FRESH -c 'import DIR'", theirs: "taglib-floor DIR (C++, TagLib)"),
    Figure(
      name: "mpd",
      title: "first sync of an MPD of \(grouped(GateRun.mpdDatabase.songs)) songs",
      ours: "bluelib --home FRESH --mpd 127.0.0.1:PORT -c quit",
      theirs: "mpc -f '…' search '(modified-since \"0\")' (the same songs, the same tags)"),
  ]

  /// The bars: the largest ratio each figure may have.
  struct Bars: Equatable {
    var ratios: [String: Double]

    /// Reads `text` (from `source`, for messages): a figure's name and its bar on each
    /// line, `#` to the end of a line a comment. Every figure of ``Gate/figures`` needs one.
    init(parsing text: String, source: String) throws(GateError) {
      var ratios: [String: Double] = [:]
      for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = rawLine.prefix { $0 != "#" }
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !words.isEmpty else { continue }
        let place = "\(source):\(offset + 1)"
        guard words.count == 2 else {
          throw GateError("\(place): expected a figure and its bar, got '\(line.trimmingCharacters(in: .whitespaces))'")
        }
        let name = String(words[0])
        guard Gate.figures.contains(where: { $0.name == name }) else {
          throw GateError(
            "\(place): unknown figure '\(name)' (figures: \(Gate.figures.map(\.name).joined(separator: ", ")))")
        }
        guard let bar = Double(words[1]), bar.isFinite, bar > 0 else {
          throw GateError("\(place): the bar of \(name) must be a positive number, got '\(words[1])'")
        }
        guard ratios.updateValue(bar, forKey: name) == nil else {
          throw GateError("\(place): \(name) has a bar already")
        }
      }
      let missing = Gate.figures.map(\.name).filter { ratios[$0] == nil }
      guard missing.isEmpty else { throw GateError("\(source): no bar for \(missing.joined(separator: ", "))") }
      self.ratios = ratios
    }
  }

  /// A figure's two counts.
  struct Count: Sendable, Equatable {
    var figure: Figure
    var ours: UInt64
    var theirs: UInt64

    var ratio: Double { theirs == 0 ? .infinity : Double(ours) / Double(theirs) }
  }

  /// A figure's count against its bar.
  struct Verdict: Equatable {
    var count: Count
    var bar: Double

    var passed: Bool { count.ratio <= bar }

    /// One line that names the figure, its ratio and its bar.
    var line: String {
      let ratio = formatGateRatio(count.ratio)
      let name = count.figure.name
      return passed
        ? "PASS — \(name) (\(count.figure.title)): \(ratio) the reference's instructions, bar \(formatGateRatio(bar))"
        : "FAIL — \(name) (\(count.figure.title)): \(ratio) the reference's instructions, over its bar of \(formatGateRatio(bar))"
    }
  }

  /// Each count against its bar.
  static func verdicts(_ counts: [Count], bars: Bars) -> [Verdict] {
    counts.map { Verdict(count: $0, bar: bars.ratios[$0.figure.name] ?? 0) }
  }

  /// The instructions callgrind counted, from its log (`==123== Collected : 4567890`).
  static func collected(fromLog log: String) -> UInt64? {
    for line in log.split(separator: "\n") {
      guard let range = line.range(of: "Collected :") else { continue }
      return UInt64(line[range.upperBound...].trimmingCharacters(in: .whitespaces))
    }
    return nil
  }
}

/// A ratio with the digits a gate needs: `0.84×`, `12.3×`.
func formatGateRatio(_ ratio: Double) -> String {
  ratio < 10 ? String(format: "%.2f×", ratio) : String(format: "%.1f×", ratio)
}

/// Why the gate could not decide.
struct GateError: Error, Equatable, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
