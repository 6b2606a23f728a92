/// Why a ``PseudoTerminal`` could not start.
public struct PseudoTerminalError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String

  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}
