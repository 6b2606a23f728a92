#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks for a password on the controlling terminal (`/dev/tty`), echo off, as `ssh` and
/// `sudo` do: what is typed is shown nowhere and kept nowhere but in the value returned.
package enum PasswordPrompt {
  /// The longest password read.
  static let longest = 4096

  /// Why no password could be asked for.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// Writes `prompt` to the terminal, reads a line with echo off (restored after, and on
  /// Ctrl-C), and returns it without its newline.
  ///
  /// - Throws: ``Failure`` when the process has no terminal, or the input ended.
  package static func ask(_ prompt: String) throws(Failure) -> String {
    let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard terminal >= 0 else { throw Failure(description: "no terminal to ask for the password on") }
    defer { close(terminal) }
    var saved = termios()
    guard tcgetattr(terminal, &saved) == 0 else { throw Failure(description: "no terminal to ask for the password on") }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    quiet.c_lflag |= tcflag_t(ICANON)
    _ = prompt.utf8CString.withUnsafeBufferPointer { write(terminal, $0.baseAddress, $0.count - 1) }
    _ = tcsetattr(terminal, TCSAFLUSH, &quiet)
    defer {
      _ = tcsetattr(terminal, TCSAFLUSH, &saved)
      _ = "\n".utf8CString.withUnsafeBufferPointer { write(terminal, $0.baseAddress, 1) }
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while bytes.count < longest {
      let count = read(terminal, &byte, 1)
      if count < 0 && errno == EINTR { throw Failure(description: "interrupted") }
      guard count == 1 else {
        if bytes.isEmpty { throw Failure(description: "no password given") }
        break
      }
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
