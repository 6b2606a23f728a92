#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// bluelib-bench: times the release `bluelib` binary on generated libraries and
// prints a Markdown table (see `bluelib-bench --help`, BenchCommand.swift and Options.swift).

exit(BenchMain.run(arguments: CommandLine.arguments))
