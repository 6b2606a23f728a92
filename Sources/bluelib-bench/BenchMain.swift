import ArgumentParser
import BlueLibrary
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses the command line (``BenchCommand``) and runs the subcommand it names.
enum BenchMain {
  /// Runs `arguments` (the whole command line) and returns the exit status: 2 on a usage
  /// error, else the subcommand's.
  static func run(arguments: [String]) -> Int32 {
    do {
      var command = try BenchCommand.parseAsRoot(Array(arguments.dropFirst()))
      try command.run()
      return 0
    } catch let status as ExitCode {
      return status.rawValue
    } catch {
      // --help (and any other clean exit) prints to standard output; usage errors exit 2.
      if BenchCommand.exitCode(for: error) == .success {
        print(BenchCommand.fullMessage(for: error))
        return 0
      }
      standardError("bluelib-bench: \(BenchCommand.message(for: error))\n(see bluelib-bench --help)")
      return 2
    }
  }

  /// Generates the libraries, runs the scenarios `options` name and prints the report.
  static func runScenarios(_ options: Options) -> Int32 {
    let arguments = CommandLine.arguments
    signal(SIGPIPE, SIG_IGN)  // a child that stops reading its stdin must not kill us
    let environment = processEnvironment()

    let benchExecutable = executablePath(arguments)
    let bluelib = DataSet.absolute(
      options.bluelib ?? (benchExecutable as NSString).deletingLastPathComponent + "/bluelib")
    guard access(bluelib, X_OK) == 0 else {
      standardError(
        "bluelib-bench: no bluelib binary at \(bluelib) (build it with `swift build -c release --product bluelib`, or pass --bluelib PATH)"
      )
      return 2
    }
    PageCache.drop([bluelib, (bluelib as NSString).deletingLastPathComponent + "/libbluelib-taglib.so"])
    var sqlite3: String?
    if let given = options.sqlite3 {
      guard access(given, X_OK) == 0 else {
        standardError("bluelib-bench: --sqlite3: \(given) is not an executable file")
        return 2
      }
      sqlite3 = DataSet.absolute(given)
    } else {
      sqlite3 = findInPath("sqlite3", environment: environment)
    }

    let work: String
    do {
      work = try DataSet.workDirectory(keep: options.keep, environment: environment)
    } catch {
      standardError("bluelib-bench: \(error)")
      return 2
    }
    defer { if options.keep == nil { DataSet.remove(work) } }

    let bench = Bench(
      options: options, benchExecutable: benchExecutable, bluelib: bluelib, sqlite3: sqlite3, work: work,
      environment: environment)
    let bluelibVersion = version(of: bluelib, bench: bench) ?? "version unknown"
    let sqliteVersion = sqlite3.flatMap { version(of: $0, bench: bench) }.map { String($0.prefix { $0 != " " }) } ?? ""

    do {
      try bench.generate()
    } catch {
      standardError("bluelib-bench: \(error)")
      return 2
    }
    bench.runAll()

    let report = Report(
      options: options, results: bench.results, commandLine: quotedCommandLine(arguments), bluelib: bluelib,
      bluelibVersion: bluelibVersion, sqlite3: sqlite3, sqliteVersion: sqliteVersion, work: work)
    print(report.render())
    if let path = options.markdown {
      let table = report.readmeTable(
        date: MarkdownTable.today(), commit: MarkdownTable.commit(environment: environment))
      do {
        try MarkdownTable.write(table, to: path)
        standardError("bluelib-bench: wrote the table of figures into \(path)")
      } catch {
        standardError("bluelib-bench: \(error)")
        return 2
      }
    }
    if bench.results.anyFailed { return 1 }
    if report.checks.contains(where: { $0.status == .fail }) { return 3 }
    return 0
  }

  /// This executable: /proc/self/exe, else `argv[0]`.
  static func executablePath(_ arguments: [String]) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let path =
      length > 0
      ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : DataSet.absolute(arguments.first ?? ".")
    return path
  }

  /// The first line `executable --version` prints.
  static func version(of executable: String, bench: Bench) -> String? {
    let directory = bench.work + "/version"
    defer { DataSet.remove(directory) }
    guard (try? bench.invoke(executable, ["--version"], input: .null, in: directory, keepOutput: true)) != nil else {
      return nil
    }
    return DataSet.firstLine(ofFileAt: directory + "/stdout")
  }
}
