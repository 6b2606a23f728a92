import AlbumModel
import BlueCovers
import Foundation
import Testing

@testable import BlueLibrary

/// A command's reads share one read transaction (one lock, one look at the file), which
/// must never outlive what the command does: another shell's write goes through as soon
/// as the command ends, changes something, or waits. A lock held too long would make the
/// other shell's write fail after its 5-second busy timeout.
@Suite struct CommandSnapshotTests {
  private func twoShells() throws -> (Library, AlbumStore, TemporaryDirectory) {
    let home = try TemporaryDirectory()
    let path = home.file("library.sqlite")
    let shell = try Library.open(path: path)
    return (shell, try AlbumStore.open(path: path), home)
  }

  @Test func readsInsideACommandSeeOneSnapshotAndTheEndReleasesIt() throws {
    let (shell, other, home) = try twoShells()
    defer { withExtendedLifetime(home) {} }
    shell.beginCommand()
    #expect(try shell.albums(in: 0..<3).map(\.title) == DefaultCatalogue.albums.prefix(3).map(\.title))
    #expect(shell.store.queue.inDatabase { $0.isInsideTransaction })
    shell.endCommand()
    #expect(shell.store.queue.inDatabase { $0.isInsideTransaction } == false)
    try other.setSelectedIndex(4)
    #expect(try other.selectedIndex() == 4)
  }

  @Test func aChangeEndsTheSnapshotBeforeItWrites() throws {
    let (shell, other, home) = try twoShells()
    defer { withExtendedLifetime(home) {} }
    shell.beginCommand()
    _ = try shell.albums(in: 0..<5)
    _ = try shell.add(Album(title: "New"))
    // The command has not ended, but its read lock went with the change.
    try other.setSelectedIndex(1)
    #expect(try other.count() == 6)
    shell.endCommand()
  }

  @Test func waitingForCoversEndsTheSnapshot() throws {
    let (shell, other, home) = try twoShells()
    let covered = try Library.open(
      path: shell.store.path!, covers: CoverLoader(cache: CoverCache(directory: home.file("covers"))))
    covered.beginCommand()
    _ = try covered.albums(in: 0..<5)
    #expect(covered.waitForCovers(timeout: 0.1) == .done)
    try other.setSelectedIndex(2)
    covered.endCommand()
  }

  @Test func anotherShellsChangeIsSeenByTheNextCommand() throws {
    let (shell, other, home) = try twoShells()
    defer { withExtendedLifetime(home) {} }
    shell.beginCommand()
    try shell.noticeChangesElsewhere()
    #expect(try shell.count() == 5)
    shell.endCommand()
    _ = try other.add(Album(title: "Elsewhere"), at: 5, origin: ChangeOrigin(session: "other", selection: 0))
    shell.beginCommand()
    try shell.noticeChangesElsewhere()
    #expect(try shell.count() == 6)
    #expect(try shell.album(at: 5).title == "Elsewhere")
    shell.endCommand()
  }
}
