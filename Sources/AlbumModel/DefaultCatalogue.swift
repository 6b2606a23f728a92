/// The five albums of the original app, which a fresh library starts with and `reset` restores.
package enum DefaultCatalogue {
  /// The default albums in scroller order, positions 0...4, not yet stored (ids are nil).
  ///
  /// Their covers use the bundled `bluelib:covers/…` scheme, so the catalogue works offline.
  package static let albums: [Album] = [
    Album(
      title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992,
      coverURL: "bluelib:covers/best-of-bowie.png", position: 0),
    Album(
      title: "It's My Life", artist: "No Doubt", genre: "Pop", year: 2003,
      coverURL: "bluelib:covers/its-my-life.png", position: 1),
    Album(
      title: "Nothing Like The Sun", artist: "Sting", genre: "Pop", year: 1999,
      coverURL: "bluelib:covers/nothing-like-the-sun.png", position: 2),
    Album(
      title: "Staring at the Sun", artist: "U2", genre: "Pop", year: 2000,
      coverURL: "bluelib:covers/staring-at-the-sun.png", position: 3),
    Album(
      title: "American Pie", artist: "Madonna", genre: "Pop", year: 2000,
      coverURL: "bluelib:covers/american-pie.png", position: 4),
  ]
}
