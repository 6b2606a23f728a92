import Testing

@testable import BlueCovers

struct CoverFailureTests {
  @Test(arguments: [
    (CoverFailure.httpStatus(404), "HTTP 404"),
    (.httpStatus(503), "HTTP 503"),
    (.unresolvableHost("covers.example.invalid"), "could not resolve host covers.example.invalid"),
    (.timedOut(seconds: 15), "timed out after 15 s"),
    (.timedOut(seconds: 1), "timed out after 1 s"),
    (.timedOut(seconds: 0.5), "timed out after 0.5 s"),
    (.notAnImage, "not an image"),
    (.tooLarge(maxBytes: 10 << 20), "larger than 10 MiB"),
    (.tooLarge(maxBytes: 512 << 10), "larger than 512 KiB"),
    (.tooLarge(maxBytes: 1000), "larger than 1000 bytes"),
    (.connectionRefused(host: "127.0.0.1", port: 8080), "cannot connect to 127.0.0.1:8080"),
    (
      .connectionClosed(host: "127.0.0.1", port: 8080),
      "connection closed by 127.0.0.1:8080 before the answer was complete"
    ),
    (
      .tlsFailure(host: "covers.example", reason: "certificate not trusted"),
      "TLS handshake with covers.example failed: certificate not trusted"
    ),
    (.tlsFailure(host: "covers.example", reason: nil), "TLS handshake with covers.example failed"),
    (
      .redirectRefused("file:///etc/passwd", reason: "only http and https"),
      "redirect to file:///etc/passwd refused (only http and https)"
    ),
    (.tooManyRedirects(max: 5), "too many redirects (more than 5)"),
    (.noSuchFile("/tmp/missing.png"), "no such file /tmp/missing.png"),
    (.unsupportedURL("gopher://x/y"), "unsupported URL gopher://x/y"),
    (.cancelled, "cancelled"),
    (.downloadFailed("connection lost"), "download failed: connection lost"),
    (
      .httpUnavailable("cannot load libcurl (libcurl.so.4: file too short)"),
      "cannot load libcurl (libcurl.so.4: file too short); to download covers, install libcurl (Debian: apt install "
        + "libcurl4)"
    ),
    (
      .headersTooLarge(host: "127.0.0.1", port: 8080, limit: 300 << 10),
      "the answer's headers from 127.0.0.1:8080 are larger than 300 KiB"
    ),
    (
      .headersTooLarge(host: "127.0.0.1", port: 8080, limit: nil),
      "the answer's headers from 127.0.0.1:8080 are larger than libcurl takes"
    ),
    (
      .badChunkedEncoding(host: "127.0.0.1", port: 8080, detail: "too long hexadecimal number in chunked-encoding"),
      "bad chunked encoding from 127.0.0.1:8080 (too long hexadecimal number in chunked-encoding)"
    ),
    // What a server or a file said is quoted escaped, whoever prints it (issue 46, item 2).
    (
      .redirectRefused("http://[\u{1B}]0;PWNED\u{07}\u{9B}2J", reason: "not a URL"),
      #"redirect to http://[\e]0;PWNED\x07\u{9b}2J refused (not a URL)"#
    ),
    (
      .noneOnServer(server: "MPD at h:6600", song: "a/\u{1B}[2J.flac"),
      #"none on MPD at h:6600 (no picture in \e[2J.flac, no cover file in its folder)"#
    ),
    // A local cover was never downloaded: its failure does not say so (round 3, F27).
    (.unreadableFile("permission denied /music/A/cover.jpg"), "permission denied /music/A/cover.jpg"),
  ])
  func failureReadsAsTheStatusLineReason(failure: CoverFailure, text: String) {
    #expect(failure.description == text)
  }

  @Test func limitsNameTheirOwnFailures() {
    let limits = CoverLimits(timeout: .seconds(15), maxBytes: 10 << 20)
    #expect(limits.timedOut.description == "timed out after 15 s")
    #expect(limits.tooLarge.description == "larger than 10 MiB")
    #expect(CoverLimits(timeout: .milliseconds(1500), maxBytes: 1).timeoutSeconds == 1.5)
  }
}
