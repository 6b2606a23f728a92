import BlueSystem
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a local file as a cover, within the limits, for the file and bundled sources.
///
/// The read runs on a Dispatch worker, not on a Swift concurrency thread, because
/// file I/O blocks; it checks the deadline and cancellation between chunks.
enum CoverFileReader {
  /// The bytes of the regular file at `path`; `name` is how failures refer to it.
  static func read(path: String, name: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let flag = CancellationFlag()
    let deadline = ContinuousClock.now.advanced(by: limits.timeout)
    let result = await BlockingRead.run {
      readNow(path: path, name: name, limits: limits, deadline: deadline, flag: flag)
    } onCancel: {
      flag.cancel()
    }
    return try result.get()
  }

  /// ``read(path:name:limits:)`` on the calling thread.
  static func readBlocking(path: String, name: String, limits: CoverLimits) throws(CoverFailure) -> Data {
    try readNow(
      path: path, name: name, limits: limits, deadline: ContinuousClock.now.advanced(by: limits.timeout),
      flag: CancellationFlag()
    ).get()
  }

  private static let chunkSize = 64 << 10

  private static func readNow(
    path: String, name: String, limits: CoverLimits, deadline: ContinuousClock.Instant, flag: CancellationFlag
  ) -> Result<Data, CoverFailure> {
    // O_NONBLOCK keeps a FIFO from blocking the open; only regular files are read.
    let fd: Int32
    do {
      fd = try syscall("open") { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
    } catch {
      return .failure(openFailure(error, name: name))
    }
    defer { close(fd) }
    var info = stat()
    do {
      try syscall("fstat") { fstat(fd, &info) }
    } catch {
      return .failure(.unreadableFile("cannot read \(name): \(error.reason)"))
    }
    switch info.st_mode & mode_t(S_IFMT) {
    case mode_t(S_IFREG): break
    case mode_t(S_IFDIR): return .failure(.unreadableFile("\(name) is a directory"))
    default: return .failure(.unreadableFile("\(name) is not a regular file"))
    }
    if Int(info.st_size) > limits.maxBytes {
      return .failure(limits.tooLarge)
    }
    var data = Data()
    data.reserveCapacity(Int(info.st_size))
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while true {
      if flag.isCancelled { return .failure(.cancelled) }
      if ContinuousClock.now >= deadline { return .failure(limits.timedOut) }
      let count: Int
      do {
        count = try syscall("read") { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, chunkSize) } }
      } catch  where error.wouldBlock {
        // Opened O_NONBLOCK (see above); a regular file does not block, but ask again.
        continue
      } catch {
        return .failure(.unreadableFile("cannot read \(name): \(error.reason)"))
      }
      if count == 0 { return .success(data) }
      // The file may have grown since fstat: the cap still holds.
      if data.count + count > limits.maxBytes { return .failure(limits.tooLarge) }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  private static func openFailure(_ error: SystemError, name: String) -> CoverFailure {
    switch error.errno {
    case ENOENT, ENOTDIR: .noSuchFile(name)
    case EACCES, EPERM: .unreadableFile("permission denied \(name)")
    default: .unreadableFile("cannot open \(name): \(error.reason)")
    }
  }
}

/// A one-way flag set from a task's cancellation handler and read by blocking work.
final class CancellationFlag: Sendable {
  private let state = Atomic<Bool>(false)

  /// Sets the flag.
  func cancel() { state.store(true, ordering: .relaxed) }

  /// Whether ``cancel()`` was called.
  var isCancelled: Bool { state.load(ordering: .relaxed) }
}
