extension CommandRegistry {
  /// Every verb of the shell, in the order `help` lists them within each group.
  public static var standard: CommandRegistry {
    CommandRegistry([
    UndoCommand.self,
    RedoCommand.self,
    HelpCommand.self,
    HistoryCommand.self,
    QuitCommand.self,
  ])
  }
}
