import AlbumModel
import BlueLibrary

/// The albums at some indices of the view (or library), in their order, read a page at a
/// time as they are asked for: a run of consecutive indices is one read.
///
/// The indices were checked when the command resolved them, in the command's read
/// transaction; an album that cannot be read now ends the sequence.
struct AlbumPages: Sequence {
  /// Albums read at once.
  static let pageSize = 256

  let indices: [Int]
  let library: Library

  init(_ indices: [Int], library: Library) {
    self.indices = indices
    self.library = library
  }

  struct Iterator: IteratorProtocol {
    let indices: [Int]
    let library: Library
    var nextIndex = 0
    var page: [Album] = []
    var pageIndex = 0

    mutating func next() -> Album? {
      if pageIndex == page.count {
        guard nextIndex < indices.count, let read = readPage() else { return nil }
        page = read
        pageIndex = 0
      }
      defer { pageIndex += 1 }
      return page[pageIndex]
    }

    /// The next page's albums: one read for a run of consecutive indices, else one each.
    private mutating func readPage() -> [Album]? {
      let chunk = indices[nextIndex..<Swift.min(nextIndex + AlbumPages.pageSize, indices.count)]
      nextIndex = chunk.endIndex
      let first = chunk.first!
      let consecutive = chunk.enumerated().allSatisfy { $0.element == first + $0.offset }
      let albums =
        consecutive
        ? try? library.albums(in: first..<first + chunk.count)
        : try? chunk.map { index in try library.album(at: index) }
      return albums.flatMap { $0.isEmpty ? nil : $0 }
    }
  }

  func makeIterator() -> Iterator { Iterator(indices: indices, library: library) }
}
