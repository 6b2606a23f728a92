import AlbumModel

/// A listen waiting in the library file for ListenBrainz.
package struct QueuedListen: Sendable, Equatable {
  /// Its row.
  package var id: Int64
  /// The listen as ListenBrainz takes it (a JSON object).
  package var listen: String
}

/// The listens waiting for ListenBrainz in one library file (`listen_queue`): safe from any
/// thread, unlike the ``Library`` it comes from, so the thread that sends them reads and
/// takes them out itself, in short transactions of their own, never across a network wait.
package struct ListenQueue: Sendable {
  let store: AlbumStore

  /// Queues `listen` (a JSON object), played from `listenedAt` (seconds since 1970).
  package func add(_ listen: String, listenedAt: Int64) throws(LibraryError) {
    try store.queueListen(listen, listenedAt: listenedAt)
  }

  /// Queues `listens` (JSON objects, each with when it was played) in one transaction: a
  /// backlog brought from elsewhere.
  package func add(contentsOf listens: [(listen: String, listenedAt: Int64)]) throws(LibraryError) {
    try store.queueListens(listens)
  }

  /// Up to `limit` of the oldest listens, marked as this process's to send: another shell
  /// on the file leaves them alone while this process runs.
  package func claim(_ limit: Int) throws(LibraryError) -> [QueuedListen] {
    try store.claimListens(limit)
  }

  /// Takes the listens `ids` out (the server took them, or refused them for good).
  package func remove(_ ids: [Int64]) throws(LibraryError) {
    try store.removeListens(ids)
  }

  /// How many listens wait.
  package func count() throws(LibraryError) -> Int {
    try store.queuedListenCount()
  }
}

extension Library {
  /// The listens waiting for ListenBrainz in this library file.
  package var listenQueue: ListenQueue { ListenQueue(store: store) }
}
