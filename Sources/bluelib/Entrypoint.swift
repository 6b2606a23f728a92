import ArgumentParser
import BlueLibrary
import BluePlayback
import BlueShell
import BlueSystem
import FoundationEssentials
import MPDClient
import MPVAudio
import SubsonicClient

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

  @Option(
    name: .long,
    help: ArgumentHelp(
      "How covers are drawn: in pixels (kitty, sixel, iterm), half blocks, none, or auto: ask the terminal (also BLUELIB_GRAPHICS).",
      valueName: "MODE"))
  var graphics: GraphicsSetting?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Browse and play the albums of the MPD server at HOST[:PORT] or SOCKET, PASSWORD@ in front (alone: MPD_HOST and MPD_PORT, else localhost:6600).",
      valueName: "HOST[:PORT]|SOCKET"))
  var mpd: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Browse, play, star and rate the albums of the Subsonic or OpenSubsonic server at URL (https://USER@HOST[:PORT][/PATH]; http on this machine only); the password from BLUELIB_SUBSONIC_PASSWORD, else asked for, or an API key from BLUELIB_SUBSONIC_API_KEY.",
      valueName: "URL"))
  var subsonic: String?

  @Flag(name: .long, help: "Stop at the first failing command (script mode).")
  var bail = false

  @Flag(name: .customLong("no-color"), help: "Print no colour (also NO_COLOR, TERM=dumb).")
  var noColor = false

  @Flag(
    name: .customLong("no-pager"),
    help: "Print output taller than the window as it is, not through $PAGER (also PAGER=).")
  var noPager = false

  /// `bash .ci/run install` installs what this prints as bluelib(1).
  @Flag(
    name: .customLong("man-page"), help: ArgumentHelp("Print the man page, bluelib(1), in roff.", visibility: .hidden))
  var manPage = false

  /// The settings these flags give.
  var invocation: Invocation {
    Invocation(
      home: home, commands: commands, script: script, downloads: downloads, downloadTimeout: downloadTimeout,
      graphics: graphics, mpd: mpd, subsonic: subsonic, bail: bail, noColor: noColor, noPager: noPager)
  }

  func validate() throws {
    if let problem = invocation.problem { throw ValidationError(problem) }
  }

  func run() throws {
    if manPage {
      print(Self.manualPage(), terminator: "")
      return
    }
    let status = invocation.run()
    if status != 0 { throw ExitCode(status) }
  }
}

extension Bluelib {
  /// bluelib(1): the verbs from the shell's command table (``ManualPage``), the flags from
  /// this parser's own definitions, read from the description of them it writes as JSON
  /// (the one swift-argument-parser's generate-manual reads).
  static func manualPage() -> String {
    struct Tool: Decodable {
      struct Command: Decodable {
        var abstract: String?
        var arguments: [Argument]?
      }
      struct Argument: Decodable {
        struct Name: Decodable {
          var kind: String
          var name: String
        }
        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var defaultValue: String?
        var isRepeating: Bool
        var shouldDisplay: Bool
      }
      var command: Command
    }
    guard let tool = try? JSONDecoder().decode(Tool.self, from: Data(_dumpHelp().utf8)) else {
      preconditionFailure("the argument parser's description of bluelib does not decode")
    }
    let options = (tool.command.arguments ?? []).filter(\.shouldDisplay).map { argument in
      ManualPage.Option(
        names: (argument.names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name },
        value: argument.kind == "option" ? argument.valueName.map { $0.uppercased() } : nil,
        help: argument.abstract ?? "", defaultValue: argument.defaultValue, repeats: argument.isRepeating)
    }
    return ManualPage.text(abstract: tool.command.abstract ?? "", options: options)
  }
}

/// What an invocation asks for, apart from ArgumentParser: ``Bluelib`` makes one from the
/// flags it parsed, and an ordinary command line is read into one without it
/// (``init(readingWithoutReflection:)``), so that `-c quit` pays for no flag declarations.
struct Invocation {
  var home: String?
  var commands: [String] = []
  var script: String?
  var downloads = 6
  var downloadTimeout = 15.0
  var graphics: GraphicsSetting?
  /// The MPD server to browse and play (`--mpd`; empty: the environment's), or nil.
  var mpd: String?
  /// The Subsonic server to browse and play (`--subsonic URL`), or nil.
  var subsonic: String?
  var bail = false
  var noColor = false
  var noPager = false

  /// Why these flags cannot go together (ArgumentParser says it as a usage error), or nil.
  var problem: String? {
    if !commands.isEmpty && script != nil { return "-c and --script cannot be used together" }
    if let home, home.isEmpty { return "--home needs a directory" }
    guard (1...64).contains(downloads) else { return "--downloads must be from 1 to 64, got \(downloads)" }
    guard downloadTimeout > 0, downloadTimeout <= 3600 else {
      return "--download-timeout must be more than 0 and at most 3600 seconds"
    }
    if let mpd {
      do {
        _ = try MPDAddress.resolve(mpd, environment: processEnvironment())
      } catch {
        return error.description
      }
    }
    if let subsonic {
      if mpd != nil { return "--mpd and --subsonic cannot be used together" }
      do {
        let address = try SubsonicAddress(subsonic)
        if address.user == nil, (processEnvironment()["BLUELIB_SUBSONIC_API_KEY"] ?? "").isEmpty {
          return "--subsonic needs a user (https://USER@HOST), or an API key in BLUELIB_SUBSONIC_API_KEY"
        }
      } catch {
        return error.description
      }
    }
    return nil
  }

  /// Runs the shell; its exit status.
  func run() -> Int32 {
    var input = ShellOptions.Input.standardInput
    // Each -c is its own line, so an error names which one (`-c:2: …`). Not `joined`, whose
    // generic path looks up its associated types at every start (2.5% of `-c quit`).
    if let first = commands.first { input = .commands(commands.dropFirst().reduce(first) { $0 + "\n" + $1 }) }
    if let script { input = .script(path: script) }
    let environment = processEnvironment()
    // The run's one token: what waits — the library's statements, the server's answers, the
    // audio engine, the commands — stops through it, at the signals the shell handles.
    let cancellation = Cancellation.signals()
    var options = ShellOptions(
      input: input, home: home, noColor: noColor, bail: bail, environment: environment, cancellation: cancellation)
    options.noPager = noPager
    options.maxDownloads = downloads
    options.downloadTimeout = downloadTimeout
    options.graphics = graphics
    // libmpv, loaded and started at the first `play`; BLUELIB_AUDIO_OUTPUT picks mpv's audio
    // output (`null` plays silently: tests, machines without sound).
    let audioOutput = environment["BLUELIB_AUDIO_OUTPUT"].flatMap { $0.isEmpty ? nil : $0 }
    options.audioEngine = { () throws(PlaybackError) -> any AudioEngine in
      try MPVEngine(audioOutput: audioOutput, isCancelled: { cancellation.isStopRequested })
    }
    if let mpd, let address = try? MPDAddress.resolve(mpd, environment: environment) {
      // The server is one more adapter on each seam: its albums, its covers, its player.
      let server = MPDServer(
        address: address, timeout: MPDServer.timeout(from: environment), cancellation: cancellation)
      options.server = server
      options.coverSources = [MPDCoverSource(server: server)]
      options.audioEngine = { () throws(PlaybackError) -> any AudioEngine in try MPDEngine(server: server) }
      options.playerOutlivesShell = true
    }
    if let subsonic, let address = try? SubsonicAddress(subsonic) {
      // The password is read from the environment or the terminal, and kept in this
      // process only (never in a file, the history, or a line on the screen).
      let apiKey = environment["BLUELIB_SUBSONIC_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
      var password = environment["BLUELIB_SUBSONIC_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
      if apiKey == nil && password == nil {
        do {
          password = try PasswordPrompt.ask("Password of \(address.user ?? "") at \(address.origin): ")
        } catch {
          let bytes = Array("bluelib: --subsonic: \(error) (or set BLUELIB_SUBSONIC_PASSWORD)\n".utf8)
          _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
          return 1
        }
      }
      let server = SubsonicServer(
        address: address, password: password, apiKey: apiKey, timeout: SubsonicServer.timeout(from: environment),
        cancellation: cancellation)
      options.server = server
      options.coverSources = [SubsonicCoverSource(server: server)]
      options.audioEngine = { () throws(PlaybackError) -> any AudioEngine in
        // libmpv, taking this server's streams and nothing else.
        SubsonicEngine(
          server: server,
          engine: try MPVEngine(
            audioOutput: audioOutput, streamOrigin: address.origin, isCancelled: { cancellation.isStopRequested }))
      }
    }
    return Shell.run(options)
  }
}

/// Parses the command line and runs; usage errors exit 1 (SPEC §1), not ArgumentParser's 64.
@main
enum Entrypoint {
  static func main() {
    // Before anything opens a descriptor: a closed 0, 1 or 2 would be handed out again.
    StandardDescriptors.openClosedOnes()
    let arguments = Invocation.givingMPDItsValue(Array(CommandLine.arguments.dropFirst()))
    if let invocation = Invocation(readingWithoutReflection: arguments) {
      let status = invocation.run()
      if status != 0 { exit(status) }
      return
    }
    // An address that is none (`MPD_PORT=abc`), in one line naming where it came from:
    // ArgumentParser would call the empty value of a bare `--mpd` missing.
    if let problem = Invocation.mpdProblem(in: arguments) {
      let bytes = Array(("bluelib: " + problem + "\n").utf8)
      _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
      exit(1)
    }
    do {
      var command = try Bluelib.parseAsRoot(arguments)
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

extension Invocation {
  /// The flags of an ordinary invocation (`--home DIR -c 'list'`), read without
  /// ArgumentParser, whose reflection over the flag declarations was 40% of the
  /// instructions of `bluelib -c quit` (and making a ``Bluelib`` value, with its flags'
  /// declarations, 7% more). Anything else — help, version, completion, an unknown or
  /// repeated flag, a value that starts with `-`, a value that does not parse, a
  /// combination ``problem`` refuses — gives nil, and ArgumentParser reads the line and
  /// words any error exactly as before.
  init?(readingWithoutReflection arguments: [String]) {
    self.init()
    // Whether the two flags with a default were given (once is all they may be).
    var (givenDownloads, givenDownloadTimeout) = (false, false)
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      func value() -> String? {
        if let inline { return inline }
        index += 1
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
        return arguments[index]
      }
      switch name {
      case "--home":
        guard home == nil, let given = value() else { return nil }
        home = given
      case "-c":
        guard let given = value() else { return nil }
        commands.append(given)
      case "--script":
        guard script == nil, let given = value() else { return nil }
        script = given
      case "--downloads":
        guard !givenDownloads, let given = value().flatMap({ Int($0) }) else { return nil }
        (downloads, givenDownloads) = (given, true)
      case "--download-timeout":
        guard !givenDownloadTimeout, let given = value().flatMap({ Double($0) }) else { return nil }
        (downloadTimeout, givenDownloadTimeout) = (given, true)
      case "--graphics":
        guard graphics == nil, let given = value().flatMap({ GraphicsSetting(rawValue: $0) }) else { return nil }
        graphics = given
      case "--mpd":
        guard mpd == nil, let given = value() else { return nil }
        mpd = given
      case "--subsonic":
        guard subsonic == nil, let given = value() else { return nil }
        subsonic = given
      case "--bail":
        guard inline == nil, !bail else { return nil }
        bail = true
      case "--no-color":
        guard inline == nil, !noColor else { return nil }
        noColor = true
      case "--no-pager":
        guard inline == nil, !noPager else { return nil }
        noPager = true
      default:
        return nil
      }
      index += 1
    }
    guard problem == nil else { return nil }
  }
}

extension Invocation {
  /// Why the server `--mpd` names (with `MPD_HOST` and `MPD_PORT`) is no address, or nil
  /// (none named, or a good one).
  static func mpdProblem(in arguments: [String]) -> String? {
    for (index, argument) in arguments.enumerated() {
      if argument == "--" { return nil }
      let value: String
      if argument.hasPrefix("--mpd=") {
        value = String(argument.dropFirst(6))
      } else if argument == "--mpd", index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
        value = arguments[index + 1]
      } else {
        continue
      }
      do {
        _ = try MPDAddress.resolve(value, environment: processEnvironment())
      } catch {
        return error.description
      }
    }
    return nil
  }

  /// `arguments` with a bare `--mpd` (last, or before another flag) written `--mpd=`: its
  /// value is optional (empty: `MPD_HOST`, else localhost), which ArgumentParser's options
  /// cannot say.
  static func givingMPDItsValue(_ arguments: [String]) -> [String] {
    var result: [String] = []
    for (index, argument) in arguments.enumerated() {
      if argument == "--" { return result + arguments[index...] }
      let next = index + 1 < arguments.count ? arguments[index + 1] : nil
      result.append(argument == "--mpd" && (next.map { $0.hasPrefix("-") } ?? true) ? "--mpd=" : argument)
    }
    return result
  }
}

extension GraphicsSetting: ExpressibleByArgument {}
