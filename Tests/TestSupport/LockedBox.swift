import Synchronization

/// A value shared between threads under a lock.
public final class LockedBox<Value: Sendable>: Sendable {
  private let stored: Mutex<Value>

  /// A box holding `value`.
  public init(_ value: Value) { stored = Mutex(value) }

  /// A copy of the value.
  public var value: Value { stored.withLock { $0 } }

  /// Changes the value in place, under the lock.
  public func update(_ body: (inout Value) -> Void) { stored.withLock { body(&$0) } }
}
