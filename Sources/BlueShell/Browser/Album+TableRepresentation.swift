import BlueLibrary

extension Album {
  /// The album as `Field: value` rows, in the original app's order plus the cover: the
  /// decorator (`Album+TableRepresentation`), kept out of the model type.
  public var tableRepresentation: [(title: String, value: String)] {
    [
      ("Artist", artist), ("Album", title), ("Genre", genre),
      ("Year", year.map(String.init) ?? ""), ("Cover", coverURL.isEmpty ? "(none)" : coverURL),
    ]
  }
}
