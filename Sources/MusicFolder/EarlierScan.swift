/// What a scan of a music folder may take from an earlier scan of it (a library keeps one
/// for each folder it imported): whether the folder is as that scan found it, and the tracks
/// it read.
///
/// ``MusicFolderScanner/scan(_:progress:isCancelled:earlier:)`` asks on the calling thread,
/// each question at most once and in this order, given the folder's real path (symbolic
/// links resolved): first ``sawFingerprint(_:of:)``, then, unless that said yes,
/// ``takeTracks(under:)``.
package protocol EarlierScan {
  /// Whether the last scan of `root` had `fingerprint` (``MusicFolderScan/fingerprint``,
  /// taken after the walk, before any file is read): then no file is read and no album
  /// built, and the result says ``MusicFolderScan/isUnchanged`` (the caller has what that
  /// scan found).
  func sawFingerprint(_ fingerprint: String, of root: String) -> Bool

  /// The tracks the earlier scan read under `root`, by path: a file whose size, modification
  /// and change times and inode match its entry (``MusicTrack``) is not opened again, its
  /// tags are taken as known. The scanner lets them go once it has read the files: hand
  /// over the only copy, so that a large folder's tags are not held twice.
  func takeTracks(under root: String) -> [String: MusicTrack]
}
