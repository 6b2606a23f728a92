import ArgumentParser
import BlueLibrary
import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `bluelib` command line: flags only; everything else lives in BlueShell.
struct Bluelib: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bluelib",
    abstract: "An interactive shell for browsing and managing an album library.",
    discussion: """
      On a terminal, bluelib is interactive (line editing, history, completion). With \
      standard input from a pipe or file it runs each line as a command, with no prompt.
      Exit status: 0 when every command succeeded, 1 when any failed or on a usage \
      error, 2 when the library cannot be opened.
      """,
    version: "bluelib \(bluelibVersion)")

  @Option(
    name: .long,
    help: ArgumentHelp("Keep every file (library, state, history, cover cache) under DIR.", valueName: "DIR"),
    completion: .directory)
  var home: String?

  @Option(
    name: .customShort("c"),
    help: ArgumentHelp(
      "Run COMMANDS (separated by ';' or newlines), then exit; several -c run in order.", valueName: "COMMANDS"))
  var commands: [String] = []

  @Option(
    name: .long, help: ArgumentHelp("Run the commands in FILE, then exit.", valueName: "FILE"), completion: .file())
  var script: String?

  @Option(name: .long, help: ArgumentHelp("Cover downloads at once (1-64).", valueName: "N"))
  var downloads = 6

  @Option(
    name: .customLong("download-timeout"),
    help: ArgumentHelp("Seconds before a cover download fails.", valueName: "SECONDS"))
  var downloadTimeout = 15.0

  @Flag(name: .long, help: "Stop at the first failing command (script mode).")
  var bail = false

  @Flag(name: .customLong("no-color"), help: "Print no colour (also NO_COLOR, TERM=dumb).")
  var noColor = false

  @Flag(
    name: .customLong("no-pager"),
    help: "Print output taller than the window as it is, not through $PAGER (also PAGER=).")
  var noPager = false

  func validate() throws {
    if !commands.isEmpty && script != nil {
      throw ValidationError("-c and --script cannot be used together")
    }
    if let home, home.isEmpty { throw ValidationError("--home needs a directory") }
    guard (1...64).contains(downloads) else {
      throw ValidationError("--downloads must be from 1 to 64, got \(downloads)")
    }
    guard downloadTimeout > 0, downloadTimeout <= 3600 else {
      throw ValidationError("--download-timeout must be more than 0 and at most 3600 seconds")
    }
  }

  func run() throws {
    var input = ShellOptions.Input.standardInput
    // Each -c is its own line, so an error names which one (`-c:2: …`).
    if !commands.isEmpty { input = .commands(commands.joined(separator: "\n")) }
    if let script { input = .script(path: script) }
    var options = ShellOptions(
      input: input, home: home, noColor: noColor, bail: bail, environment: processEnvironment())
    options.noPager = noPager
    options.maxDownloads = downloads
    options.downloadTimeout = downloadTimeout
    let status = Shell.run(options)
    if status != 0 { throw ExitCode(status) }
  }
}

/// Parses the command line and runs; usage errors exit 1 (SPEC §1), not ArgumentParser's 64.
@main
enum Entrypoint {
  static func main() {
    do {
      var command = try Bluelib.parseAsRoot()
      try command.run()
    } catch {
      let code = Bluelib.exitCode(for: error)
      if code == .success {
        Bluelib.exit(withError: error)
      }
      if error is ExitCode { exit(code.rawValue) }
      let message = Bluelib.fullMessage(for: error)
      if !message.isEmpty {
        let bytes = Array(("bluelib: " + message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
      }
      exit(code == .validationFailure ? 1 : code.rawValue)
    }
  }
}
