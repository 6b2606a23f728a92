import Foundation

/// A D-Bus session bus of the test's own (Debian `dbus`: `dbus-daemon --session`), and
/// `playerctl` (Debian `playerctl`) asking it about MPRIS players: what a desktop's media
/// keys and player widgets do.
package final class SessionBus {
  /// What `DBUS_SESSION_BUS_ADDRESS` is set to for a program on this bus.
  package let address: String
  private let daemon = Process()

  /// Starts the daemon and reads its address.
  package init() throws {
    daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
    daemon.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
    let output = Pipe()
    daemon.standardOutput = output
    // "Failed to set fd limit" where the limit cannot be raised: harmless.
    daemon.standardError = FileHandle.nullDevice
    try daemon.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let more = output.fileHandleForReading.availableData
      guard !more.isEmpty else { throw FixtureError("dbus-daemon ended without an address") }
      line += more
    }
    address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  deinit { stop() }

  /// Ends the daemon (SIGKILL: the test's threads block SIGTERM, and the daemon inherits
  /// their mask). A test calls it at its end, which keeps the bus until then.
  package func stop() {
    guard daemon.isRunning else { return }
    kill(daemon.processIdentifier, SIGKILL)
    daemon.waitUntilExit()
  }

  /// Runs `playerctl arguments…` on this bus; its exit status and standard output (its
  /// standard error after it when it failed).
  @discardableResult
  package func playerctl(_ arguments: String...) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/playerctl")
    process.arguments = arguments
    process.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = output.fileHandleForReading.readDataToEndOfFile()
    let failure = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let status = process.terminationStatus
    return (status, String(decoding: status == 0 ? text : text + failure, as: UTF8.self))
  }

  /// Asks `condition` every 50 ms until it holds or `timeout` seconds pass; whether it held.
  package static func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if try condition() { return true }
      if Date() >= deadline { return false }
      usleep(50_000)
    }
  }
}
