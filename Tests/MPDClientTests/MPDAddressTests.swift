import MPDClient
import Testing

/// `--mpd`, `MPD_HOST` and `MPD_PORT` read as mpc (libmpdclient's settings.c) reads them.
struct MPDAddressTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var given: String?
    var environment: [String: String]
    var expected: MPDAddress
    var testDescription: String { "\(given ?? "nil") with \(environment)" }
  }

  static let cases: [Case] = [
    Case(given: nil, environment: [:], expected: MPDAddress(endpoint: .tcp(host: "localhost", port: 6600))),
    Case(given: "", environment: [:], expected: MPDAddress(endpoint: .tcp(host: "localhost", port: 6600))),
    Case(
      given: "127.0.0.1:6601", environment: [:], expected: MPDAddress(endpoint: .tcp(host: "127.0.0.1", port: 6601))),
    Case(
      given: "nas", environment: ["MPD_PORT": "6610"], expected: MPDAddress(endpoint: .tcp(host: "nas", port: 6610))),
    Case(
      given: "nas:6620", environment: ["MPD_PORT": "6610"],
      expected: MPDAddress(endpoint: .tcp(host: "nas", port: 6620))
    ),
    Case(
      given: "secret@nas", environment: [:],
      expected: MPDAddress(endpoint: .tcp(host: "nas", port: 6600), password: "secret")),
    Case(
      given: nil, environment: ["MPD_HOST": "se@cret@nas", "MPD_PORT": "6610"],
      expected: MPDAddress(endpoint: .tcp(host: "cret@nas", port: 6610), password: "se")),
    Case(
      given: "box", environment: ["MPD_HOST": "secret@nas"],
      expected: MPDAddress(endpoint: .tcp(host: "box", port: 6600))
    ),
    Case(given: "/run/mpd/socket", environment: [:], expected: MPDAddress(endpoint: .socket("/run/mpd/socket"))),
    Case(given: "@mpd", environment: [:], expected: MPDAddress(endpoint: .socket("@mpd"))),
    Case(given: "pw@@mpd", environment: [:], expected: MPDAddress(endpoint: .socket("@mpd"), password: "pw")),
    Case(given: "[::1]:6601", environment: [:], expected: MPDAddress(endpoint: .tcp(host: "::1", port: 6601))),
    Case(given: "::1", environment: [:], expected: MPDAddress(endpoint: .tcp(host: "::1", port: 6600))),
  ]

  @Test(arguments: cases)
  func readsAsMpcReadsIt(_ example: Case) throws {
    #expect(try MPDAddress.resolve(example.given, environment: example.environment) == example.expected)
  }

  @Test(arguments: [
    ("host:port", [String: String](), "--mpd 'host:port': 'port' is not a port (1-65535)"),
    ("host:70000", [:], "--mpd 'host:70000': '70000' is not a port (1-65535)"),
    ("nas", ["MPD_PORT": "abc"], "MPD_PORT 'abc': not a port (1-65535)"),
    ("[::1", [:], "--mpd '[::1': no ']' after the IPv6 address"),
  ])
  func refusesWhatIsNoAddressInOneLine(_ given: String, _ environment: [String: String], _ message: String) {
    #expect(throws: MPDAddressError.self) { try MPDAddress.resolve(given, environment: environment) }
    do {
      _ = try MPDAddress.resolve(given, environment: environment)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func namesTheServerWithoutItsPasswordAndAsAURLAuthority() throws {
    let tcp = try MPDAddress.resolve("secret@127.0.0.1:6601", environment: [:])
    #expect(tcp.description == "127.0.0.1:6601")
    #expect(tcp.authority == "127.0.0.1:6601")
    let socket = try MPDAddress.resolve("/run/mpd/my socket", environment: [:])
    #expect(socket.authority == "%2Frun%2Fmpd%2Fmy%20socket")
    #expect(try MPDAddress.resolve("[::1]:6601", environment: [:]).description == "[::1]:6601")
  }
}
