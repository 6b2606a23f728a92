import Foundation

/// The music-folder import among the scenarios (issue 36): `bluelib --home FRESH -c 'import
/// DIR'` on a folder of 20,000 tracks, against Python mutagen reading the same files (the
/// script of ``MusicBench``) and against the floor of this path, a bare C++ program reading
/// their tags with TagLib (``TagLibFloor``), the three run by run in turn.
struct FolderResult {
  var tracks: Int
  var folder: String
  var bluelib = Measurement()
  /// nil when not run; `mutagenMissing` says why.
  var mutagen: Measurement?
  var mutagenMissing: String?
  var floor: Measurement?
  var floorMissing: String?

  /// Goals: the import's time against mutagen's and the TagLib floor's, and its peak RSS.
  static let mutagenGoal = 0.1
  static let floorGoal = 1.5
  static let peakGoalKiB = 48 * 1024

  func ratio(to reference: Measurement?) -> Double? {
    guard let ours = bluelib.median, let theirs = reference?.median, theirs > 0 else { return nil }
    return ours / theirs
  }
}

extension Bench {
  /// Makes the folder (or reuses `--music-folder`), builds the floor and times the three.
  func runFolder() {
    let environment = ProcessInfo.processInfo.environment
    let folder = options.musicFolder.map(DataSet.absolute) ?? work + "/Music"
    let albums = options.folderTracks / 10
    var result = FolderResult(tracks: albums * 10, folder: folder)
    defer { results.folder = result }
    do {
      log("making \(grouped(result.tracks)) tracks in \(folder) (kept with --music-folder)…")
      try MusicFolderMaker(settings: MusicBench.Settings(albums: albums, tracksPerAlbum: 10), folder: folder)
        .makeUnlessMade()
    } catch {
      result.bluelib.failure = "setup: \(error)"
      return
    }
    let script = work + "/mutagen-scan.py"
    var python: String?
    if let found = Python.withMutagen(environment: environment) {
      do {
        try Data(MusicBench.mutagenScript().utf8).write(to: URL(fileURLWithPath: script))
        python = found
      } catch {
        result.mutagenMissing = "cannot write \(script): \(error.localizedDescription)"
      }
    } else {
      result.mutagenMissing = "no python3 with mutagen (Debian: apt install python3-mutagen)"
    }
    var floor: String?
    do {
      floor = try TagLibFloor.build(in: work + "/floor", environment: environment)
    } catch {
      result.floorMissing = error.description
    }

    let runs = options.importRuns
    let importCommand = "import " + MusicBench.quotedForShell(folder)
    let fresh = { (run: Int) throws(RunFailure) -> ChildRun in
      let directory = "\(self.work)/runs/folder-\(run)"
      defer { DataSet.remove(directory) }
      let child = try self.invoke(
        self.bluelib, ["--home", directory + "/home", "-c", importCommand], input: .null, in: directory,
        keepOutput: true)
      let summary = DataSet.firstLine(ofFileAt: directory + "/stdout") ?? ""
      guard summary.contains("\(grouped(albums)) albums") else {
        throw RunFailure(message: "the import said '\(summary)', expected \(grouped(albums)) albums")
      }
      return child
    }
    // One untimed run each: the page cache, Python's bytecode, the libraries.
    _ = try? fresh(0)
    var mutagen = Measurement()
    var floorRuns = Measurement()
    for run in 0...runs {
      if run > 0 && result.bluelib.failure == nil {
        record(&result.bluelib, label: "folder bluelib \(grouped(result.tracks))", run: run, of: runs) {
          () throws(RunFailure) in try fresh(run)
        }
      }
      if let python, mutagen.failure == nil {
        let once = { () throws(RunFailure) -> ChildRun in
          try self.invoke(python, [script, folder], input: .null, in: "\(self.work)/runs/mutagen", keepOutput: true)
        }
        if run == 0 {
          _ = try? once()
        } else {
          record(&mutagen, label: "folder mutagen", run: run, of: runs, once)
        }
      }
      if let floor, floorRuns.failure == nil {
        let once = { () throws(RunFailure) -> ChildRun in
          try self.invoke(floor, [folder], input: .null, in: "\(self.work)/runs/taglib-floor", keepOutput: true)
        }
        if run == 0 {
          _ = try? once()
        } else {
          record(&floorRuns, label: "folder TagLib floor", run: run, of: runs, once)
        }
      }
    }
    if python != nil { result.mutagen = mutagen }
    if floor != nil { result.floor = floorRuns }
  }
}

extension Report {
  func folderLines(_ result: FolderResult) -> [String] {
    var lines = ["## import of a \(grouped(result.tracks))-track music folder into a fresh home", ""]
    lines.append("| tool | command | median | min | peak RSS |")
    lines.append("| --- | --- | ---: | ---: | ---: |")
    lines.append("| bluelib | `bluelib --home FRESH -c 'import DIR'` | \(measurementCells(result.bluelib)) |")
    let mutagen = "python3 mutagen-scan.py DIR (`mutagen.File(path, easy=True)` on every audio file)"
    if let measurement = result.mutagen {
      lines.append("| mutagen | \(mutagen) | \(measurementCells(measurement)) |")
    } else {
      lines.append("| mutagen | \(mutagen) | \(cell(result.mutagenMissing ?? "not run")) | – | – |")
    }
    let floor = "taglib-floor DIR (C++: tags and length of every audio file, TagLib)"
    if let measurement = result.floor {
      lines.append("| TagLib floor | \(floor) | \(measurementCells(measurement)) |")
    } else {
      lines.append("| TagLib floor | \(floor) | \(cell(result.floorMissing ?? "not run")) | – | – |")
    }
    lines.append("")
    return lines
  }

  func folderChecks(_ result: FolderResult?) -> [Check] {
    guard let result else { return [] }
    let tracks = grouped(result.tracks)
    var checks: [Check] = []
    for (name, reference, goal, missing) in [
      ("mutagen's scan", result.mutagen, FolderResult.mutagenGoal, result.mutagenMissing),
      ("the C++ TagLib floor", result.floor, FolderResult.floorGoal, result.floorMissing),
    ] {
      let text = "import of the \(tracks)-track folder ≤ \(formatRatio(goal)) \(name)"
      if let ratio = result.ratio(to: reference) {
        checks.append(
          Check(status: ratio <= goal ? .pass : .fail, text: "\(text): ratio \(formatRatio(ratio))"))
      } else if let missing {
        checks.append(Check(status: .skip, text: "\(text): \(missing)"))
      } else {
        checks.append(self.missing(text, result.bluelib, reference))
      }
    }
    if result.bluelib.succeeded {
      let peak = result.bluelib.maxRSSKiB
      checks.append(
        Check(
          status: peak < FolderResult.peakGoalKiB ? .pass : .fail,
          text:
            "peak RSS of the import of the \(tracks)-track folder < \(formatKiB(FolderResult.peakGoalKiB)): \(formatKiB(peak))"
        ))
    } else {
      checks.append(missing("peak RSS of the folder import", result.bluelib))
    }
    return checks
  }
}

/// A Python 3 that has mutagen: `python3` on PATH, else the system's (a pyenv or venv
/// python3 first on PATH may lack the Debian package's module).
enum Python {
  static func withMutagen(environment: [String: String]) -> String? {
    let candidates = [findInPath("python3", environment: environment), "/usr/bin/python3"].compactMap { $0 }
    for python in candidates where access(python, X_OK) == 0 {
      let directory = NSTemporaryDirectory() + "bluelib-bench-python-\(getpid())"
      defer { DataSet.remove(directory) }
      try? DataSet.makeDirectory(directory)
      let run = try? runChild(
        executable: python, arguments: ["-c", "import mutagen"],
        environment: environment.map { "\($0.key)=\($0.value)" }, input: .null, stdoutPath: "/dev/null",
        stderrPath: directory + "/stderr", timeout: 60)
      if run?.termination.succeeded == true { return python }
    }
    return nil
  }
}
