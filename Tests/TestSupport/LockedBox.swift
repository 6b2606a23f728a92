import Synchronization

/// A value shared between threads under a lock.
package final class LockedBox<Value: Sendable>: Sendable {
  private let stored: Mutex<Value>

  /// A box holding `value`.
  package init(_ value: Value) { stored = Mutex(value) }

  /// A copy of the value.
  package var value: Value { stored.withLock { $0 } }

  /// Changes the value in place, under the lock.
  package func update(_ body: (inout Value) -> Void) { stored.withLock { body(&$0) } }
}
