/// Who makes a change: the shell's session id and the selection it had.
package struct ChangeOrigin: Sendable {
  /// The session id, a UUID string per shell process: `undo` prefers its own steps.
  package var session: String
  /// The 0-based index of the selected album, nil when nothing is selected.
  package var selection: Int?

  /// Creates an origin for `session` with `selection` selected.
  package init(session: String, selection: Int?) {
    self.session = session
    self.selection = selection
  }
}
