/// The image formats a cover may have, recognised by their leading bytes.
package enum CoverImageFormat: String, Sendable, CaseIterable {
  case png, jpeg, gif, webp

  /// The most leading bytes any signature needs.
  static let signatureLength = 12

  /// The format whose signature starts `bytes`, or nil (an HTML page, a truncated file).
  package init?(sniffing bytes: some Collection<UInt8>) {
    let head = Array(bytes.prefix(Self.signatureLength))
    func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
    }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if starts([0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
      self = .gif
    } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
      self = .webp
    } else {
      return nil
    }
  }
}
