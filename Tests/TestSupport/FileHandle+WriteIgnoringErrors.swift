import Foundation

extension FileHandle {
  /// Writes `data` in chunks, stopping quietly when the reader has gone.
  package func writeIgnoringErrors(_ data: Data) {
    signal(SIGPIPE, SIG_IGN)
    var offset = 0
    while offset < data.count {
      let end = min(offset + 65536, data.count)
      do { try write(contentsOf: data[offset..<end]) } catch { return }
      offset = end
    }
  }
}
