import BlueLibrary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin names for the POSIX calls that clash with our own method names.
enum POSIX {
  static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, buffer, count)
    #else
      Darwin.write(fd, buffer, count)
    #endif
  }

  static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }

  /// Writes all of `bytes` (see BlueLibrary's `writeAll`); false when the descriptor
  /// refused them.
  @discardableResult
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    (try? BlueLibrary.writeAll(fd, bytes)) != nil
  }
}
