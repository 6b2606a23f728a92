import Synchronization

/// Rendered covers, keyed by source (a URL or a file path), cell size and colour mode,
/// keeping the most recently used `capacity` frames.
///
/// Frames are small (a 20×10 cover is about 5 KB in 24-bit colour), so the bound is a
/// count; eviction scans for the least recently used entry, which is cheap at the few
/// hundred entries a shell needs.
///
/// - Important: Thread-safe: every method takes an internal lock, never while rendering.
public final class RenderCache: Sendable {
  /// What a frame was rendered from and for.
  public struct Key: Hashable, Sendable {
    public var source: String
    public var columns: Int
    public var rows: Int
    public var mode: ColorMode

    /// The key of `source` drawn in `columns` × `rows` cells in `mode`.
    public init(source: String, columns: Int, rows: Int, mode: ColorMode) {
      self.source = source
      self.columns = columns
      self.rows = rows
      self.mode = mode
    }
  }

  private struct Entry {
    var frame: String
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var clock: UInt64 = 0
  }

  /// The most frames kept.
  public let capacity: Int
  private let state = Mutex(State())

  /// A cache of at most `capacity` (≥ 1) frames.
  public init(capacity: Int = 256) {
    precondition(capacity >= 1, "a cache holds at least one frame")
    self.capacity = capacity
  }

  /// The frame stored for `key`, marking it recently used.
  public func frame(for key: Key) -> String? {
    state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry.frame
    }
  }

  /// Stores `frame` for `key`, evicting the least recently used frame when full.
  public func store(_ frame: String, for key: Key) {
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
  public func frame<E: Error>(for key: Key, render: () throws(E) -> String) throws(E) -> String {
    if let frame = frame(for: key) { return frame }
    let frame = try render()
    store(frame, for: key)
    return frame
  }

  /// How many frames are stored.
  public var count: Int { state.withLock { $0.entries.count } }

  /// Forgets every frame (after a terminal resize, say).
  public func removeAll() {
    state.withLock { $0.entries.removeAll() }
  }
}
