import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTPS server on 127.0.0.1 whose certificate no authority of the system vouches for:
/// a self-signed one `openssl` makes for `127.0.0.1`, served by Python's `http.server`
/// wrapped in TLS (`/usr/bin/python3`). What it serves does not matter: a client that
/// checks certificates never gets that far. Stopped with its process group (``Child``).
package final class UntrustedTLSServer {
  private let directory: TemporaryDirectory
  private var process: Child?
  /// The TCP port it listens on.
  package let port: Int

  /// Makes the certificate and starts the server, waiting (up to 20 s) until it accepts
  /// connections.
  package init() throws {
    directory = try TemporaryDirectory()
    port = try MPDFixture.freePort()
    let (key, certificate, script) = (directory.file("key.pem"), directory.file("cert.pem"), directory.file("serve.py"))
    let openssl = try Child(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj",
        "/CN=127.0.0.1",
      ], environment: ["PATH=/usr/bin:/bin"], output: directory.file("openssl.log"))
    let deadline = Date().addingTimeInterval(20)
    while openssl.exitStatus == nil && Date() < deadline { usleep(20_000) }
    guard openssl.exitStatus == 0 else { throw FixtureError("openssl could not make a certificate") }
    try """
    import http.server, ssl, sys
    server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), http.server.SimpleHTTPRequestHandler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()

    """.write(toFile: script, atomically: true, encoding: .utf8)
    let process = try Child(
      "/usr/bin/python3", [script, String(port), certificate, key], environment: ["PATH=/usr/bin:/bin"],
      output: directory.file("server.log"))
    self.process = process
    while Date() < deadline {
      if process.exitStatus != nil { throw FixtureError("the TLS server ended before it listened") }
      if Self.accepts(port) { return }
      usleep(20_000)
    }
    throw FixtureError("the TLS server did not listen on \(port) within 20 s")
  }

  deinit {
    process?.end()
  }

  /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
  private static func accepts(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}
