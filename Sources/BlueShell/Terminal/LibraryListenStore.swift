import BlueLibrary
import ListenBrainz

/// The library file's listen queue as ListenBrainz's submitter keeps listens: the seam
/// between the two, which know nothing of each other.
struct LibraryListenStore: ListenStore {
  let queue: ListenQueue

  func add(_ listen: String, listenedAt: Int64) throws { try queue.add(listen, listenedAt: listenedAt) }
  func claim(_ limit: Int) throws -> [(id: Int64, listen: String)] { try queue.claim(limit).map { ($0.id, $0.listen) } }
  func remove(_ ids: [Int64]) throws { try queue.remove(ids) }
  func count() throws -> Int { try queue.count() }
}
