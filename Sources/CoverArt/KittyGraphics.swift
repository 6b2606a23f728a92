/// The kitty graphics protocol (sw.kovidgoyal.net/kitty/graphics-protocol): escape sequences
/// that send a PNG and place it over a box of cells, and delete it again.
///
/// An image goes out as base64 in APC chunks (`ESC _G keys;payload ESC \`) of at most 4096
/// characters, every chunk but the last marked `m=1`. The first chunk carries the keys:
/// transmit and display (`a=T`), PNG (`f=100`), the image id, the cells (`c=`, `r=`, so the
/// terminal scales it to exactly that box), the cursor left where it was (`C=1`) and no
/// replies (`q=2`), which would otherwise arrive as input at the prompt.
package enum KittyGraphics {
  /// The most base64 characters in one chunk (the protocol's limit).
  package static let chunkLimit = 4096

  /// The query of detection: "would you show this 1×1 RGB image with id 31?" A kitty
  /// terminal answers `ESC _Gi=31;OK ESC \`; anything else ignores it.
  package static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\"

  /// Sends `png` as image `imageID` and shows it over `columns` × `rows` cells from the cursor.
  package static func transmitAndPlace(png: [UInt8], imageID: UInt32, columns: Int, rows: Int) -> [UInt8] {
    transmitAndPlace(base64: Base64.encode(png), imageID: imageID, columns: columns, rows: rows)
  }

  /// As `transmitAndPlace(png:imageID:columns:rows:)` with the PNG already in base64.
  package static func transmitAndPlace(base64: [UInt8], imageID: UInt32, columns: Int, rows: Int) -> [UInt8] {
    precondition(imageID > 0, "kitty image ids start at 1")
    let first = Array("a=T,f=100,t=d,i=\(imageID),c=\(columns),r=\(rows),C=1,q=2".utf8)
    let chunks = max(1, (base64.count + chunkLimit - 1) / chunkLimit)
    var out: [UInt8] = []
    out.reserveCapacity(base64.count + chunks * 12 + first.count)
    var start = 0
    for index in 0..<chunks {
      let end = min(start + chunkLimit, base64.count)
      out += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
      if index == 0 {
        out += first
        out.append(UInt8(ascii: ","))
      }
      out += Array((index == chunks - 1 ? "m=0;" : "m=1;").utf8)
      out += base64[start..<end]
      out += [0x1B, UInt8(ascii: "\\")]
      start = end
    }
    return out
  }

  /// Deletes image `imageID`: every placement of it and its data (`a=d,d=I`).
  package static func delete(imageID: UInt32) -> [UInt8] {
    Array("\u{1B}_Ga=d,d=I,i=\(imageID),q=2\u{1B}\\".utf8)
  }
}
