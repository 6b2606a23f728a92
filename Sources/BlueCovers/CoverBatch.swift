/// Cover requests handed over in bulk (`download all`), packed in one byte buffer: each is
/// its URL, the album's title and where the album stands, with a hash of the URL (so a cover
/// waiting in it shows as queued), some 90 bytes where a request made one at a time kept a
/// job, a queue entry and a state of about a kilobyte. The loader turns them into requests a
/// few at a time, as slots free up (``CoverLoader/request(_:)``).
package struct CoverBatch: Sendable {
  /// URL bytes, 0, title bytes, 0, then the order as 8 little-endian bytes, per request.
  private var bytes: [UInt8] = []
  /// Where the next request to take starts in `bytes`.
  private var head = 0
  /// How many requests are left to take.
  package private(set) var count = 0
  /// The hash of every URL appended (taken ones too, which then have a state of their own),
  /// for ``holds(_:)``: 8 bytes a request while any is left.
  private var urlHashes: Set<Int> = []

  /// An empty batch.
  package init() {}

  /// Adds a request for the cover at `url` on behalf of the album `title`, which stands at
  /// `order` (status lines come out in this order). A URL or title with a NUL byte in it
  /// is cut there (neither can hold one: the library refuses control characters in URLs).
  package mutating func append(_ url: String, albumTitle title: String, order: Int) {
    let start = bytes.count
    bytes.append(contentsOf: url.utf8.prefix { $0 != 0 })
    urlHashes.insert(bytes[start...].withUnsafeBytes(Self.hash))
    bytes.append(0)
    bytes.append(contentsOf: title.utf8.prefix { $0 != 0 })
    bytes.append(0)
    withUnsafeBytes(of: Int64(order).littleEndian) { bytes.append(contentsOf: $0) }
    count += 1
  }

  /// Appends every request of `other`, in order.
  package mutating func append(contentsOf other: CoverBatch) {
    bytes.append(contentsOf: other.bytes[other.head...])
    count += other.count
    // Into an empty batch (the loader's backlog, mostly) the set is shared, not copied.
    if urlHashes.isEmpty { urlHashes = other.urlHashes } else { urlHashes.formUnion(other.urlHashes) }
  }

  /// Whether a request for `url` may be left to take: true for every URL left (and, once in
  /// 10^13 for a million, for another sharing its hash), false once none is left. A URL
  /// already taken answers true until then; its own state comes first.
  func holds(_ url: String) -> Bool {
    guard count > 0 else { return false }
    var url = url
    return urlHashes.contains(url.withUTF8 { Self.hash(UnsafeRawBufferPointer($0)) })
  }

  private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var hasher = Hasher()
    hasher.combine(bytes: bytes)
    return hasher.finalize()
  }

  /// Takes the oldest request, or nil when none is left.
  mutating func next() -> (url: String, title: String, order: Int)? {
    guard count > 0, let (request, end) = request(at: head) else { return nil }
    head = end
    count -= 1
    if count == 0 { urlHashes = [] }
    // Let go of what was taken once it is most of the buffer.
    if head >= 1 << 16, head * 2 >= bytes.count {
      bytes.removeFirst(head)
      head = 0
    }
    return request
  }

  /// The first `limit` requests left, not taken: their URLs and titles.
  func first(_ limit: Int) -> [(url: String, title: String)] {
    var first: [(url: String, title: String)] = []
    var offset = head
    while first.count < min(limit, count), let (request, end) = request(at: offset) {
      first.append((request.url, request.title))
      offset = end
    }
    return first
  }

  /// The request starting at `offset` in `bytes`, and where the next one starts.
  private func request(at offset: Int) -> ((url: String, title: String, order: Int), end: Int)? {
    guard offset < bytes.count, let urlEnd = bytes[offset...].firstIndex(of: 0),
      let titleEnd = bytes[(urlEnd + 1)...].firstIndex(of: 0), titleEnd + 9 <= bytes.count
    else { return nil }
    let url = String(decoding: bytes[offset..<urlEnd], as: UTF8.self)
    let title = String(decoding: bytes[(urlEnd + 1)..<titleEnd], as: UTF8.self)
    var order: Int64 = 0
    withUnsafeMutableBytes(of: &order) { $0.copyBytes(from: bytes[(titleEnd + 1)..<(titleEnd + 9)]) }
    return ((url, title, Int(Int64(littleEndian: order))), titleEnd + 9)
  }

  /// Drops every request left.
  mutating func removeAll() {
    bytes = []
    head = 0
    count = 0
    urlHashes = []
  }
}
