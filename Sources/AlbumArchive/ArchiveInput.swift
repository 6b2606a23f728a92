import AlbumModel
import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An import file read block by block into one buffer, which the decoders parse in place.
///
/// Memory stays the size of the buffer whatever the size of the file: a decoder keeps only
/// the record it is reading and calls ``refill(keepingFrom:)`` when that record runs past
/// the bytes read so far. The buffer grows only for a record longer than a block, and a
/// decoder refuses a record longer than ``maximumRecordBytes``. Tests shrink both to a few
/// bytes, so that every record straddles a refill somewhere.
///
/// - Important: Not thread-safe: one decoder owns it.
final class ArchiveInput {
  /// The file's name as errors give it (the path as typed).
  let name: String
  /// The bytes read and not yet dropped, a prefix of the buffer. Decoders write into them
  /// too (a CSV field's `""` pairs are unescaped in place).
  private(set) var bytes: UnsafeMutableBufferPointer<UInt8>
  /// True once the end of the file is in ``bytes``.
  private(set) var isAtEnd: Bool

  /// How much is read at once.
  let blockSize: Int
  /// The longest record (a CSV row, a JSON element) a decoder reads: far more than the
  /// longest valid album (four fields at their limits are under 40 KiB even quoted),
  /// room for wide columns that import skips, and a bound on memory for a file that is
  /// one endless line.
  let maximumRecordBytes: Int

  /// Asked before each block is read: true ends the import with ``LibraryError/cancelled``
  /// (a signal to stop: the import's transaction is rolled back, nothing is changed).
  var isCancelled: (() -> Bool)?

  private var storage: UnsafeMutableBufferPointer<UInt8>
  private var source: Source
  /// How many bytes were read from the file so far, for the size limit.
  private var totalRead = 0

  private enum Source {
    case file(Int32)
    /// Bytes given in memory, and how many of them were "read".
    case memory([UInt8], Int)
  }

  static let defaultBlockSize = 1 << 20
  static let defaultMaximumRecordBytes = 16 << 20

  /// The buffer's size: one block, unless a record longer than that was read.
  var capacity: Int { storage.count }

  /// `16 MiB`: ``maximumRecordBytes`` for messages.
  var maximumRecordText: String {
    let size = maximumRecordBytes
    if size % (1 << 20) == 0 { return "\(size >> 20) MiB" }
    if size % (1 << 10) == 0 { return "\(size >> 10) KiB" }
    return "\(size) bytes"
  }

  /// Opens the regular file at `path` and reads its first block; errors are
  /// ``LibraryError/cannotRead(path:reason:)``.
  ///
  /// A device (`/dev/zero`), a FIFO or a socket is refused before anything is read — each
  /// could be read for ever, and a FIFO with no writer could hang the open, which is
  /// therefore non-blocking. So is a file larger than ``LibraryArchive/importSizeLimit``.
  init(
    path: String, blockSize: Int = defaultBlockSize, maximumRecordBytes: Int = defaultMaximumRecordBytes
  ) throws(LibraryError) {
    func refuse(_ error: SystemError) -> LibraryError { .cannotRead(path: path, reason: error.reason) }
    let fd: Int32
    do {
      fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
    } catch {
      throw refuse(error)
    }
    var info = stat()
    do {
      try syscall("fstat") { fstat(fd, &info) }
    } catch {
      close(fd)
      throw refuse(error)
    }
    let limit = LibraryArchive.importSizeLimit
    var refusal: String?
    switch info.st_mode & S_IFMT {
    case S_IFREG:
      if Int(info.st_size) > limit {
        refusal = "it is larger than the import limit of \(limit >> 20) MiB (\(Int(info.st_size) >> 20) MiB)"
      }
    case S_IFDIR: refusal = "it is a directory"
    default: refusal = "it is not a regular file (a device, a FIFO or a socket)"
    }
    if let refusal {
      close(fd)
      throw .cannotRead(path: path, reason: refusal)
    }
    #if canImport(Glibc)
      _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
    #endif
    name = path
    source = .file(fd)
    self.blockSize = blockSize
    self.maximumRecordBytes = maximumRecordBytes
    storage = .allocate(capacity: blockSize)
    bytes = UnsafeMutableBufferPointer(rebasing: storage[0..<0])
    isAtEnd = false
    try readMore()
  }

  /// Bytes in memory (`decode` of an array), read as if from a file named `name`.
  init(
    copying bytes: [UInt8], name: String, blockSize: Int = defaultBlockSize,
    maximumRecordBytes: Int = defaultMaximumRecordBytes
  ) {
    self.name = name
    source = .memory(bytes, 0)
    self.blockSize = blockSize
    self.maximumRecordBytes = maximumRecordBytes
    storage = .allocate(capacity: blockSize)
    self.bytes = UnsafeMutableBufferPointer(rebasing: storage[0..<0])
    isAtEnd = false
    do {
      try readMore()
    } catch {
      preconditionFailure("reading memory failed: \(error)")
    }
  }

  deinit {
    storage.deallocate()
    if case .file(let fd) = source { close(fd) }
  }

  /// Drops the bytes before `offset`, moves the rest to the front and reads more after
  /// them (at the end of the file, reads nothing). Offsets into ``bytes`` from before the
  /// call are `offset` too high afterwards.
  func refill(keepingFrom offset: Int) throws(LibraryError) {
    precondition(offset >= 0 && offset <= bytes.count, "refill past the bytes read")
    guard !isAtEnd else { return }
    if let isCancelled, isCancelled() { throw .cancelled }
    let kept = bytes.count - offset
    if offset > 0 && kept > 0, let base = storage.baseAddress {
      memmove(base, base + offset, kept)
    }
    // A record longer than half the buffer: double it, so that each read still brings at
    // least half a block, up to what a decoder reads at most.
    let grown = max(min(storage.count * 2, maximumRecordBytes + blockSize), kept + 1)
    if kept > storage.count / 2 && grown > storage.count {
      let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: grown)
      if kept > 0, let base = larger.baseAddress, let old = storage.baseAddress {
        base.initialize(from: old, count: kept)
      }
      storage.deallocate()
      storage = larger
    }
    bytes = UnsafeMutableBufferPointer(rebasing: storage[0..<kept])
    try readMore()
  }

  /// Reads until the buffer is full, or the file ends.
  private func readMore() throws(LibraryError) {
    var filled = bytes.count
    let target = storage.count
    let limit = LibraryArchive.importSizeLimit
    while filled < target {
      let base = storage.baseAddress! + filled
      let wanted = target - filled
      let count: Int
      switch source {
      case .file(let fd):
        do {
          count = try syscall("read") { read(fd, base, wanted) }
        } catch {
          throw .cannotRead(path: name, reason: error.reason)
        }
      case .memory(let data, let offset):
        count = min(wanted, data.count - offset)
        data.withUnsafeBufferPointer { data in
          if count > 0 { base.initialize(from: data.baseAddress! + offset, count: count) }
        }
        source = .memory(data, offset + count)
      }
      if count == 0 {
        isAtEnd = true
        break
      }
      filled += count
      totalRead += count
      // A file that grows past the limit while it is read (or a /proc file that said 0)
      // is cut off there and refused.
      guard totalRead <= limit else {
        throw .cannotRead(path: name, reason: "it is larger than the import limit of \(limit >> 20) MiB")
      }
    }
    bytes = UnsafeMutableBufferPointer(rebasing: storage[0..<filled])
  }
}
