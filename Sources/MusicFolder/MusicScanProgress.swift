/// How far a scan has got, as its progress callback is told.
public struct MusicScanProgress: Sendable, Equatable {
  /// Audio files (by their extension) found so far; final once the folders are all listed.
  public var filesFound: Int
  /// Audio files read so far.
  public var filesScanned: Int
  /// Albums found so far: an estimate during the scan (discs that will be merged count
  /// apart), exact in the last report.
  public var albumsFound: Int

  /// A progress report with every field given.
  public init(filesFound: Int, filesScanned: Int, albumsFound: Int) {
    self.filesFound = filesFound
    self.filesScanned = filesScanned
    self.albumsFound = albumsFound
  }
}
