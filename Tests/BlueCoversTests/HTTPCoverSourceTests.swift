import CCurl
import CoverTestSupport
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

@testable import BlueCovers

extension RunsAlone {
  /// The HTTP source against a real server on 127.0.0.1: redirects, caps, timeouts,
  /// cancellation and broken connections, each with the reason a status line shows.
  @Suite(.serialized)
  struct HTTPCoverSourceTests {
    private let limits = CoverLimits(timeout: .seconds(10), maxBytes: 10 << 20)

    /// What `fetch` gave: the bytes or the failure.
    private func outcome(
      _ source: HTTPCoverSource, _ url: String, limits: CoverLimits? = nil
    ) async -> Result<Data, CoverFailure> {
      do {
        return .success(try await source.fetch(url, limits: limits ?? self.limits))
      } catch {
        return .failure(error)
      }
    }

    private func failure(_ source: HTTPCoverSource, _ url: String, limits: CoverLimits? = nil) async -> CoverFailure? {
      if case .failure(let failure) = await outcome(source, url, limits: limits) { return failure }
      return nil
    }

    /// Waits (up to `seconds`) until `condition` holds; whether it did.
    private func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
      let deadline = ContinuousClock.now + .seconds(seconds)
      while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
      }
      return condition()
    }

    // MARK: - Plain answers

    @Test func okAnswerGivesTheBodyAndNotFoundGivesTheStatus() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/a.png", .ok(fakePNG(1)))
      #expect(try await source.fetch(server.url("/a.png"), limits: limits) == fakePNG(1))
      let missing = await failure(source, server.url("/missing.png"))
      #expect(missing?.description == "HTTP 404")
    }

    @Test func sourceStartsNothingUntilItsFirstFetchAndRefusesAfterShutDown() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/a.png", .ok(fakePNG(1)))
      let source = HTTPCoverSource()
      #expect(!source.hasStarted)
      _ = try await source.fetch(server.url("/a.png"), limits: limits)
      #expect(source.hasStarted)
      source.shutDown()
      source.shutDown()
      #expect(await failure(source, server.url("/a.png")) == .cancelled)
      #expect(server.requestCount("/a.png") == 1)
    }

    @Test func droppingAStartedSourceShutsItsClientDownWithoutATrap() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route("/a.png", .ok(fakePNG(1)))
      var source: HTTPCoverSource? = HTTPCoverSource()
      _ = try await source?.fetch(server.url("/a.png"), limits: limits)
      source = nil
      // The thread stops in the background and closes the connections (AsyncHTTPClient, the
      // stack before libcurl, trapped on a client dropped while running).
      try await Task.sleep(for: .milliseconds(300))
      #expect(await eventually { server.openConnections == 0 })
    }

    // MARK: - Redirects

    @Test func redirectToAFileURLIsRefusedWithTheReason() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/cover.png", .redirect(to: "file:///etc/passwd"))

      let failure = await failure(source, server.url("/cover.png"))

      #expect(failure == .redirectRefused("file:///etc/passwd", reason: "only http and https"))
      #expect(failure?.description == "redirect to file:///etc/passwd refused (only http and https)")
    }

    @Test(arguments: ["ftp://127.0.0.1/cover.png", "gopher://x/y", "data:image/png;base64,iVBORw0KGgo="])
    func redirectToAnyOtherSchemeIsRefused(location: String) async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/cover.png", .redirect(to: location, status: 301))
      #expect(
        await failure(source, server.url("/cover.png")) == .redirectRefused(location, reason: "only http and https"))
    }

    @Test func redirectsWithinTheLimitAreFollowedRelativeOrAbsolute() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      // Five hops, every redirect status, absolute and relative locations.
      server.route("/0", .redirect(to: server.url("/1"), status: 301))
      server.route("/1", .redirect(to: "/2", status: 302))
      server.route("/2", .redirect(to: "3", status: 303))
      server.route("/3", .redirect(to: "//127.0.0.1:\(server.port)/4", status: 307))
      server.route("/4", .redirect(to: "/cover.png?size=large", status: 308))
      server.route("/cover.png", .ok(fakePNG(5)))

      #expect(try await source.fetch(server.url("/0"), limits: limits) == fakePNG(5))
      for path in ["/0", "/1", "/2", "/3", "/4", "/cover.png"] {
        #expect(server.requestCount(path) == 1, "\(path)")
      }
    }

    @Test func redirectChainOverTheLimitFailsWithoutFetchingTheEnd() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      for hop in 0..<6 { server.route("/\(hop)", .redirect(to: "/\(hop + 1)")) }
      server.route("/6", .ok(fakePNG(6)))

      let failure = await failure(source, server.url("/0"))

      #expect(failure == .tooManyRedirects(max: 5))
      #expect(failure?.description == "too many redirects (more than 5)")
      #expect(server.requestCount("/5") == 1)
      #expect(server.requestCount("/6") == 0)
    }

    @Test func redirectLoopEndsAtTheLimit() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/loop.png", .redirect(to: "/loop.png"))
      #expect(await failure(source, server.url("/loop.png")) == .tooManyRedirects(max: 5))
      #expect(server.requestCount("/loop.png") == 6)
    }

    @Test func redirectFromHTTPSToHTTPIsRefusedAndUpgradesAreAllowed() throws {
      let secure = try #require(HTTPTarget("https://covers.example/a.png"))
      #expect(throws: CoverFailure.redirectRefused("http://covers.example/a.png", reason: "https may not lead to http"))
      {
        try secure.redirected(to: "http://covers.example/a.png")
      }
      let plain = try #require(HTTPTarget("http://covers.example/a.png"))
      let upgraded = try plain.redirected(to: "https://covers.example:8443/b.png")
      #expect(upgraded.scheme == "https" && upgraded.host == "covers.example" && upgraded.port == 8443)
      #expect(try plain.redirected(to: "../c.png?x=1").url.absoluteString == "http://covers.example/c.png?x=1")
    }

    @Test func redirectWithoutALocationIsItsStatus() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/moved.png", .status(302))
      #expect(await failure(source, server.url("/moved.png"))?.description == "HTTP 302")
    }

    // MARK: - The size cap

    @Test func endlessBodyStopsAtTheCapQuicklyAndTheConnectionIsClosed() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/endless.png", .endless)
      let small = CoverLimits(timeout: .seconds(20), maxBytes: 1 << 20)

      let start = ContinuousClock.now
      let failure = await failure(source, server.url("/endless.png"), limits: small)
      let elapsed = ContinuousClock.now - start

      #expect(failure == .tooLarge(maxBytes: 1 << 20))
      // At about 32 MiB/s, 1 MiB takes a few hundredths of a second; a reader that did not
      // stop would run into the 20 s timeout.
      #expect(elapsed < .seconds(8), "took \(elapsed)")
      // We hung up: the server's writes fail and its connection closes.
      #expect(await eventually { server.openConnections == 0 }, "the connection is still open")
      let sent = server.bytesSent("/endless.png")
      try await Task.sleep(for: .milliseconds(300))
      #expect(server.bytesSent("/endless.png") == sent)
      #expect(sent < 64 << 20, "the server wrote \(sent) bytes")
    }

    @Test func declaredLengthOverTheCapFailsBeforeTheBody() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/huge.png", .mebibytes(200, declared: true))

      let failure = await failure(source, server.url("/huge.png"))

      #expect(failure?.description == "larger than 10 MiB")
      #expect(await eventually { server.openConnections == 0 })
      #expect(server.bytesSent("/huge.png") < 100 << 20)
    }

    @Test func gzipBodyIsTakenAsSentNotInflatedPastTheCap() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      // 20 MiB of zeros in about 20 KiB: inflated, it would be twenty times the cap.
      let bomb = try gzip(Data(count: 20 << 20))
      #expect(bomb.count < 64 << 10)
      server.route(
        "/bomb.png", .init(headers: ["Content-Type": "image/png", "Content-Encoding": "gzip"], body: .bytes(bomb)))
      let small = CoverLimits(timeout: .seconds(10), maxBytes: 1 << 20)

      let fetched = try await source.fetch(server.url("/bomb.png"), limits: small)

      #expect(fetched == bomb)
      // And the loader does not take it for a cover.
      #expect(CoverImageFormat(sniffing: fetched) == nil)
    }

    // MARK: - Time, cancellation, broken connections

    @Test func slowBodyTimesOutAsAWholeNotPerPacket() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      // A byte every 0.1 s: never a long gap, but 7 s for the whole cover.
      server.route("/slow.png", .init(body: .trickle(fakePNG(1, size: 70), interval: 0.1)))
      let short = CoverLimits(timeout: .seconds(1), maxBytes: 10 << 20)

      let start = ContinuousClock.now
      let failure = await failure(source, server.url("/slow.png"), limits: short)
      let elapsed = ContinuousClock.now - start

      #expect(failure?.description == "timed out after 1 s")
      #expect(elapsed >= .seconds(0.9) && elapsed < .seconds(5), "took \(elapsed)")
      #expect(server.bytesSent("/slow.png") > 0, "the body had started")
      #expect(await eventually { server.openConnections == 0 })
    }

    @Test func cancellingMidBodyEndsTheFetchPromptlyAndClosesTheConnection() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/slow.png", .init(body: .trickle(fakePNG(1, size: 500), interval: 0.05)))
      let url = server.url("/slow.png")
      let limits = limits

      let task = Task { () async -> Result<Data, CoverFailure> in
        do throws(CoverFailure) {
          return .success(try await source.fetch(url, limits: limits))
        } catch {
          return .failure(error)
        }
      }
      #expect(await eventually { server.bytesSent("/slow.png") >= 5 }, "the body never started")
      let start = ContinuousClock.now
      task.cancel()
      let result = await task.value
      let elapsed = ContinuousClock.now - start

      guard case .failure(let failure) = result else {
        Issue.record("a cancelled fetch gave \(result)")
        return
      }
      #expect(failure == .cancelled)
      #expect(elapsed < .seconds(3), "took \(elapsed)")
      #expect(await eventually { server.openConnections == 0 }, "the connection is still open")
      #expect(server.bytesSent("/slow.png") < 500)
    }

    @Test func connectionDroppedMidBodyIsNamed() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/cut.png", .init(body: .cutShort(fakePNG(1, size: 100), declared: 5000)))

      let failure = await failure(source, server.url("/cut.png"))

      #expect(failure == .connectionClosed(host: "127.0.0.1", port: server.port))
      #expect(
        failure?.description == "connection closed by 127.0.0.1:\(server.port) before the answer was complete")
    }

    @Test func refusedConnectionNamesHostAndPortAtOnce() async throws {
      let server = try LoopbackHTTPServer()
      let port = server.port
      server.stop()
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let start = ContinuousClock.now
      let failure = await failure(source, "http://127.0.0.1:\(port)/x.png")

      #expect(failure?.description == "cannot connect to 127.0.0.1:\(port)")
      #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func unresolvableHostIsNamed() async throws {
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      let failure = await failure(source, "http://bluelib-no-such-host.invalid/x.png")
      #expect(failure?.description == "could not resolve host bluelib-no-such-host.invalid")
    }

    @Test func tlsToAPlainHTTPServerNamesTheHost() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "https://127.0.0.1:\(server.port)/x.png")

      guard case .tlsFailure(let host, _) = failure else {
        Issue.record("expected a TLS failure, got \(String(describing: failure))")
        return
      }
      #expect(host == "127.0.0.1")
      #expect(failure?.description.hasPrefix("TLS handshake with 127.0.0.1 failed") == true, "\(failure!)")
    }

    @Test(arguments: ["http://", "http:///x.png", "ftp://x/y.png"])
    func malformedOrForeignURLsAreUnsupported(url: String) async {
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      #expect(await failure(source, url) == .unsupportedURL(url))
      #expect(!source.hasStarted)
    }

    @Test(arguments: ["http://127.0.0.1:65536/x.png", "https://[::1]:99999/x.png", "http://127.0.0.1:0/x.png"])
    func portOutsideSixteenBitsIsABadURLNotATrap(url: String) async {
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      let failure = await failure(source, url)
      let port = url.split(separator: ":").last!.split(separator: "/").first!
      #expect(failure == .badURL(url, reason: "port \(port) is out of range"))
      #expect(failure?.description == "bad URL \(url) (port \(port) is out of range)")
    }

    @Test func redirectToAPortOutsideSixteenBitsIsRefusedNotATrap() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/a.png", .redirect(to: "http://127.0.0.1:99999/x"))

      let failure = await failure(source, server.url("/a.png"))

      #expect(failure == .redirectRefused("http://127.0.0.1:99999/x", reason: "port 99999 is out of range"))
    }

    @Test func httpsServerThatNeverAnswersTheHandshakeTimesOutOnTimeAndLetsGo() async throws {
      // A socket that listens and never accepts: the kernel completes the TCP handshake,
      // and the TLS hello waits for an answer that never comes (a tarpit, a firewall).
      let (listener, port) = try listeningSocket()
      defer { close(listener) }
      let source = HTTPCoverSource()
      let short = CoverLimits(timeout: .seconds(1), maxBytes: 10 << 20)

      let start = ContinuousClock.now
      let failure = await failure(source, "https://127.0.0.1:\(port)/x.png", limits: short)
      let took = ContinuousClock.now - start
      source.shutDown()
      let leaving = ContinuousClock.now - start - took

      #expect(failure == .timedOut(seconds: 1))
      #expect(took < .seconds(3), "the 1 s timeout took \(took)")
      #expect(leaving < .seconds(3), "shutting down took \(leaving)")
    }

    @Test func anAnswerOtherThanTwoHundredIsReadToItsHeadOnly() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      server.route("/gone.png", .init(status: 404, body: .endless))

      let start = ContinuousClock.now
      let failure = await failure(source, server.url("/gone.png"))
      let elapsed = ContinuousClock.now - start

      // Its body is not read, not even up to the cap: the connection is closed at the head.
      #expect(failure == .httpStatus(404))
      #expect(elapsed < .seconds(5), "took \(elapsed)")
      #expect(await eventually { server.openConnections == 0 }, "the connection is still open")
      #expect(server.bytesSent("/gone.png") < 8 << 20, "the server wrote \(server.bytesSent("/gone.png")) bytes")
    }

    @Test func shuttingDownEndsTheFetchesInFlightAndClosesTheirConnections() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      server.route("/slow.png", .init(body: .trickle(fakePNG(1, size: 500), interval: 0.05)))
      let url = server.url("/slow.png")
      let limits = limits

      let task = Task { () async -> CoverFailure? in
        do throws(CoverFailure) {
          _ = try await source.fetch(url, limits: limits)
          return nil
        } catch {
          return error
        }
      }
      #expect(await eventually { server.bytesSent("/slow.png") >= 5 }, "the body never started")
      let start = ContinuousClock.now
      source.shutDown()
      let failure = await task.value

      #expect(failure == .cancelled)
      #expect(ContinuousClock.now - start < .seconds(3))
      #expect(await eventually { server.openConnections == 0 }, "the connection is still open")
    }

    @Test func aServerThatDoesNotSpeakHTTPIsNamed() async throws {
      let server = try RawServer { connection in
        var request = [UInt8](repeating: 0, count: 4096)
        _ = read(connection, &request, request.count)
        _ = "SSH-2.0-OpenSSH_9.2\r\n".withCString { write(connection, $0, strlen($0)) }
      }
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "http://127.0.0.1:\(server.port)/x.png")

      #expect(failure?.description == "download failed: 127.0.0.1:\(server.port) did not answer in HTTP")
    }

    // MARK: - libcurl's own refusals (H16)

    /// Headers without end: libcurl stops at its limit and says so; the server did not
    /// close anything.
    @Test func endlessHeadersAreToldAsHeadersTooLarge() async throws {
      let server = try RawServer { connection in
        var request = [UInt8](repeating: 0, count: 4096)
        _ = read(connection, &request, request.count)
        var head = "HTTP/1.1 200 OK\r\n"
        for line in 0..<20_000 { head += "X-Filler-\(line): " + String(repeating: "a", count: 100) + "\r\n" }
        _ = head.withCString { write(connection, $0, strlen($0)) }
      }
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "http://127.0.0.1:\(server.port)/x.png")

      #expect(failure?.description == "the answer's headers from 127.0.0.1:\(server.port) are larger than 300 KiB")
    }

    /// A chunk size that is not hexadecimal, and one too long for any size: the answer's
    /// encoding is named, not a connection closed.
    @Test(arguments: ["ZZZZ", "123456789abcdef012"])
    func aBadChunkSizeIsToldAsBadChunkedEncoding(size: String) async throws {
      let server = try RawServer { connection in
        var request = [UInt8](repeating: 0, count: 4096)
        _ = read(connection, &request, request.count)
        let answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n"
        _ = answer.withCString { write(connection, $0, strlen($0)) }
        usleep(500_000)
      }
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "http://127.0.0.1:\(server.port)/x.png")

      let text = failure?.description ?? ""
      #expect(text.hasPrefix("bad chunked encoding from 127.0.0.1:\(server.port)"), "\(text)")
    }

    /// A `Location` a server sends is quoted in the failure with its control characters
    /// escaped, whoever prints it.
    @Test func aRedirectsLocationIsQuotedEscaped() async throws {
      let server = try RawServer { connection in
        var request = [UInt8](repeating: 0, count: 4096)
        _ = read(connection, &request, request.count)
        let answer =
          "HTTP/1.1 302 Found\r\nLocation: http://[\u{1B}]0;PWNED\u{07}\u{1B}[2J\r\nContent-Length: 0\r\n\r\n"
        _ = answer.withCString { write(connection, $0, strlen($0)) }
        usleep(500_000)
      }
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "http://127.0.0.1:\(server.port)/x.png")

      let text = failure?.description ?? ""
      #expect(text.contains(#"\e]0;PWNED\x07\e[2J"#), "\(text)")
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "\(text)")
    }

    @Test(arguments: [
      (
        CURLE_RECV_ERROR, "Too large response headers: 307264 > 307200",
        "the answer's headers from h:80 are larger than 300 KiB"
      ),
      (
        CURLcode(rawValue: 100), "Too large response headers: 307264 > 307200",
        "the answer's headers from h:80 are larger than 300 KiB"
      ),
      (
        CURLE_RECV_ERROR, "Illegal or missing hexadecimal sequence in chunked-encoding",
        "bad chunked encoding from h:80 (illegal or missing hexadecimal sequence in chunked-encoding)"
      ),
      (
        CURLE_RECV_ERROR, "Too long hexadecimal number in chunked-encoding",
        "bad chunked encoding from h:80 (too long hexadecimal number in chunked-encoding)"
      ),
      (
        CURLE_RECV_ERROR, "invalid chunk size: '\u{1B}[2J'",
        #"bad chunked encoding from h:80 (invalid chunk size: '\e[2J')"#
      ),
      (
        CURLE_WEIRD_SERVER_REPLY, "Unsupported HTTP version in response", "download failed: h:80 did not answer in HTTP"
      ),
    ])
    func libcurlsRefusalsSayWhatLibcurlSaid(code: CURLcode, message: String, text: String) {
      let target = HTTPTarget("http://h/a.png")!
      let failure = HTTPCoverSource.failure(
        for: .failed(code, osError: 0, message: message), at: target, limits: limits)
      #expect(failure.description == text)
    }

    @Test func aTLSServerThatHangsUpInTheHandshakeIsNamed() async throws {
      // It reads the client's hello, then hangs up.
      let server = try RawServer { connection in
        var hello = [UInt8](repeating: 0, count: 4096)
        _ = read(connection, &hello, hello.count)
      }
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "https://127.0.0.1:\(server.port)/x.png")

      #expect(failure == .tlsFailure(host: "127.0.0.1", reason: "the server hung up"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs openssl"))
    func aCertificateSignedByNoKnownAuthorityIsNotTrusted() async throws {
      let directory = try TemporaryDirectory()
      let (key, certificate) = (directory.file("key.pem"), directory.file("cert.pem"))
      #expect(
        try runTool(
          "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
          key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1")
          == 0)
      // `openssl s_server` on a port of its choosing, which it prints (`ACCEPT 127.0.0.1:PORT`).
      let server = Process()
      server.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
      server.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate, "-key", key, "-www"]
      let output = Pipe()
      server.standardOutput = output
      server.standardError = FileHandle.nullDevice
      try server.run()
      defer {
        // SIGKILL: the test runner's threads block SIGTERM, and its child inherits the mask.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
      }
      var printed = ""
      while !printed.contains("\n") || !printed.contains("ACCEPT") {
        let data = output.fileHandleForReading.availableData
        if data.isEmpty { break }
        printed += String(decoding: data, as: UTF8.self)
      }
      let line = try #require(printed.split(separator: "\n").first { $0.hasPrefix("ACCEPT") })
      let port = try #require(line.split(separator: ":").last.flatMap { Int($0) })
      let source = HTTPCoverSource()
      defer { source.shutDown() }

      let failure = await failure(source, "https://127.0.0.1:\(port)/x.png")

      #expect(failure == .tlsFailure(host: "127.0.0.1", reason: "certificate not trusted"))
      #expect(failure?.description == "TLS handshake with 127.0.0.1 failed: certificate not trusted")
    }

    // MARK: - libcurl's failures as status lines

    /// libcurl's texts (OpenSSL's words in them), as libcurl 7.88 with OpenSSL 3 writes them.
    @Test(arguments: [
      ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", "the server does not speak TLS"),
      ("SSL certificate problem: self-signed certificate", "certificate not trusted"),
      ("SSL certificate problem: unable to get local issuer certificate", "certificate not trusted"),
      ("SSL certificate problem: certificate has expired", "certificate not trusted"),
      (
        "SSL: no alternative certificate subject name matches target host name 'covers.example'",
        "the certificate is not for covers.example"
      ),
      (
        "SSL: certificate subject name 'other.example' does not match target host name 'covers.example'",
        "the certificate is not for covers.example"
      ),
      ("OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to covers.example:443", "the server hung up"),
    ])
    func tlsFailuresGiveTheirShortReason(message: String, reason: String) {
      #expect(HTTPCoverSource.tlsReason(message, host: "covers.example") == reason)
      let target = HTTPTarget("https://covers.example/a.png")!
      for code in [CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION] {
        #expect(
          HTTPCoverSource.failure(for: .failed(code, osError: 0, message: message), at: target, limits: limits)
            == .tlsFailure(host: "covers.example", reason: reason))
      }
    }

    @Test func anUnknownTLSFailureSaysNoReason() {
      #expect(
        HTTPCoverSource.tlsReason("OpenSSL: error:0A000410:SSL routines::sslv3 alert handshake failure", host: "x")
          == nil)
    }

    @Test(arguments: [
      (CURLE_COULDNT_CONNECT, ECONNREFUSED, "cannot connect to covers.example:8080"),
      (CURLE_COULDNT_CONNECT, 0, "cannot connect to covers.example:8080"),
      (CURLE_COULDNT_CONNECT, ENETUNREACH, "download failed: cannot connect to covers.example:8080: no route to host"),
      (CURLE_COULDNT_CONNECT, EHOSTUNREACH, "download failed: cannot connect to covers.example:8080: no route to host"),
      (CURLE_COULDNT_CONNECT, ETIMEDOUT, "timed out after 10 s"),
      (CURLE_OPERATION_TIMEDOUT, 0, "timed out after 10 s"),
      (CURLE_COULDNT_RESOLVE_HOST, 0, "could not resolve host covers.example"),
      (CURLE_PARTIAL_FILE, 0, "connection closed by covers.example:8080 before the answer was complete"),
      (CURLE_RECV_ERROR, ECONNRESET, "connection closed by covers.example:8080 before the answer was complete"),
      (CURLE_GOT_NOTHING, 0, "connection closed by covers.example:8080 before the answer was complete"),
      (CURLE_WEIRD_SERVER_REPLY, 0, "download failed: covers.example:8080 did not answer in HTTP"),
      (CURLE_UNSUPPORTED_PROTOCOL, 0, "download failed: covers.example:8080 did not answer in HTTP"),
      (CURLE_OUT_OF_MEMORY, 0, "download failed: covers.example:8080: libcurl's text"),
    ])
    func libcurlFailuresReadAsBefore(code: CURLcode, osError: Int32, text: String) {
      let target = HTTPTarget("http://covers.example:8080/a.png")!
      let failure = HTTPCoverSource.failure(
        for: .failed(code, osError: osError, message: "libcurl's text"), at: target, limits: limits)
      #expect(failure.description == text)
    }

    // MARK: - Many at once

    @Test func sixtyFourFetchesRunAtOnceOnOneHost() async throws {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let source = HTTPCoverSource()
      defer { source.shutDown() }
      for index in 0..<64 { server.route("/c\(index).png", .ok(fakePNG(index), delay: 1.5)) }
      let limits = CoverLimits(timeout: .seconds(30), maxBytes: 1 << 20)
      let urls = (0..<64).map { server.url("/c\($0).png") }

      let fetched = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
        for (index, url) in urls.enumerated() {
          group.addTask { (index, try await source.fetch(url, limits: limits)) }
        }
        var fetched: [Int: Data] = [:]
        for try await (index, data) in group { fetched[index] = data }
        return fetched
      }

      #expect(fetched.count == 64)
      #expect(fetched[63] == fakePNG(63))
      // A pool capped at 8 per host would never have had more than 8 open together.
      #expect(server.peakConnections == 64)
    }
  }
}

/// `data` compressed by the `gzip` program.
private func gzip(_ data: Data) throws -> Data {
  let directory = try TemporaryDirectory()
  let file = directory.file("zeros")
  try data.write(to: URL(fileURLWithPath: file))
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["gzip", "-c", "-9", file]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let compressed = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return compressed
}

/// The status of `tool arguments…` (found on PATH), its output dropped.
private func runTool(_ tool: String, _ arguments: String...) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [tool] + arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

/// A TCP socket listening on 127.0.0.1, on a port of the kernel's choosing, and that port.
private func listeningSocket() throws -> (socket: Int32, port: Int) {
  let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
      bind(listener, pointer, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, pointer, &length) == 0
    }
  }
  guard listener >= 0, bound else {
    if listener >= 0 { close(listener) }
    throw CocoaError(.fileReadUnknown)
  }
  return (listener, Int(UInt16(bigEndian: address.sin_port)))
}

/// A TCP server on 127.0.0.1 that is no HTTP server: each connection it accepts is given to
/// `serve` on a thread of its own, then closed. Stops on deinit.
private final class RawServer: Sendable {
  let port: Int
  private let listener: Int32

  init(_ serve: @escaping @Sendable (Int32) -> Void) throws {
    let (listener, port) = try listeningSocket()
    self.listener = listener
    self.port = port
    Thread {
      while true {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        Thread {
          serve(connection)
          close(connection)
        }.start()
      }
    }.start()
  }

  deinit {
    // Wakes the accepting thread, which then ends.
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }
}
