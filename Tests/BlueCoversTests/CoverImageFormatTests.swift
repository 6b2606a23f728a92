import Foundation
import Testing

@testable import BlueCovers

struct CoverImageFormatTests {
  @Test(
    arguments: [
      ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], CoverImageFormat.png),
      ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16], .jpeg),
      (Array("GIF87a".utf8) + [1, 0], .gif),
      (Array("GIF89a".utf8) + [1, 0], .gif),
      (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
    ] as [([UInt8], CoverImageFormat)])
  func imageSignaturesAreRecognised(bytes: [UInt8], format: CoverImageFormat) {
    #expect(CoverImageFormat(sniffing: bytes) == format)
  }

  @Test(
    arguments: [
      Array("<!DOCTYPE html><html>".utf8),
      [],
      [0x89, 0x50, 0x4E, 0x47],
      Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8),
      Array("GIF90a".utf8),
      [0xFF, 0xD8],
    ] as [[UInt8]])
  func otherBytesAreNotAnImage(bytes: [UInt8]) {
    #expect(CoverImageFormat(sniffing: bytes) == nil)
  }
}
