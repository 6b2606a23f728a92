import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// Cost follows use (issue 36): the built binary maps libcurl — and the OpenSSL, nghttp2 and
/// Kerberos it brings — only when a cover is downloaded over HTTP, and where libcurl cannot
/// be loaded, a download says what to install while everything else works. What the dynamic
/// loader maps is read as in ``AudioLibraryLoadingTests``.
struct HTTPLibraryLoadingTests {
  @Test(arguments: [["-c", "quit"], ["-c", "list"], ["--version"]])
  func aRunThatDownloadsNothingNeverMapsLibcurl(arguments: [String]) throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let (files, result) = try AudioLibraryLoadingTests.mapped(arguments, in: runner)
    #expect(result.status == 0, "\(result.stderr)")
    // The log is read: the libraries every start needs are in it.
    #expect(files.contains { $0.hasPrefix("libsqlite3.so") }, "\(files)")
    #expect(
      !files.contains { $0.contains("libcurl") || $0.contains("libssl") || $0.contains("libnghttp2") }, "\(files)")
  }

  @Test(.timeLimit(.minutes(1)))
  func anHTTPDownloadMapsLibcurl() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    server.route("/a.png", .ok(CoverFixture.png(), delay: CoverFixture.stillRunning))
    try RunsAlone.DownloadTests.prepare(runner, [("A", server.url("/a.png"))])
    let (files, result) = try AudioLibraryLoadingTests.mapped(["-c", "download 1", "-c", "wait"], in: runner)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("cover of \"A\": 70 bytes"), "\(result.stdout)")
    // By a path in the system's library folders (CRuntimeLibrary), not by its soname.
    #expect(
      files.contains {
        $0.hasPrefix("/") && ["libcurl.so.4", "libcurl.so"].contains(($0 as NSString).lastPathComponent)
      }, "\(files)")
  }

  /// Files named as libcurl's that are not libraries (the dynamic loader finds them first,
  /// through `LD_LIBRARY_PATH`) stand for a machine where it cannot be loaded.
  @Test(.timeLimit(.minutes(1)))
  func withoutLibcurlADownloadSaysWhatToInstallAndTheRestWorks() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    server.route("/a.png", .ok(CoverFixture.png()))
    try RunsAlone.DownloadTests.prepare(runner, [("A", server.url("/a.png"))])
    let libraries = try TemporaryDirectory()
    for name in ["libcurl.so.4", "libcurl.so"] {
      #expect(FileManager.default.createFile(atPath: libraries.file(name), contents: Data()))
    }

    let result = try runner.run(
      ["-c", "download 1", "-c", "wait", "-c", "list -f '$title'"], environment: ["LD_LIBRARY_PATH": libraries.path])

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(result.stdout)")
    #expect(lines.first == "downloading 1 cover", "\(result.stdout)")
    let failure = lines.count == 3 ? lines[1] : ""
    #expect(failure.hasPrefix("cover of \"A\" failed: cannot load libcurl ("), "\(failure)")
    #expect(failure.contains("libcurl.so.4"), "\(failure)")
    #expect(failure.hasSuffix("); to download covers, install libcurl (Debian: apt install libcurl4)"), "\(failure)")
    #expect(lines.last == "A", "\(result.stdout)")
    #expect(server.requestCount("/a.png") == 0)
  }

  /// libcurl reads `http_proxy` and the like unless told not to; covers are fetched directly
  /// (docs/covers.md), as they were before libcurl.
  @Test(.timeLimit(.minutes(1)))
  func proxyVariablesAreNotUsed() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    // A proxy that refuses every connection: a download through it would fail.
    let closed = try LoopbackHTTPServer()
    let proxy = "http://127.0.0.1:\(closed.port)"
    closed.stop()
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    server.route("/a.png", .ok(CoverFixture.png(), delay: CoverFixture.stillRunning))
    try RunsAlone.DownloadTests.prepare(runner, [("A", server.url("/a.png"))])

    let result = try runner.run(
      ["-c", "download 1", "-c", "wait"],
      environment: ["http_proxy": proxy, "HTTP_PROXY": proxy, "https_proxy": proxy, "ALL_PROXY": proxy])

    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "downloading 1 cover\ncover of \"A\": 70 bytes\n")
    #expect(server.requestCount("/a.png") == 1)
  }
}
