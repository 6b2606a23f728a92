import AlbumArchive
import AlbumModel
import BlueLibrary
import BlueSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct SetupError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The generated files: CSVs of N albums and libraries made from them.
enum DataSet {
  /// The digits of album numbers in a set of `count`: at least 6, so titles sort as numbers.
  static func width(for count: Int) -> Int { max(6, String(count).count) }

  /// The title of album `number` (1-based) in a set of `count`: `Album 000123`.
  static func title(_ number: Int, of count: Int) -> String {
    let digits = String(number)
    return "Album " + String(repeating: "0", count: max(0, width(for: count) - digits.count)) + digits
  }

  /// Writes `count` deterministic albums as CSV with the header `title,artist,genre,year,coverUrl`:
  /// `Album 000123,Artist 23,Genre 3,1973,https://covers.example/123.png`; `coverURL` gives
  /// album `number`'s cover URL instead (it must need no CSV quoting).
  static func writeCSV(
    count: Int, to path: String, coverURL: (Int) -> String = { "https://covers.example/\($0).png" }
  ) throws(SetupError) {
    guard let file = fopen(path, "wb") else {
      throw SetupError("cannot write \(path): \(SystemError.reason(errno))")
    }
    var buffer: [UInt8] = []
    buffer.reserveCapacity(1 << 20)
    var failed = false
    func flush() {
      if !buffer.isEmpty && fwrite(buffer, 1, buffer.count, file) != buffer.count { failed = true }
      buffer.removeAll(keepingCapacity: true)
    }
    buffer.append(contentsOf: "title,artist,genre,year,coverUrl\n".utf8)
    for number in stride(from: 1, through: count, by: 1) {
      let row =
        "\(title(number, of: count)),Artist \(number % 100),Genre \(number % 10),\(1950 + number % 70),\(coverURL(number))\n"
      buffer.append(contentsOf: row.utf8)
      if buffer.count >= 1 << 20 { flush() }
    }
    flush()
    if fclose(file) != 0 { failed = true }
    if failed { throw SetupError("cannot write \(path): \(SystemError.reason(errno))") }
  }

  /// Creates the library at `path` holding exactly the albums of `csv` (no default
  /// catalogue), with the first album selected, through the BlueLibrary API; returns its count.
  static func makeLibrary(from csv: String, at path: String) throws(SetupError) -> Int {
    do {
      let albums = try LibraryArchive.decode(fileAtPath: csv)
      let store = try AlbumStore.open(path: path)
      _ = try store.reset(to: albums, origin: ChangeOrigin(session: "bluelib-bench", selection: nil))
      return try store.count()
    } catch {
      throw SetupError("cannot create the library \(path): \(error)")
    }
  }

  /// The number of albums in the library at `path` (opened, which checks the file).
  static func albumCount(at path: String) throws(SetupError) -> Int {
    do {
      return try AlbumStore.open(path: path).count()
    } catch {
      throw SetupError("\(error)")
    }
  }

  /// Copies a file (the pristine library into a run's home) and flushes the copy to disk.
  ///
  /// Without the flush the copy's pages are still dirty when the timed run starts, and
  /// the run's first commit (its fsync) would pay for writing the bench's own 100 MB copy:
  /// a cost of the set-up, not of bluelib, and one that grows with the library.
  static func copyFile(_ source: String, to destination: String) throws(SetupError) {
    do {
      try FileManager.default.copyItem(atPath: source, toPath: destination)
    } catch {
      throw SetupError("cannot copy \(source) to \(destination): \(error.localizedDescription)")
    }
    let fd = open(destination, O_RDONLY | O_CLOEXEC)
    guard fd >= 0, fsync(fd) == 0 else {
      if fd >= 0 { close(fd) }
      throw SetupError("cannot flush \(destination): \(SystemError.reason(errno))")
    }
    close(fd)
  }

  static func makeDirectory(_ path: String) throws(SetupError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw SetupError("cannot create directory \(path): \(error.localizedDescription)")
    }
  }

  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// A new temporary directory under `$TMPDIR` (or /tmp).
  static func makeTemporaryDirectory(environment: [String: String]) throws(SetupError) -> String {
    var base = environment["TMPDIR"] ?? "/tmp"
    if base.isEmpty { base = "/tmp" }
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    var template = Array("\(base)/bluelib-bench.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      mkdtemp(buffer.baseAddress!).map { String(cString: $0) }
    }
    guard let made else {
      throw SetupError("cannot create a temporary directory in \(base): \(SystemError.reason(errno))")
    }
    return made
  }

  /// The folder a bench works in: `keep`, made if need be (and kept after), else a new
  /// temporary one.
  static func workDirectory(keep: String?, environment: [String: String]) throws(SetupError) -> String {
    guard let keep else { return try makeTemporaryDirectory(environment: environment) }
    try makeDirectory(keep)
    return absolute(keep)
  }

  /// A run's folder made afresh: `directory` removed, then `folder` (itself or one inside
  /// it) made, holding a copy of `library` as `library.sqlite` when one is given. A failure
  /// is the run's, in setting up.
  static func freshRun(_ directory: String, making folder: String, library: String? = nil) throws(RunFailure) {
    do {
      remove(directory)
      try makeDirectory(folder)
      if let library { try copyFile(library, to: folder + "/library.sqlite") }
    } catch {
      throw RunFailure(message: "setup: \(error)")
    }
  }

  /// An absolute, `..`-free path for `path`.
  static func absolute(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    if path.hasPrefix("/") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
  }

  /// The first non-blank line of the file at `path`, or nil.
  static func firstLine(ofFileAt path: String, limit: Int = 64 << 10) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: limit)) ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    return text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .first { !$0.isEmpty }
  }

  /// The whole (small) file at `path` as text, or "".
  static func contents(ofFileAt path: String, limit: Int = 1 << 20) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
    defer { try? handle.close() }
    return String(decoding: (try? handle.read(upToCount: limit)) ?? Data(), as: UTF8.self)
  }
}
