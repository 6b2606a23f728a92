#if canImport(Glibc)
  import Glibc
#endif

/// The page cache of the binaries measured, as `bash .ci/run install` leaves it: dropped.
///
/// A file just written (by the linker, by `strip`) sits in the page cache in large folios,
/// and a process that maps it is charged each whole folio it touches: `bluelib -c quit`
/// peaked at 33.5 MiB from the linker's output, 17.8 MiB once the same bytes were read back
/// from disk (docs/benchmarks.md, "Peak RSS"). The file as a user runs it was installed and
/// read back; `install` drops the page cache of what it installs, and so does the bench,
/// once, before its first run.
enum PageCache {
  /// Writes back and drops the cached pages of each file of `paths` that can be opened.
  static func drop(_ paths: [String]) {
    for path in paths {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      // Dirty pages are not dropped: written back first.
      _ = fsync(descriptor)
      _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
      close(descriptor)
    }
  }
}
