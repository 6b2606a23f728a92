import BlueLibrary
import TestSupport
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#endif

/// A seeded random-input run of the tokenizer and the interpreter (SPEC §7: nothing typed
/// can crash the shell), for a fixed budget in every CI run; a failure prints the seed and
/// the line, so it can be replayed.
struct InterpreterFuzzTests {
  /// Words that reach every parser: verbs (not import/export: they would write files
  /// named by random words), their keywords and options, quotes, separators, numbers at
  /// the edges, control characters, wide and combining text, and a field past its limit.
  static let pieces: [String] =
    CommandRegistry.standard.names.filter { !["import", "export"].contains($0) } + [
      "\"", "'", "\\", ";", "#", "=", "title=", "artist=", "year=", "year=abc", "cover=", "cover=http://x/y.png",
      "genre=Jazz", "-1", "0", "1", "2", "5", "6", "99999999999999999999", "-9223372036854775808", "to", "left",
      "right", "home", "end", "all", "--size", "3x2", "0x0", "--force", "--list", "\u{1B}[2J", "\u{7}", "é", "e\u{301}",
      "東京", "🇫🇷", "👨‍👩‍👧", " ", "\t", "\"Best of Bowie\"", "'American Pie'", "Dup",
      String(repeating: "x", count: 1001),
    ]

  @Test(arguments: [0xB1E5_0001, 0xB1E5_0002, 0xB1E5_0003] as [UInt64])
  func randomLinesNeverCrashKeepTheLibraryWholeAndFailInOneLine(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let sink = open("/dev/null", O_WRONLY | O_CLOEXEC)
    defer { close(sink) }
    let library = Library.inMemory()
    let interpreter = Interpreter(
      environment: CommandEnvironment(library: library, output: OutputChannel(fileDescriptor: sink)))
    for step in 0..<5000 {
      let count = Int.random(in: 1...8, using: &random)
      var line = ""
      for _ in 0..<count {
        line += Self.pieces.randomElement(using: &random)!
        if Bool.random(using: &random) { line += " " }
      }
      let failures = interpreter.run(line: line)
      for failure in failures {
        #expect(!failure.contains("\n"), "seed \(seed) step \(step): \(line.debugDescription) → \(failure)")
        #expect(
          !failure.unicodeScalars.contains { $0.value == 0x1B }, "an escape reached a message: \(line.debugDescription)"
        )
      }
      // The library stays whole: dense positions, a count that matches, a valid selection.
      if step % 100 == 0 {
        let albums = try library.allAlbums()
        #expect(albums.map(\.position) == Array(0..<albums.count), "seed \(seed) step \(step)")
        #expect(try library.libraryCount() == albums.count)
        // In a view (`find`), the selection is an index of the view's albums.
        let shown = try library.count()
        #expect(library.selection.map { (0..<shown).contains($0) } ?? (shown == 0))
      }
    }
  }

  @Test(arguments: [7, 8, 9] as [UInt64])
  func randomBytesNeverCrashTheTokenizer(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let alphabet = Array("ab \t;#'\"\\=-19é東🎸\u{0}\u{1B}".unicodeScalars)
    for _ in 0..<5000 {
      var line = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...40, using: &random) { line.append(alphabet.randomElement(using: &random)!) }
      let text = String(line)
      switch Result(catching: { try Tokenizer.commands(in: text) }) {
      case .success(let commands):
        // Every word came from the line: no word is longer than the line itself.
        #expect(commands.joined().allSatisfy { $0.text.unicodeScalars.count <= text.unicodeScalars.count })
      case .failure(let error):
        #expect(!String(describing: error).contains("\n"))
      }
    }
  }
}
