import BlueLibrary
import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin names for the POSIX calls that clash with our own method names.
enum POSIX {
  static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }

  /// Writes all of `bytes` (see BlueSystem's `writeAll`); false when the descriptor
  /// refused them.
  @discardableResult
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    (try? BlueSystem.writeAll(fd, bytes)) != nil
  }
}

/// Standard input, output and error, as the process was started with them.
package enum StandardDescriptors {
  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed, so that the next
  /// descriptor the process creates (the wake-up pipe, the library) cannot become its input
  /// or output: a closed standard input is then an empty one. Call first thing in `main`.
  package static func openClosedOnes() {
    for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      // The lowest free descriptor is this one, since those below it are open by now.
      let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if opened >= 0 && opened != descriptor {
        _ = dup2(opened, descriptor)
        _ = close(opened)
      }
    }
  }
}
