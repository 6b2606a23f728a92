import Testing

@testable import SubsonicClient

struct SubsonicAddressTests {
  @Test func aURLGivesTheUserOriginAndPath() throws {
    let address = try SubsonicAddress("https://admin@Music.Example.org:8443/navidrome/")
    #expect(address.user == "admin")
    #expect(address.host == "music.example.org")
    #expect(address.port == 8443)
    #expect(address.path == "/navidrome")
    #expect(address.origin == "https://music.example.org:8443")
    #expect(address.base == "https://music.example.org:8443/navidrome")
    #expect(address.authority == "admin@music.example.org:8443/navidrome")
    let plain = try SubsonicAddress("https://me@example.org")
    #expect(plain.port == 443 && plain.path.isEmpty)
    let local = try SubsonicAddress("http://admin@127.0.0.1:4533")
    #expect(local.origin == "http://127.0.0.1:4533")
    let six = try SubsonicAddress("https://a@[::1]:4040")
    #expect(six.host == "::1" && six.origin == "https://[::1]:4040")
  }

  @Test(arguments: [
    ("music.example.org", "not a URL (https://USER@HOST[:PORT][/PATH])"),
    ("ftp://a@example.org", "only https (or http on this machine)"),
    ("http://a@example.org", "http only for this machine (127.0.0.1, localhost): https anywhere else"),
    (
      "https://a:secret@example.org",
      "the password goes in BLUELIB_SUBSONIC_PASSWORD (or is asked for), never in the URL"
    ),
    ("https://a@example.org:0", "'0' is not a port (1-65535)"),
    ("https://a@example.org:99999", "'99999' is not a port (1-65535)"),
    ("https://a@example.org/x?u=b", "no query or fragment"),
    ("https://a@", "no host"),
    ("https://a b@example.org", "no blanks or control characters"),
  ])
  func aURLThatIsNoServersAddressIsRefusedNamingWhy(_ text: String, _ reason: String) {
    #expect(throws: SubsonicAddressError(value: text, reason: reason)) { try SubsonicAddress(text) }
  }

  @Test func theLibraryFileIsNamedAfterTheServerAndUser() throws {
    let server = SubsonicServer(address: try SubsonicAddress("https://admin@music.example.org/sub/dir"), password: "x")
    #expect(server.libraryName == "subsonic-admin@music.example.org:443%2Fsub%2Fdir")
    #expect(server.root == "subsonic://admin@music.example.org:443/sub/dir")
    #expect(server.name == "Subsonic at admin@music.example.org:443/sub/dir")
  }
}

struct MD5Tests {
  /// RFC 1321's test suite, and a token as the Subsonic documentation computes one.
  @Test(arguments: [
    ("", "d41d8cd98f00b204e9800998ecf8427e"),
    ("a", "0cc175b9c0f1b6a831c399e269772661"),
    ("abc", "900150983cd24fb0d6963f7d28e17f72"),
    ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
    (
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
      "57edf4a22be3c955ac49da2e2107b67a"
    ),
    ("sesamec19b2d", "26719a1196d2a940705a59634eb18eab"),
  ])
  func theDigestIsRFC1321s(_ text: String, _ hex: String) {
    #expect(MD5.hex(text) == hex)
  }
}
