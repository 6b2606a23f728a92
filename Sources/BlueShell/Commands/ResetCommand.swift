import AlbumModel
import BlueLibrary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `reset`: replace the library with the default catalogue.
struct ResetCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "reset", group: .change,
    summary: "replace the library with the five default albums (undoable)", examples: ["reset", "reset; undo"])

  init(arguments: [Word]) throws(CommandError) {
    try Self.expectNoArguments(arguments)
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    try environment.library.reset()
    return .changed("reset to the default catalogue (\(albumCount(DefaultCatalogue.albums.count)))")
  }
}
