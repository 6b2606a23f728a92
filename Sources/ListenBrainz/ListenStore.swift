/// Where listens wait until ListenBrainz took them: the library file's queue (`listen_queue`),
/// which the shell hands over. Safe from any thread; each call is a short transaction of
/// its own.
package protocol ListenStore: Sendable {
  /// Keeps `listen` (JSON), played from `listenedAt` (seconds since 1970).
  func add(_ listen: String, listenedAt: Int64) throws
  /// Up to `limit` of the oldest waiting listens that no other running process is sending,
  /// marked as this one's.
  func claim(_ limit: Int) throws -> [(id: Int64, listen: String)]
  /// Takes the listens `ids` out (the server took them, or refused them for good).
  func remove(_ ids: [Int64]) throws
  /// How many listens wait.
  func count() throws -> Int
}
