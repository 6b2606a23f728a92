/// One step of the undo log.
package struct ChangeStep: Sendable, Equatable {
  /// The step's row id in the log: later steps have larger ids.
  package let id: Int64
  /// What the step did.
  package let kind: ChangeKind
  /// What `undo` and `redo` print: `delete "American Pie"`, `import of 300 albums`, `reset`.
  package let summary: String
  /// The session (one per shell process) that made the step.
  package let session: String
  /// Whether the step is undone (and so can be redone).
  package let isUndone: Bool

  package init(id: Int64, kind: ChangeKind, summary: String, session: String, isUndone: Bool) {
    (self.id, self.kind, self.summary, self.session, self.isUndone) = (id, kind, summary, session, isUndone)
  }
}
