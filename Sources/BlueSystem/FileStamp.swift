#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a `stat` says of a file that tells one version of it from the next: its size, its
/// modification and status-change times, and its inode.
///
/// A re-import compares all four. A tagger may keep the size (ID3 padding) and put the
/// modification time back (Picard's "preserve timestamps", Mp3tag's), but no program can
/// set the change time, which any write or rename moves to now; a file replaced by another
/// has another inode.
///
/// Times are nanoseconds since 1970, saturated at the ends of 64 bits: a file dated after
/// 2262-04-11 (a camera's bogus date, `touch -d 2300-01-01`) reads as the latest time there
/// is, not as an overflow.
package struct FileStamp: Sendable, Hashable {
  /// The size in bytes.
  package var size: Int64
  /// The modification time, nanoseconds since 1970.
  package var modified: Int64
  /// The status-change time, nanoseconds since 1970.
  package var changed: Int64
  /// The inode number (its bits as a signed integer, as SQLite stores it).
  package var inode: Int64

  /// A stamp with every field given.
  package init(size: Int64, modified: Int64, changed: Int64, inode: Int64) {
    (self.size, self.modified, self.changed, self.inode) = (size, modified, changed, inode)
  }

  /// The stamp of what `info` describes.
  package init(_ info: stat) {
    #if canImport(Darwin)
      let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
    #else
      let (modified, changed) = (info.st_mtim, info.st_ctim)
    #endif
    self.init(
      size: Int64(info.st_size), modified: Self.nanoseconds(modified), changed: Self.nanoseconds(changed),
      inode: Int64(truncatingIfNeeded: UInt64(info.st_ino)))
  }

  /// The stamp of the file at `path` (symbolic links followed), or nil when it cannot be
  /// read (errno says why).
  package init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  /// `time` in nanoseconds since 1970, saturated at `Int64.min` and `Int64.max`.
  package static func nanoseconds(_ time: timespec) -> Int64 {
    let (seconds, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return time.tv_sec < 0 ? .min : .max }
    let (total, overflowAgain) = seconds.addingReportingOverflow(Int64(time.tv_nsec))
    return overflowAgain ? .max : total
  }
}
