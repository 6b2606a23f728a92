import AlbumModel
internal import BlueSQL

// Listens waiting for ListenBrainz (`listen_queue`, version 18), beside the albums and not in
// the undo log: a listen is a fact about what was played, not a change to take back.
extension AlbumStore {
  /// Queues `listen` (a listen as ListenBrainz takes it), played from `listenedAt`.
  func queueListen(_ listen: String, listenedAt: Int64) throws(LibraryError) {
    try queueListens([(listen, listenedAt)])
  }

  /// Queues `listens` in one transaction.
  func queueListens(_ listens: [(listen: String, listenedAt: Int64)]) throws(LibraryError) {
    try changing { db in
      for (listen, listenedAt) in listens {
        try db.execute(
          sql: "INSERT INTO listen_queue (listened_at, listen) VALUES (?, ?)", arguments: [listenedAt, listen])
      }
    }
  }

  /// Up to `limit` of the oldest listens no other running process is sending, marked as
  /// this process's (a mark left by a process gone, a `kill -9`, is taken over).
  func claimListens(_ limit: Int) throws(LibraryError) -> [QueuedListen] {
    try changing { db in
      let me = ProcessIdentity.current.text
      var taken: [QueuedListen] = []
      var othersRunning: [String: Bool] = [:]
      let rows = try Row.fetchCursor(
        db, sql: "SELECT id, listen, sender FROM listen_queue ORDER BY listened_at, id")
      while taken.count < limit, let row = try rows.next() {
        if let sender: String = row[2], sender != me {
          let running =
            othersRunning[sender] ?? (ProcessIdentity(text: sender)?.isRunning ?? false)
          othersRunning[sender] = running
          if running { continue }
        }
        taken.append(QueuedListen(id: row[0], listen: row[1]))
      }
      for chunk in stride(from: 0, to: taken.count, by: 500) {
        let ids = taken[chunk..<min(chunk + 500, taken.count)].map(\.id)
        try db.execute(
          sql: "UPDATE listen_queue SET sender = ? WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
          arguments: StatementArguments([me] + ids.map { $0 as (any DatabaseValueConvertible) }))
      }
      return taken
    }
  }

  /// Takes the listens `ids` out of the queue (sent, or refused for good).
  func removeListens(_ ids: [Int64]) throws(LibraryError) {
    guard !ids.isEmpty else { return }
    try changing { db in
      for chunk in stride(from: 0, to: ids.count, by: 500) {
        let part = Array(ids[chunk..<min(chunk + 500, ids.count)])
        try db.execute(
          sql: "DELETE FROM listen_queue WHERE id IN (\(part.map { _ in "?" }.joined(separator: ",")))",
          arguments: StatementArguments(part))
      }
    }
  }

  /// How many listens wait.
  func queuedListenCount() throws(LibraryError) -> Int {
    try reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM listen_queue") ?? 0 }
  }
}
