/// How far a scan has got, as its progress callback is told.
package struct MusicScanProgress: Sendable, Equatable {
  /// Audio files (by their extension) found so far; final once the folders are all listed.
  package var filesFound: Int
  /// Audio files read so far.
  package var filesScanned: Int
  /// Albums found so far: an estimate during the scan (discs that will be merged count
  /// apart), exact in the last report.
  package var albumsFound: Int

  /// A progress report with every field given.
  package init(filesFound: Int, filesScanned: Int, albumsFound: Int) {
    self.filesFound = filesFound
    self.filesScanned = filesScanned
    self.albumsFound = albumsFound
  }
}
