import AlbumModel
import BlueLibrary
import BlueSystem
import Foundation
import MusicFolder
import Testing

@testable import BlueShell

/// One environment, built whole: what a command reads of the process — HOME, BLUELIB_PLAYER,
/// whether it is to stop — comes from the environment it is given, not from the process
/// (issue 37, item 4), so a test injects it.
@Suite struct CommandEnvironmentTests {
  /// `~/` in `export` and `import` is the environment's HOME (the process's own is left
  /// alone: before, `export ~/albums.json` wrote into the HOME of whoever ran the tests).
  @Test func aTildeIsTheEnvironmentsHome() throws {
    let home = try TemporaryDirectory()
    let shell = try InProcessShell(
      albums: [Album(title: "A"), Album(title: "B")], processEnvironment: ["HOME": home.path])
    #expect(shell.run("export ~/albums.json") == [])
    #expect(shell.lines() == ["exported 2 albums to \(home.path)/albums.json"])
    #expect(fileExists(home.file("albums.json")))
    #expect(shell.run("import ~/albums.json") == [])
    #expect(try shell.titles() == ["A", "B", "A", "B"])
    // Without HOME, `~` is a name like any other.
    let homeless = try InProcessShell()
    #expect(homeless.run("import ~/albums.json").first?.hasPrefix("import: cannot read '~/albums.json'") == true)
  }

  /// `play` runs the environment's BLUELIB_PLAYER with the album's files.
  @Test func playRunsTheEnvironmentsOtherPlayer() throws {
    let directory = try TemporaryDirectory()
    let folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    let track = try folder.track("X/Alpha/01.mp3", TagEdit(album: "Alpha", artist: "X", title: "A1", trackNumber: "1"))
    let record = directory.file("arguments")
    let player = "printf '%s\\n' >'\(record)'"
    let shell = try InProcessShell(albums: [], processEnvironment: ["BLUELIB_PLAYER": player])
    try shell.library.importFolder(folder.root, named: "M")
    #expect(shell.run("play Alpha") == [])
    #expect(shell.lines() == ["played \"Alpha\" with '\(player)'"])
    #expect(fileContents(record) == track + "\n")
  }

  /// The other player runs with the environment's variables, not the process's (before,
  /// it was spawned with the process's own, and a variable given to the shell never
  /// reached it).
  @Test func theOtherPlayerRunsWithTheEnvironmentsVariables() throws {
    let directory = try TemporaryDirectory()
    let folder = try MusicFolderFixture(in: URL(fileURLWithPath: directory.path))
    try folder.track("X/Alpha/01.mp3", TagEdit(album: "Alpha", artist: "X", title: "A1", trackNumber: "1"))
    let record = directory.file("variable")
    // `#` leaves out the files, which the player is given after the command line.
    let player = "printf '%s\\n' \"$BLUELIB_TEST_MARK\" >'\(record)' #"
    let shell = try InProcessShell(
      albums: [], processEnvironment: ["BLUELIB_PLAYER": player, "BLUELIB_TEST_MARK": "from the environment"])
    try shell.library.importFolder(folder.root, named: "M")
    #expect(shell.run("play Alpha") == [])
    #expect(fileContents(record) == "from the environment\n")
  }

  /// A long command (the import of a music folder) asks the environment's cancellation
  /// whether to stop.
  @Test func aLongCommandStopsWhenTheEnvironmentsCancellationSays() throws {
    let folder = try MusicFolderFixture()
    try folder.track("X/Alpha/01.mp3", TagEdit(album: "Alpha", artist: "X", title: "A1", trackNumber: "1"))
    let stopped = Cancellation(interrupt: { _ in true })
    let shell = try InProcessShell(albums: [], cancellation: stopped)
    #expect(shell.run("import '\(folder.root)'") == ["import: cancelled; nothing was imported"])
    #expect(try shell.library.count() == 0)
    let going = try InProcessShell(albums: [])
    #expect(going.run("import '\(folder.root)'") == [])
    #expect(try going.titles() == ["Alpha"])
  }

  /// `delete all` at a prompt asks the environment's question, given when it was made (the
  /// session set it afterwards before).
  @Test func deleteAllAsksTheEnvironmentsQuestion() throws {
    let library = Library.inMemory()
    let captured = try CapturedOutput()
    let asked = LockedBox<[String]>([])
    let interpreter = Interpreter(
      environment: CommandEnvironment(
        library: library, output: captured.channel, isInteractive: true,
        confirm: { question in
          asked.update { $0.append(question) }
          return false
        }))
    #expect(interpreter.run(line: "delete all") == [])
    #expect(asked.value == ["delete every album of the library (5 albums)? 'undo' brings them back"])
    #expect(captured.text() == "nothing deleted\n")
    #expect(try library.count() == 5)
  }
}
