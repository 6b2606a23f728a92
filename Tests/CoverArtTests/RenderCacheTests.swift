import CoverArt
import Testing

@Suite struct RenderCacheTests {
  func key(_ source: String, _ columns: Int = 20, _ rows: Int = 10, _ mode: ColorMode = .trueColor) -> RenderKey {
    RenderKey(source: source, columns: columns, rows: rows, mode: mode)
  }

  @Test func framesAreFoundBySourceSizeAndMode() {
    let cache = RenderCache<String>(capacity: 8)
    cache.store("a 20×10", for: key("a"))
    cache.store("a 8×4", for: key("a", 8, 4))
    cache.store("a none", for: key("a", 20, 10, .none))
    #expect(cache.frame(for: key("a")) == "a 20×10")
    #expect(cache.frame(for: key("a", 8, 4)) == "a 8×4")
    #expect(cache.frame(for: key("a", 20, 10, .none)) == "a none")
    #expect(cache.frame(for: key("a", 20, 10, .palette256)) == nil)
    #expect(cache.frame(for: key("b")) == nil)
    #expect(cache.count == 3)
  }

  @Test func theLeastRecentlyUsedFrameIsEvicted() {
    let cache = RenderCache<String>(capacity: 3)
    for name in ["a", "b", "c"] { cache.store(name, for: key(name)) }
    _ = cache.frame(for: key("a"))
    cache.store("d", for: key("d"))
    #expect(cache.count == 3)
    #expect(cache.frame(for: key("b")) == nil)
    #expect(cache.frame(for: key("a")) == "a" && cache.frame(for: key("c")) == "c" && cache.frame(for: key("d")) == "d")
  }

  @Test func aMissRendersOnceAndAHitDoesNot() throws {
    let cache = RenderCache<String>()
    let cover = ImageEncoder.png(TestImages.quadrants(size: 40))
    var renders = 0
    let first = try cache.frame(for: key("file:///cover.png")) { () throws(CoverArtError) in
      renders += 1
      return try HalfBlockRenderer.render(encoded: cover, columns: 20, rows: 10, mode: .trueColor)
    }
    let second = try cache.frame(for: key("file:///cover.png")) { () throws(CoverArtError) in
      renders += 1
      return ""
    }
    #expect(renders == 1 && first == second && !first.isEmpty)
    #expect(throws: CoverArtError.notAnImage) {
      try cache.frame(for: key("bad")) { () throws(CoverArtError) in
        try HalfBlockRenderer.render(encoded: [1, 2, 3], columns: 20, rows: 10, mode: .trueColor)
      }
    }
    #expect(cache.frame(for: key("bad")) == nil, "failures are not cached")
  }

  @Test func concurrentUseStaysWithinCapacity() async {
    let cache = RenderCache<String>(capacity: 16)
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<8 {
        group.addTask {
          for step in 0..<500 {
            let name = "cover-\((worker * 7 + step) % 40)"
            if let frame = cache.frame(for: key(name)) {
              #expect(frame == name)
            } else {
              cache.store(name, for: key(name))
            }
          }
        }
      }
    }
    #expect(cache.count <= 16)
    cache.removeAll()
    #expect(cache.count == 0)
  }
}
