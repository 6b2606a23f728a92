extension CommandRegistry {
  /// Every verb of the shell, in the order `help` lists them within each group.
  public static var standard: CommandRegistry {
    CommandRegistry([
      FindCommand.self,
      ListCommand.self,
      StatsCommand.self,
      ShowCommand.self,
      ScrollCommand.self,
      TapCommand.self,
      ViewCommand.self,
      AddCommand.self,
      EditCommand.self,
      UneditCommand.self,
      WriteCommand.self,
      DeleteCommand.self,
      MoveCommand.self,
      ImportCommand.self,
      ExportCommand.self,
      ResetCommand.self,
      DownloadCommand.self,
      DownloadsCommand.self,
      WaitCommand.self,
      CoverCommand.self,
      UndoCommand.self,
      RedoCommand.self,
      HelpCommand.self,
      HistoryCommand.self,
      QuitCommand.self,
    ])
  }
}
