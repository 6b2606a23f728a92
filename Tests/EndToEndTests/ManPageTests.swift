import Foundation
import TestSupport
import Testing

/// bluelib(1), as `bash .ci/run install` installs it (`bluelib --man-page`), read with
/// `man -l` (man-db and groff, which `.ci/run` installs): every verb `help` lists and every
/// environment variable the sources read is in it, and groff warns of nothing. The verbs
/// and the variables are read from the program and its sources, so a verb or a variable
/// added without its entry fails here (issue 50, item 8).
@Suite struct ManPageTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  static let man = "/usr/bin/man"
  static let groff = "/usr/bin/groff"

  /// The usage line (`view [save NAME [QUERY] | list | delete NAME]`) of every verb `help`
  /// lists, and the examples `help VERB` shows of each.
  static func verbs(_ runner: BinaryRunner) throws -> [(usage: String, examples: [String])] {
    let listing = try runner.run(["-c", "help"])
    #expect(listing.status == 0, "\(listing.stderr)")
    // A verb's line starts with two spaces and its usage, which ends at two spaces (or the
    // line, when a narrow window puts the summary under it).
    let usages = listing.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
      .map { line in
        let text = line.dropFirst(2)
        return String(text.range(of: "  ").map { text[..<$0.lowerBound] } ?? text)
      }
    // One run for every verb's help: each starts with its `usage:` line.
    let verbs = usages.map { String($0.prefix { $0 != " " }) }
    let helps = try runner.run(script: verbs.map { "help \($0)\n" }.joined())
    #expect(helps.status == 0, "\(helps.stderr)")
    let pages = helps.stdout.components(separatedBy: "usage: ").dropFirst()
    #expect(pages.count == usages.count)
    return zip(usages, pages).map { usage, help in
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
      let examples = lines.drop { !$0.hasPrefix("example") }.dropFirst().prefix { $0.hasPrefix("  ") }
      return (usage, examples.map { String($0.dropFirst(2)) })
    }
  }

  /// The variables the program's sources read: `environment["NAME"]` (the process
  /// environment, as each module is handed it), `getenv("NAME")`, the XDG directories'
  /// `directory("NAME", …)` and the terminals' `terminalVariables` (the bench, not
  /// installed, is left out).
  static func variables() throws -> Set<String> {
    let patterns = try [
      #"[eE]nvironment\[\s*"([A-Z][A-Z0-9_]*)"\s*\]"#, #"getenv\("([A-Z][A-Z0-9_]*)"\)"#,
      #"directory\("([A-Z][A-Z0-9_]*)""#,
    ].map { try Regex($0) }
    let listed = try Regex(#"terminalVariables = \[([^\]]*)\]"#)
    let literal = try Regex(#""([A-Z][A-Z0-9_]*)""#)
    var names: Set<String> = []
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    for case let file as URL in files
    where ["swift", "c", "cpp"].contains(file.pathExtension) && !file.path.contains("/bluelib-bench/") {
      let text = try String(contentsOf: file, encoding: .utf8)
      for pattern in patterns {
        for match in text.matches(of: pattern) { names.insert(String(match.output[1].substring ?? "")) }
      }
      for list in text.matches(of: listed) {
        for match in String(list.output[1].substring ?? "").matches(of: literal) {
          names.insert(String(match.output[1].substring ?? ""))
        }
      }
    }
    return names
  }

  /// Runs `tool` with `arguments`; its status, standard output and standard error.
  static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("man-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let out = directory.appendingPathComponent("out")
    let err = directory.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus, try String(contentsOf: out, encoding: .utf8),
      try String(contentsOf: err, encoding: .utf8)
    )
  }

  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: man) && FileManager.default.isExecutableFile(atPath: groff),
      "man-db and groff are not installed"))
  func theManPageHasEveryVerbWithItsExamplesEveryVariableAndNoRoffWarnings() throws {
    let runner = BinaryRunner()
    defer { runner.cleanUp() }
    let generated = try runner.run(["--man-page"])
    #expect(generated.status == 0, "\(generated.stderr)")
    let page = runner.home.appendingPathComponent("bluelib.1")
    try generated.stdout.write(to: page, atomically: true, encoding: .utf8)
    let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "MANWIDTH": "250", "MANPAGER": "cat"]

    let warnings = try Self.run(Self.groff, ["-man", "-Tutf8", "-ww", "-z", page.path], environment: environment)
    #expect(warnings.status == 0)
    #expect(warnings.stderr == "", "groff warns of the page")

    let shown = try Self.run(Self.man, ["--warnings=w", "-l", page.path], environment: environment)
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stderr == "")
    let text = shown.stdout
    let sections = [
      "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES",
    ]
    for section in sections { #expect(text.contains("\n\(section)\n"), "no \(section) section") }
    /// Whether `tag` starts an entry of `section`: a tag sits at column 7, alone on its line,
    /// or followed by its text when it is shorter than the indent.
    func entry(_ tag: String, in section: Substring) -> Bool {
      section.contains("\n       \(tag)\n") || section.contains("\n       \(tag) ")
    }
    /// The text of section `name`, from the newline that ends its heading to the next one.
    func section(_ name: String) -> Substring {
      guard let start = text.range(of: "\n\(name)\n") else { return "" }
      let rest = text[text.index(before: start.upperBound)...]
      let end = rest.dropFirst().range(of: #"\n[A-Z][A-Z ]+\n"#, options: .regularExpression)?.lowerBound
      return rest[..<(end ?? rest.endIndex)]
    }

    let verbs = try Self.verbs(runner)
    #expect(verbs.count > 30, "help listed \(verbs.count) verbs")
    let commands = section("COMMANDS")
    for (usage, examples) in verbs {
      // Each verb's entry starts with its usage, on a line of its own.
      #expect(entry(usage, in: commands), "the page has no entry for '\(usage)'")
      #expect(!examples.isEmpty, "'help \(usage)' shows no example")
      for example in examples {
        #expect(commands.contains("  \(example)\n"), "the page lacks the example '\(example)'")
      }
    }
    for flag in ["--home", "-c", "--script", "--mpd", "--no-color", "--no-pager", "--graphics"] {
      #expect(section("OPTIONS").contains(flag), "the page's OPTIONS have no \(flag)")
    }

    let variables = try Self.variables()
    // The scan finds each way the sources read one.
    #expect(
      variables.isSuperset(of: [
        "BLUELIB_HOME", "BLUELIB_PLAYER", "NO_COLOR", "MPD_HOST", "XDG_DATA_HOME", "KITTY_WINDOW_ID", "LD_LIBRARY_PATH",
      ]), "\(variables.sorted())")
    let listed = section("ENVIRONMENT")
    for variable in variables.sorted() {
      #expect(entry(variable, in: listed), "the page's ENVIRONMENT lacks \(variable)")
    }
    for file in ["library.sqlite", "history", "covers", "servers/"] {
      #expect(section("FILES").contains(file), "the page's FILES do not name \(file)")
    }
    for status in ["0", "1", "2", "130"] {
      #expect(entry(status, in: section("EXIT STATUS")), "no exit status \(status)")
    }
  }
}
