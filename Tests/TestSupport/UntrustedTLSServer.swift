import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An HTTPS server on 127.0.0.1 whose certificate no authority of the system vouches for:
/// a self-signed one `openssl` makes for `127.0.0.1`, served by Python's `http.server`
/// wrapped in TLS (`/usr/bin/python3`). What it serves does not matter: a client that
/// checks certificates never gets that far. Stopped with its process group (``ServerProcess``).
package final class UntrustedTLSServer {
  private let directory: TemporaryDirectory
  private var process: ServerProcess?
  /// The TCP port it listens on.
  package let port: Int

  /// Makes the certificate and starts the server, waiting (up to 20 s) until it accepts
  /// connections.
  package init() throws {
    directory = try TemporaryDirectory()
    port = try MPDFixture.freePort()
    let (key, certificate, script) = (directory.file("key.pem"), directory.file("cert.pem"), directory.file("serve.py"))
    try ServerProcess.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj",
        "/CN=127.0.0.1",
      ], environment: ["PATH=/usr/bin:/bin"], output: directory.file("openssl.log"), name: "openssl", within: 20,
      log: "")
    try """
    import http.server, ssl, sys
    server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), http.server.SimpleHTTPRequestHandler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()

    """.write(toFile: script, atomically: true, encoding: .utf8)
    process = try ServerProcess.started(
      "/usr/bin/python3", [script, String(port), certificate, key], environment: ["PATH=/usr/bin:/bin"],
      output: directory.file("server.log"), name: "the TLS server on port \(port)", within: 20, log: ""
    ) {
      guard let descriptor = try? Loopback.connect(port: port) else { return false }
      close(descriptor)
      return true
    }
  }

  deinit {
    process?.end()
  }
}
