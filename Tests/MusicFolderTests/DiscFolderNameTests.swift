import Testing

@testable import MusicFolder

/// The disc number a folder's name ends in (`CD1`, `cd 2`, `Disc 3`, `(CD 2)`, `[disc2]`),
/// which makes the folder a disc of the album beside it; a name that ends in no such word
/// and number is no disc.
@Suite struct DiscFolderNameTests {
  @Test(arguments: [
    ("Music/Pink Floyd/The Wall/CD1", 1), ("cd 2", 2), ("Disc 3", 3), ("The Wall - Disk 4", 4), ("(CD 2)", 2),
    ("[disc2]", 2), ("X/CD10", 10), ("disc_007", 7), ("Live 1cd 2", 2), ("Música/CD1 ) ", 1),
  ])
  func aDiscFolderNameSaysItsNumber(name: String, disc: Int) {
    #expect(AlbumGrouping.discNumber(inFolderName: name) == disc)
  }

  @Test(arguments: [
    "ABCD1", "CD1234", "Disc", "Bonus 2", "ÉCD1", "Écd 1", "CD\u{FF11}", "CD1\u{301}", "D1", "", "/", "CD1/Extras",
  ])
  func anotherNameIsNoDisc(name: String) {
    #expect(AlbumGrouping.discNumber(inFolderName: name) == nil)
  }
}
