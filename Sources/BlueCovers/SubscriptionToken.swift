/// Identifies one subscription to a ``CoverLoader``'s events, for unsubscribing.
package struct SubscriptionToken: Hashable, Sendable {
  let id: UInt64
}
