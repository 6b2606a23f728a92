import Testing

@testable import BlueCovers

struct SHA256Tests {
  // FIPS 180-4 / NIST CSRC example values, plus padding edge lengths around one block.
  @Test(arguments: [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func digestMatchesTheStandardsVectors(message: String, expected: String) {
    #expect(SHA256.hex(message) == expected)
  }

  @Test func digestOfAMillionAsMatchesTheStandard() {
    let digest = SHA256.digest(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
    #expect(SHA256.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func digestIsThirtyTwoBytesForEveryPaddingLength() {
    let lengths = [55, 56, 63, 64, 65, 119, 120]
    let digests = Set(lengths.map { SHA256.hex(String(repeating: "x", count: $0)) })
    #expect(digests.count == lengths.count)
    #expect(digests.allSatisfy { $0.count == 64 })
  }
}
