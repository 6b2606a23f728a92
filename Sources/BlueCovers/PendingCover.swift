/// A cover download that has not finished yet, as `downloads` lists it.
package struct PendingCover: Equatable, Sendable {
  /// The cover URL.
  package let url: String
  /// The titles of the albums waiting for it, in request order.
  package let albums: [String]
  /// ``CoverState/queued`` or ``CoverState/downloading``.
  package let state: CoverState
}
