/// A buffered writer over a file descriptor that ends quietly when the reader goes away.
///
/// Writing to a closed pipe (`bluelib … | head -1`) sets ``isClosed`` instead of raising
/// SIGPIPE or throwing; the shell checks it and stops reading input.
///
/// - Important: Not thread-safe. Only the thread that owns the terminal writes here;
///   background work hands its lines to a ``MessageQueue`` instead.
public final class OutputChannel {
  /// The descriptor written to.
  public let fileDescriptor: Int32
  /// True once a write failed because nobody reads the other end any more.
  public private(set) var isClosed = false
  private var buffer: [UInt8] = []
  private let flushThreshold: Int

  /// Creates a channel over `fileDescriptor`, flushing whenever `flushThreshold` bytes are pending.
  public init(fileDescriptor: Int32, flushThreshold: Int = 64 * 1024) {
    self.fileDescriptor = fileDescriptor
    self.flushThreshold = flushThreshold
    buffer.reserveCapacity(flushThreshold)
  }

  /// Appends `text` to the buffer.
  public func write(_ text: String) {
    guard !isClosed else { return }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= flushThreshold { flush() }
  }

  /// Appends `text` and a newline.
  public func line(_ text: String = "") {
    write(text)
    write("\n")
  }

  /// Writes everything buffered so far.
  public func flush() {
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !isClosed else { return }
    let written = buffer.withUnsafeBytes { POSIX.writeAll(fileDescriptor, $0) }
    if !written { isClosed = true }
  }
}
