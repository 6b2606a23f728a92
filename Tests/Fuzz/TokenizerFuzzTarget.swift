// A libFuzzer target for the tokenizer, compiled with Sources/BlueShell/Interpreter/Tokenizer.swift
// alone (it has no dependencies), so the coverage-instrumented build takes seconds:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -package-name bluelib -O \
//     Sources/BlueShell/Interpreter/Tokenizer.swift Tests/Fuzz/TokenizerFuzzTarget.swift -o fuzz-tokenizer
//   ./fuzz-tokenizer -max_total_time=30 -max_len=512 Tests/Fuzz/corpus
//
// `bash .ci/run fuzz [SECONDS]` does both. Each input, read as UTF-8 (invalid bytes repaired),
// must tokenize without a crash, and the fast path for plain lines must agree with the full
// scanner; the lenient scanner used for completion must never throw. A failed check traps,
// which libFuzzer reports with the input that caused it.

@_cdecl("LLVMFuzzerTestOneInput")
package func tokenizerFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let scanned = Result { () throws(TokenizerError) in try Tokenizer.scannedCommands(in: line) }
  let commands = Result { () throws(TokenizerError) in try Tokenizer.commands(in: line) }
  // The plain-line fast path gives what the scanner gives (or leaves the line to it).
  precondition(commands == scanned, "commands(in:) and the scanner disagree on \(line.debugDescription)")
  if let plain = Tokenizer.plainWords(line) {
    precondition(
      (try? scanned.get()) == (plain.isEmpty ? [] : [plain]), "plainWords disagrees on \(line.debugDescription)")
  }
  if case .success(let commands) = scanned {
    for command in commands {
      precondition(!command.isEmpty, "an empty command from \(line.debugDescription)")
      for word in command {
        // Columns count Unicode scalars, from 1.
        precondition(
          word.column >= 1 && word.column <= line.unicodeScalars.count, "a column out of \(line.debugDescription)")
      }
    }
  }
  // Completion's lenient scan of any prefix never throws (it returns a value or nothing).
  _ = Tokenizer.partial(line)
  return 0
}
