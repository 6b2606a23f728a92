/// bluelib(1), in man(7) macros, made from what the program itself knows: every verb from the
/// command table `help` prints (``CommandRegistry/standard``: usage, summary, aliases, details
/// and examples, grouped as `help` groups them), the flags from the argument parser's
/// definitions (the executable passes them in), and the variables and files below. A verb
/// added to the table is in the next page; `bluelib --man-page` prints it, and
/// `bash .ci/run install` installs it.
package enum ManualPage {
  /// A command-line flag or option as the argument parser defines it.
  package struct Option: Sendable, Equatable {
    /// Its names, long and short (`--home`, `-c`).
    package var names: [String]
    /// The value it takes (`DIR`), or nil for a flag.
    package var value: String?
    /// What it does.
    package var help: String
    /// Its default value, when it has one worth saying.
    package var defaultValue: String?
    /// Whether it may be given several times (`-c`).
    package var repeats: Bool

    /// Creates an option.
    package init(names: [String], value: String?, help: String, defaultValue: String? = nil, repeats: Bool = false) {
      self.names = names
      self.value = value
      self.help = help
      self.defaultValue = defaultValue
      self.repeats = repeats
    }
  }

  /// Every environment variable bluelib reads, with what it changes (ManualPageTests checks
  /// this list against the variables the sources read).
  static let environment: [(name: String, meaning: String)] = [
    ("BLUELIB_HOME", "Keep every file under this directory, as --home does (the flag wins)."),
    ("HOME", "Where the XDG directories are when their variables are unset; '~' in paths."),
    ("XDG_DATA_HOME", "The library file's directory is $XDG_DATA_HOME/bluelib (default ~/.local/share/bluelib)."),
    ("XDG_STATE_HOME", "The history's directory is $XDG_STATE_HOME/bluelib (default ~/.local/state/bluelib)."),
    ("XDG_CACHE_HOME", "The cover cache is $XDG_CACHE_HOME/bluelib/covers (default ~/.cache/bluelib/covers)."),
    (
      "XDG_CONFIG_HOME",
      "The ListenBrainz token 'listenbrainz token' keeps is $XDG_CONFIG_HOME/bluelib/listenbrainz-token "
        + "(default ~/.config/bluelib)."
    ),
    ("NO_COLOR", "When set and not empty, print no colour, as --no-color does."),
    (
      "TERM",
      "'dumb' means no colour; screen* and tmux* mean a multiplexer (covers in half blocks); the names of "
        + "terminals that answer for sure (xterm-kitty, xterm-ghostty, wezterm, alacritty, foot) lengthen the "
        + "wait for the graphics query."
    ),
    ("COLORTERM", "'truecolor' or '24bit' draws half-block covers in 24-bit colour, else in 256 colours."),
    ("PAGER", "The pager for output taller than the window (default 'less -FRX'); empty: no pager."),
    ("BLUELIB_GRAPHICS", "How covers are drawn, as --graphics takes it (the flag wins)."),
    (
      "TERM_PROGRAM",
      "'iTerm.app' or 'WezTerm' means iTerm2's images; set at all, the terminal named itself (see KITTY_WINDOW_ID)."
    ),
    ("LC_TERMINAL", "'iTerm2' means iTerm2's images."),
    (
      "KITTY_WINDOW_ID",
      "Like VTE_VERSION, KONSOLE_VERSION, XTERM_VERSION, WT_SESSION, ALACRITTY_WINDOW_ID and TERM_PROGRAM: the "
        + "terminal named itself, so the graphics query waits up to 5 s for its answer instead of 400 ms."
    ),
    ("VTE_VERSION", "See KITTY_WINDOW_ID."),
    ("KONSOLE_VERSION", "See KITTY_WINDOW_ID."),
    ("XTERM_VERSION", "See KITTY_WINDOW_ID."),
    ("WT_SESSION", "See KITTY_WINDOW_ID."),
    ("ALACRITTY_WINDOW_ID", "See KITTY_WINDOW_ID."),
    ("TMUX", "Inside tmux: the terminal is not asked for graphics; covers are drawn in half blocks."),
    ("STY", "Inside screen: as TMUX."),
    (
      "BLUELIB_PLAYER",
      "A command line that 'play' runs with the album's files as its arguments, instead of libmpv "
        + "(e.g. 'mpv --no-video')."
    ),
    ("BLUELIB_AUDIO_OUTPUT", "libmpv's audio output (pulse, alsa, pipewire, ...; 'null' plays silently)."),
    ("BLUELIB_CONTACT", "Your e-mail address or web page, named in each MusicBrainz request of 'lookup'."),
    ("BLUELIB_MUSICBRAINZ_URL", "A MusicBrainz mirror for 'lookup' (default https://musicbrainz.org)."),
    ("BLUELIB_COVERART_URL", "A Cover Art Archive mirror for 'download' (default https://coverartarchive.org)."),
    ("MPD_HOST", "The MPD server of a bare --mpd: HOST, a socket's path, or PASSWORD@HOST (default localhost)."),
    ("MPD_PORT", "The MPD server's port for a bare --mpd (default 6600)."),
    ("MPD_TIMEOUT", "Seconds without a byte from the MPD server before a request fails (default 15)."),
    (
      "BLUELIB_SUBSONIC_PASSWORD",
      "The password of --subsonic's user (else asked for at the terminal, not echoed); never written anywhere."
    ),
    ("BLUELIB_SUBSONIC_API_KEY", "An OpenSubsonic API key for --subsonic, sent alone, without a user."),
    ("BLUELIB_SUBSONIC_TIMEOUT", "Seconds a request to the Subsonic server may take (default 30)."),
    (
      "BLUELIB_LISTENBRAINZ_TOKEN",
      "Your ListenBrainz user token: what you play is sent to ListenBrainz (playing now, and a listen at half "
        + "a track or four minutes), queued in the library file first; wins over the one 'listenbrainz token' keeps."
    ),
    (
      "BLUELIB_LISTENBRAINZ_URL",
      "Another server of ListenBrainz's API to send listens to (default https://api.listenbrainz.org)."
    ),
    (
      "DBUS_SESSION_BUS_ADDRESS",
      "The session bus: where it is set, bluelib is on it as org.mpris.MediaPlayer2.bluelib from the first "
        + "play (media keys, the desktop's player widget, playerctl)."
    ),
    (
      "LD_LIBRARY_PATH",
      "Searched first for libmpv, libcurl and libsystemd, loaded at the first play and download (then /etc/ld.so.conf's "
        + "folders, /lib and /usr/lib; never the program's own folder)."
    ),
  ]

  /// The files bluelib reads and writes.
  static let files: [(path: String, meaning: String)] = [
    (
      "~/.local/share/bluelib/library.sqlite",
      "The library: one SQLite file holding the albums, their tracks, the undo log, the saved views, the "
        + "current album and view ($XDG_DATA_HOME/bluelib; DIR/library.sqlite under --home DIR)."
    ),
    (
      "~/.local/share/bluelib/servers/NAME.sqlite",
      "The library of a music server (--mpd, --subsonic), e.g. servers/mpd-HOST:PORT.sqlite or "
        + "servers/subsonic-USER@HOST.sqlite, beside the library file."
    ),
    (
      "~/.config/bluelib/listenbrainz-token",
      "The ListenBrainz token 'listenbrainz token' keeps, readable by you alone (mode 0600; "
        + "$XDG_CONFIG_HOME/bluelib; DIR/listenbrainz-token under --home DIR)."
    ),
    (
      "~/.local/state/bluelib/history",
      "The input history, 1,000 lines ($XDG_STATE_HOME/bluelib; DIR/history under --home DIR)."
    ),
    (
      "~/.cache/bluelib/covers/",
      "The cover cache ($XDG_CACHE_HOME/bluelib/covers; DIR/covers under --home DIR)."
    ),
    (
      "PREFIX/lib/bluelib/libbluelib-taglib.so",
      "TagLib's plug-in, loaded at the first tag read or written, for bluelib installed as PREFIX/bin/bluelib."
    ),
  ]

  /// The exit statuses (Shell.ExitCode).
  static let exitStatus: [(status: String, meaning: String)] = [
    ("\(Shell.ExitCode.success)", "Every command succeeded."),
    ("\(Shell.ExitCode.failure)", "A command failed (script mode, -c, --script), or a usage error."),
    ("\(Shell.ExitCode.cannotOpen)", "The library file cannot be opened (it is named, with why, and never written)."),
    ("\(Shell.ExitCode.interrupted)", "Interrupted by SIGINT (Ctrl-C) in script mode."),
    ("129, 143", "Ended by SIGHUP or SIGTERM (the current album and view are saved first)."),
  ]

  /// Examples of whole invocations.
  static let examples: [(command: String, meaning: String)] = [
    ("bluelib", "Start the shell on a terminal: the banner, the scroller and a prompt."),
    ("bluelib -c 'import ~/Music'", "Read a music folder's albums (tags and covers) into the library."),
    ("bluelib -c 'find year:1990..1999 artist+' -c list", "List the nineties' albums by artist."),
    ("printf 'tap 3\\nshow\\n' | bluelib", "Run commands from a pipe: no prompt, no colour, one line per result."),
    ("bluelib --home /tmp/try -c reset -c list", "Try the five sample albums in a home of their own."),
    ("bluelib --mpd localhost:6600", "Browse and play the albums of an MPD server."),
    ("bluelib -c 'export -' > library.json", "Write the library as JSON to standard output."),
  ]

  /// The page: `abstract` is the program's one-line description, `options` its flags.
  package static func text(abstract: String, options: [Option]) -> String {
    var page: [String] = [
      ".\\\" bluelib(1): made by 'bluelib --man-page' from the command table 'help' prints.",
      ".TH BLUELIB 1 \"\" \"bluelib \(bluelibVersion)\" \"User Commands\"",
      ".nh",
      ".ad l",
      ".SH NAME",
      "bluelib \\- " + escaped(sentence(abstract)),
      ".SH SYNOPSIS",
      ".B bluelib",
    ]
    for option in options {
      let name = option.names.first { $0.hasPrefix("--") } ?? option.names.first ?? ""
      var synopsis = "[\\fB" + escaped(name) + "\\fR"
      if let value = option.value { synopsis += " \\fI" + escaped(value) + "\\fR" }
      synopsis += "]" + (option.repeats ? "\\&..." : "")
      page.append(synopsis)
    }
    page += [".SH DESCRIPTION"]
    page += paragraph(
      "bluelib is a shell for an album library: one SQLite file of albums (title, artist, genre, year, cover, "
        + "and the tracks of a music folder), browsed as a row of cover cards, searched with queries, edited, "
        + "played, and undone. On a terminal it is interactive: a banner, the scroller, a prompt with line "
        + "editing, history and completion; output taller than the window goes through the pager. With standard "
        + "input from a pipe or a file, or with -c or --script, it runs each line as a command, with no prompt, "
        + "no banner and no escape sequences; errors go to standard error as 'bluelib: SOURCE:LINE: message'.")
    page += [".PP"]
    page += paragraph(HelpCommand.configuration.details + " 'help' lists the commands; 'help VERB' shows one.")
    page += [".SH OPTIONS"]
    for option in options {
      var tag = option.names.map { "\\fB" + escaped($0) + "\\fR" }.joined(separator: ", ")
      if let value = option.value { tag += " \\fI" + escaped(value) + "\\fR" }
      page += [".TP", tag]
      var help = option.help
      if let defaultValue = option.defaultValue { help += " Default: \(defaultValue)." }
      if option.repeats { help += " May be given several times." }
      page += paragraph(help)
    }
    page += commands()
    page += [".SH EXIT STATUS"]
    for (status, meaning) in exitStatus { page += [".TP", escaped(status)] + paragraph(meaning) }
    page += [".SH ENVIRONMENT"]
    for (name, meaning) in environment { page += [".TP", ".B " + escaped(name)] + paragraph(meaning) }
    page += [".SH FILES"]
    for (path, meaning) in files { page += [".TP", ".I " + escaped(path)] + paragraph(meaning) }
    page += [".SH EXAMPLES"]
    for (command, meaning) in examples { page += [".TP", ".B " + escaped(command)] + paragraph(meaning) }
    page += [".SH SEE ALSO", ".BR mpd (1),", ".BR mpv (1),", ".BR less (1)"]
    return page.joined(separator: "\n") + "\n"
  }

  /// COMMANDS: each verb of the table, by group as `help` lists them, with its usage,
  /// summary, aliases, details (paragraphs filled, indented tables kept as written) and
  /// examples.
  private static func commands() -> [String] {
    var page = [".SH COMMANDS"]
    page += paragraph(
      "The verbs typed at the prompt, in a script or after -c, as 'help' lists them. Words in capitals "
        + "stand for what you give; [...] is optional; ALBUM is an index or a title.")
    let registry = CommandRegistry.standard
    for group in CommandConfiguration.Group.allCases {
      let members = registry.commands.filter { $0.configuration.group == group }
      guard !members.isEmpty else { continue }
      page.append(".SS " + escaped(group.rawValue))
      for command in members {
        let configuration = command.configuration
        var usage = "\\fB" + escaped(configuration.verb) + "\\fR"
        if !configuration.synopsis.isEmpty { usage += " " + escaped(configuration.synopsis) }
        page += [".TP", usage]
        page += paragraph(configuration.summary.prefix(1).uppercased() + configuration.summary.dropFirst() + ".")
        if !configuration.aliases.isEmpty {
          page += [".IP"] + paragraph("Also: " + configuration.aliases.joined(separator: ", ") + ".")
        }
        for text in configuration.details.components(separatedBy: "\n\n") where !text.isEmpty {
          let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
          page.append(".IP")
          if lines.count > 1, lines.dropFirst().allSatisfy({ $0.hasPrefix("  ") }) {
            page += paragraph(String(lines[0]))
            page += [".nf"] + lines.dropFirst().map { line(String($0)) } + [".fi"]
          } else {
            page += paragraph(text)
          }
        }
        if !configuration.examples.isEmpty {
          page += [".IP", configuration.examples.count == 1 ? "Example:" : "Examples:", ".nf"]
          page += configuration.examples.map { line("  " + $0) }
          page.append(".fi")
        }
      }
    }
    return page
  }

  /// `text` as one filled line of input (roff fills it to the page's width).
  private static func paragraph(_ text: String) -> [String] {
    [line(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))]
  }

  /// A line of text, safe from being read as a request: a leading `.` gets `\&` (a `'` is
  /// written `\(aq`).
  private static func line(_ text: String) -> String {
    let escaped = escaped(text)
    return escaped.hasPrefix(".") ? "\\&" + escaped : escaped
  }

  /// `text` with roff's escape character written as `\e`, `-` as `\-` (a minus, which
  /// options and examples are, not a hyphen), the quotes, `~` and `^` as the characters
  /// they are (not typographic ones: what the page shows can be typed), and every non-ASCII
  /// character by its code point, so the page reads the same whatever encoding groff assumes.
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case "'": out += "\\(aq"
      case "`": out += "\\(ga"
      case "~": out += "\\(ti"
      case "^": out += "\\(ha"
      case _ where scalar.value >= 0x80:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `An interactive shell.` as NAME's line wants it: `an interactive shell`.
  private static func sentence(_ text: String) -> String {
    var text = text.hasSuffix(".") ? String(text.dropLast()) : text
    if let first = text.first, text.dropFirst().first?.isLowercase == true {
      text = first.lowercased() + text.dropFirst()
    }
    return text
  }
}
