import BlueLibrary
import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered writer over a file descriptor that ends quietly when the reader goes away.
///
/// Writing to a closed pipe (`bluelib … | head -1`) sets ``isClosed`` instead of raising
/// SIGPIPE or throwing; the shell checks it and stops reading input.
///
/// - Important: Not thread-safe. Only the thread that owns the terminal writes here;
///   background work hands its lines to a ``MessageQueue`` instead.
final class OutputChannel {
  /// The descriptor written to.
  let fileDescriptor: Int32
  /// True once a write failed: nobody reads the other end any more, or the write failed
  /// for another reason (``failure``).
  private(set) var isClosed = false
  /// Why a write failed, when it was not a closed pipe (a full disk, an I/O error): an
  /// error the shell reports, where a closed pipe (`bluelib … | head -1`) ends quietly.
  private(set) var failure: String?
  private var buffer: [UInt8] = []
  private let flushThreshold: Int

  /// Creates a channel over `fileDescriptor`, flushing whenever `flushThreshold` bytes are pending.
  init(fileDescriptor: Int32, flushThreshold: Int = 64 * 1024) {
    self.fileDescriptor = fileDescriptor
    self.flushThreshold = flushThreshold
    buffer.reserveCapacity(flushThreshold)
  }

  /// Appends `text` to the buffer.
  func write(_ text: String) {
    guard !isClosed else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= flushThreshold { flush() }
  }

  /// Lets `body` append bytes to the buffer in place (false when the channel is closed and
  /// they would be dropped), flushing afterwards when the buffer is full enough.
  @discardableResult
  func append(_ body: (inout [UInt8]) -> Void) -> Bool {
    guard !isClosed else { return false }
    body(&buffer)
    if buffer.count >= flushThreshold { flush() }
    return !isClosed
  }

  /// Appends `text` and a newline.
  func line(_ text: String = "") {
    write(text)
    write("\n")
  }

  /// Writes everything buffered so far.
  func flush() {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !isClosed else { return }
    let fd = fileDescriptor
    let written = buffer.withUnsafeBytes { bytes in Result { () throws(SystemError) in try writeAll(fd, bytes) } }
    if case .failure(let error) = written {
      isClosed = true
      if error.errno != EPIPE { failure = error.reason }
    }
  }
}
