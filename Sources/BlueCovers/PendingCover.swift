/// A cover download that has not finished yet, as `downloads` lists it.
public struct PendingCover: Equatable, Sendable {
  /// The cover URL.
  public let url: String
  /// The titles of the albums waiting for it, in request order.
  public let albums: [String]
  /// ``CoverState/queued`` or ``CoverState/downloading``.
  public let state: CoverState
}
