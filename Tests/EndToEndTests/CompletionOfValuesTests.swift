import Foundation
import TestSupport
import Testing

/// Completion of values (issue 50, item 7), in a real pseudo-terminal: what a person sees
/// after Tab, and that the completed line runs. After `FIELD=` in `edit`, the field's values
/// (`edit artist=Mid⇥`, `edit genre=Ja⇥`); after a query word, artists and titles (`list
/// Esb⇥`); a title of several words typed without quotes (`tap The Gol⇥`); `play rand⇥`; and
/// candidates in the view's order when it sorts, else alphabetical, not the library's order.
@Suite(.serialized)
struct CompletionOfValuesTests {
  /// The lines `text` leaves on the screen, as a terminal draws them: libedit moves the cursor
  /// back (`ESC[15G`, backspaces) and writes a completion over the word typed, so the
  /// completed line is what the screen shows, not a run of the bytes written.
  static func screenLines(_ text: Substring) -> [String] {
    var lines: [[Character]] = [[]]
    var cursor = 0
    var characters = Array(text)[...]
    func put(_ character: Character) {
      while lines[lines.count - 1].count < cursor { lines[lines.count - 1].append(" ") }
      if cursor < lines[lines.count - 1].count {
        lines[lines.count - 1][cursor] = character
      } else {
        lines[lines.count - 1].append(character)
      }
      cursor += 1
    }
    while let character = characters.popFirst() {
      switch character {
      case "\r": cursor = 0
      case "\n", "\r\n":
        lines.append([])
        cursor = 0
      case "\u{8}": cursor = max(0, cursor - 1)
      case "\u{1B}":
        guard characters.first == "[" else {
          characters = characters.dropFirst()
          continue
        }
        characters = characters.dropFirst()
        var parameter = ""
        while let next = characters.first, next.isNumber || next == ";" || next == "?" {
          parameter.append(next)
          characters = characters.dropFirst()
        }
        let command = characters.popFirst()
        let count = Int(parameter) ?? 1
        switch command {
        case "G": cursor = max(0, count - 1)
        case "C": cursor += count
        case "D": cursor = max(0, cursor - count)
        case "K": lines[lines.count - 1].removeSubrange(min(cursor, lines[lines.count - 1].count)...)
        default: break
        }
      default: put(character)
      }
    }
    return lines.map { String($0) }
  }

  /// Whether the screen shows `line` (a whole line, trailing blanks aside) after `mark`.
  static func shows(_ terminal: PseudoTerminal, _ line: String, after mark: String.Index) -> Bool {
    terminal.settle()
    // From the start of the line the mark is in (the prompt's): a cursor column counts from it.
    let transcript = terminal.transcript
    let start = transcript[..<mark].lastIndex(of: "\n").map(transcript.index(after:)) ?? transcript.startIndex
    return screenLines(transcript[start...]).contains { $0.trimmingTrailingBlanks.hasSuffix(line) }
  }

  /// A library of these albums, in this (library) order, and a shell on a terminal over it.
  private func shell() throws -> (BinaryRunner, PseudoTerminal) {
    let runner = BinaryRunner()
    let csv = """
      title,artist,genre,year
      The Wall,Pink Floyd,Rock,1979
      Diesel and Dust,Midnight Oil,Rock,1987
      The Golden Age,Woodkid,Pop,2013
      From Gagarin's Point of View,Esbjörn Svensson Trio,Jazz,1999
      The Bends,Radiohead,Rock,1995

      """
    let file = runner.home.appendingPathComponent("albums.csv")
    try csv.write(to: file, atomically: true, encoding: .utf8)
    let setUp = try runner.run(["-c", "import '\(file.path)'"])
    #expect(setUp.status == 0, "\(setUp.stderr)")
    let terminal = try PseudoTerminal(
      arguments: ["--home", runner.home.path], environment: runner.environment(["NO_COLOR": "1"]))
    #expect(terminal.waitFor("bluelib> "))
    terminal.settle()
    return (runner, terminal)
  }

  @Test func tabAfterFieldEqualsOffersThatFieldsValues() throws {
    let (runner, terminal) = try shell()
    defer { runner.cleanUp() }
    var mark = terminal.mark
    terminal.type("edit 3 artist=Mid\t")
    #expect(terminal.waitFor("Oil\" ", after: mark))
    #expect(Self.shows(terminal, "bluelib> edit 3 artist=\"Midnight Oil\"", after: mark))
    terminal.type("genre=Ja\t")
    #expect(terminal.waitFor("zz ", after: mark))
    #expect(Self.shows(terminal, "bluelib> edit 3 artist=\"Midnight Oil\" genre=Jazz", after: mark))
    terminal.type("\r")
    #expect(terminal.waitFor("edited \"The Golden Age\"", after: mark))
    mark = terminal.mark
    terminal.type("show 3\r")
    #expect(terminal.waitFor("Artist: Midnight Oil", after: mark))
    #expect(terminal.waitFor("Genre: Jazz", after: mark))
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func tabAfterAQueryWordOffersArtistsAndTitles() throws {
    let (runner, terminal) = try shell()
    defer { runner.cleanUp() }
    let mark = terminal.mark
    terminal.type("list Esb\t")
    #expect(terminal.waitFor("Trio\" ", after: mark))
    #expect(Self.shows(terminal, "bluelib> list \"Esbjörn Svensson Trio\"", after: mark))
    terminal.type("\r")
    #expect(terminal.waitFor("4. From Gagarin's Point of View — Esbjörn Svensson Trio (1999, Jazz)", after: mark))
    terminal.type("quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  @Test func aTitleOfSeveralWordsTypedWithoutQuotesIsCompleted() throws {
    let (runner, terminal) = try shell()
    defer { runner.cleanUp() }
    var mark = terminal.mark
    terminal.type("tap The Gol\t")
    #expect(terminal.waitFor("Age ", after: mark))
    #expect(Self.shows(terminal, "bluelib> tap The Golden Age", after: mark))
    terminal.type("\rshow\r")
    #expect(terminal.waitFor("Album: The Golden Age", after: mark))
    mark = terminal.mark
    terminal.type("play rand\t")
    #expect(terminal.waitFor("om ", after: mark))
    #expect(Self.shows(terminal, "bluelib> play random", after: mark))
    // Not run: the line is dropped (Ctrl-U), and the shell leaves.
    terminal.type("\u{15}quit\r")
    #expect(terminal.waitForExit() == 0)
  }

  /// `The ` offers three titles: alphabetically in the library, by year (newest first) in a
  /// view sorted so — never in the library's order (The Wall, The Golden Age, The Bends).
  @Test func candidatesComeInTheViewsOrder() throws {
    let (runner, terminal) = try shell()
    defer { runner.cleanUp() }
    func offered(after mark: String.Index) -> [String] {
      let text = terminal.transcript[mark...]
      return ["The Bends", "The Golden Age", "The Wall"].sorted {
        (text.range(of: $0)?.lowerBound ?? text.endIndex) < (text.range(of: $1)?.lowerBound ?? text.endIndex)
      }
    }
    var mark = terminal.mark
    terminal.type("tap The \t")
    #expect(terminal.waitFor("The Wall", after: mark))
    terminal.settle()
    #expect(offered(after: mark) == ["The Bends", "The Golden Age", "The Wall"], "\(terminal.transcript[mark...])")
    terminal.type("\u{15}find year-\r")
    #expect(terminal.waitFor("bluelib [", after: mark))
    terminal.settle()
    mark = terminal.mark
    terminal.type("tap The \t")
    #expect(terminal.waitFor("The Wall", after: mark))
    terminal.settle()
    #expect(offered(after: mark) == ["The Golden Age", "The Bends", "The Wall"], "\(terminal.transcript[mark...])")
    terminal.type("\u{15}quit\r")
    #expect(terminal.waitForExit() == 0)
  }
}

extension String {
  /// The text without the blanks at its end.
  fileprivate var trimmingTrailingBlanks: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
