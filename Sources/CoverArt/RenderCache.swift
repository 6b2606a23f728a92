import Synchronization

/// What a cover was drawn from and for: the cache key of ``RenderCache``.
package struct RenderKey: Hashable, Sendable {
  package var source: String
  package var columns: Int
  package var rows: Int
  package var mode: ColorMode
  /// How it was drawn: half blocks, or the image protocol it was encoded for.
  package var graphics: TerminalGraphics
  /// The cell size the pixels were sized for (image protocols only).
  package var cell: CellPixelSize?

  /// The key of `source` drawn in `columns` × `rows` cells in `mode`, as `graphics`.
  package init(
    source: String, columns: Int, rows: Int, mode: ColorMode, graphics: TerminalGraphics = .blocks,
    cell: CellPixelSize? = nil
  ) {
    self.source = source
    self.columns = columns
    self.rows = rows
    self.mode = mode
    self.graphics = graphics
    self.cell = cell
  }
}

/// Drawn covers — half-block text or encoded pictures — keyed by source (a URL or a file
/// path), cell size, colour mode and protocol, keeping the most recently used `capacity`.
///
/// Frames are small (a 20×10 cover is about 5 KB in 24-bit colour, a 40×20 PNG some tens
/// of KB), so the bound is a count; eviction scans for the least recently used entry,
/// which is cheap at the few hundred entries a shell needs.
///
/// - Important: Thread-safe: every method takes an internal lock, never while rendering.
package final class RenderCache<Frame: Sendable>: Sendable {
  /// What a frame was rendered from and for.
  package typealias Key = RenderKey

  private struct Entry {
    var frame: Frame
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var clock: UInt64 = 0
  }

  /// The most frames kept.
  package let capacity: Int
  private let state = Mutex(State())

  /// A cache of at most `capacity` (≥ 1) frames.
  package init(capacity: Int = 256) {
    precondition(capacity >= 1, "a cache holds at least one frame")
    self.capacity = capacity
  }

  /// The frame stored for `key`, marking it recently used.
  package func frame(for key: Key) -> Frame? {
    state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry.frame
    }
  }

  /// Stores `frame` for `key`, evicting the least recently used frame when full.
  package func store(_ frame: Frame, for key: Key) {
    state.withLock { state in
      state.clock += 1
      state.entries[key] = Entry(frame: frame, lastUse: state.clock)
      if state.entries.count > capacity,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        state.entries[oldest] = nil
      }
    }
  }

  /// The frame for `key`, rendered with `render` and stored when missing. Two threads
  /// missing the same key at once may both render; the last store wins.
  package func frame<E: Error>(for key: Key, render: () throws(E) -> Frame) throws(E) -> Frame {
    if let frame = frame(for: key) { return frame }
    let frame = try render()
    store(frame, for: key)
    return frame
  }

  /// How many frames are stored.
  package var count: Int { state.withLock { $0.entries.count } }

  /// Forgets every frame (after a terminal resize, say).
  package func removeAll() {
    state.withLock { $0.entries.removeAll() }
  }
}
