/// iTerm2's inline images (iterm2.com/documentation-images.html), also read by WezTerm:
/// `OSC 1337;File=inline=1;size=BYTES;width=COLUMNS;height=ROWS;preserveAspectRatio=1:`,
/// the file in base64, then BEL. Widths and heights without a unit are cells.
package enum ITermInlineImage {
  /// `png` shown over `columns` × `rows` cells from the cursor.
  package static func sequence(png: [UInt8], columns: Int, rows: Int) -> [UInt8] {
    sequence(base64: Base64.encode(png), byteCount: png.count, columns: columns, rows: rows)
  }

  /// As `sequence(png:columns:rows:)` with the PNG already in base64.
  package static func sequence(base64: [UInt8], byteCount: Int, columns: Int, rows: Int) -> [UInt8] {
    var out = Array(
      "\u{1B}]1337;File=inline=1;size=\(byteCount);width=\(columns);height=\(rows);preserveAspectRatio=1:".utf8)
    out.reserveCapacity(out.count + base64.count + 1)
    out += base64
    out.append(0x07)
    return out
  }
}
