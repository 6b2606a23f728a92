/// The bounds every cover fetch honours: a time limit and a size cap.
package struct CoverLimits: Sendable, Equatable {
  /// The longest a whole fetch may take, connection and body included.
  package var timeout: Duration
  /// The most bytes a cover may have; a fetch stops reading past it.
  package var maxBytes: Int

  /// The defaults of the shell: 15 seconds and 10 MiB.
  package static let standard = CoverLimits(timeout: .seconds(15), maxBytes: 10 << 20)

  /// Creates limits; a negative cap counts as zero.
  package init(timeout: Duration, maxBytes: Int) {
    self.timeout = timeout
    self.maxBytes = max(0, maxBytes)
  }

  /// The timeout in seconds, as `TimeInterval`-style APIs want it.
  var timeoutSeconds: Double {
    let parts = timeout.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }

  /// The failure for running out of time.
  package var timedOut: CoverFailure { .timedOut(seconds: timeoutSeconds) }

  /// The failure for exceeding the cap.
  package var tooLarge: CoverFailure { .tooLarge(maxBytes: maxBytes) }
}
