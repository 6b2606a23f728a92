/// Identifies one subscription to a ``CoverLoader``'s events, for unsubscribing.
public struct SubscriptionToken: Hashable, Sendable {
  let id: UInt64
}
