/// Why a ``PseudoTerminal`` could not start.
package struct PseudoTerminalError: Error, CustomStringConvertible {
  /// What went wrong.
  package var description: String

  /// An error saying `description`.
  package init(_ description: String) { self.description = description }
}
