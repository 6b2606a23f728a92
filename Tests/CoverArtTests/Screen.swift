import CoverArt

/// What one cell shows after the terminal has interpreted a frame.
struct ScreenCell: Equatable {
  enum Color: Equatable {
    case terminalDefault
    case rgb(RGB)
    case indexed(Int)
  }

  var character: Character
  var foreground: Color
  var background: Color

  /// The colour the top half shows.
  var top: Color {
    switch character {
    case "▀": foreground
    case "▄", " ": background
    default: .terminalDefault
    }
  }

  /// The colour the bottom half shows.
  var bottom: Color {
    switch character {
    case "▄": foreground
    case "▀", " ": background
    default: .terminalDefault
    }
  }
}

/// A frame interpreted the way a terminal does: SGR state carried from cell to cell.
struct Screen {
  /// `lines[row][column]`.
  var lines: [[ScreenCell]] = []
  /// Every SGR's parameter list, per line, in order (the line-end reset included).
  var sequences: [[[Int]]] = []
  /// Bytes that are neither SGR nor printable nor newline (must stay empty).
  var stray: [String] = []
  /// Whether the frame ends with a newline.
  var endsWithNewline = false

  init(_ frame: String) {
    var foreground = ScreenCell.Color.terminalDefault
    var background = ScreenCell.Color.terminalDefault
    var line: [ScreenCell] = []
    var lineSequences: [[Int]] = []
    var characters = frame.unicodeScalars.makeIterator()
    while let scalar = characters.next() {
      switch scalar {
      case "\u{1B}":
        guard characters.next() == "[" else {
          stray.append("ESC without [")
          continue
        }
        var body = ""
        var final: Unicode.Scalar?
        while let next = characters.next() {
          if (0x40...0x7E).contains(next.value) {
            final = next
            break
          }
          body.unicodeScalars.append(next)
        }
        guard final == "m" else {
          stray.append("CSI \(body)\(final.map(String.init) ?? "")")
          continue
        }
        let parameters = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? -1 }
        lineSequences.append(parameters)
        var index = 0
        while index < parameters.count {
          switch parameters[index] {
          case 0:
            foreground = .terminalDefault
            background = .terminalDefault
          case 39: foreground = .terminalDefault
          case 49: background = .terminalDefault
          case 38, 48:
            let selector = parameters[index]
            let color: ScreenCell.Color
            if parameters[index + 1] == 2 {
              color = .rgb(
                RGB(UInt8(parameters[index + 2]), UInt8(parameters[index + 3]), UInt8(parameters[index + 4])))
              index += 4
            } else {
              color = .indexed(parameters[index + 2])
              index += 2
            }
            if selector == 38 { foreground = color } else { background = color }
          default: stray.append("SGR parameter \(parameters[index])")
          }
          index += 1
        }
      case "\n":
        lines.append(line)
        sequences.append(lineSequences)
        line = []
        lineSequences = []
      default:
        line.append(ScreenCell(character: Character(scalar), foreground: foreground, background: background))
      }
    }
    endsWithNewline = line.isEmpty && lineSequences.isEmpty
  }
}
