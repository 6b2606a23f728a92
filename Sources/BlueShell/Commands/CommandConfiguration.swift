/// Static description of a verb: how it is typed, what it does, and what its arguments are.
struct CommandConfiguration: Sendable {
  /// Where `help` lists the verb.
  enum Group: String, Sendable, CaseIterable {
    case browse = "Browse"
    case change = "Change the library"
    case covers = "Covers"
    case playback = "Play"
    case shell = "Shell"
  }

  /// What a verb expects at an argument position; drives tab completion.
  enum Argument: Sendable, Equatable {
    /// One of fixed words, such as `left` and `right`.
    case keyword([String])
    /// A verb (`help VERB`).
    case verb
    /// An album index or title.
    case album
    /// `FIELD=VALUE` assignments.
    case assignments
    /// A track's `FIELD=VALUE` assignments (`edit ALBUM track N …`).
    case trackAssignments
    /// A file path.
    case path
    /// A query (`find`, `list`, `stats`): field names, a field's values, `@` view names.
    case query
    /// A saved view's name.
    case viewName
    /// Free text or a number: nothing to complete.
    case text
  }

  /// The word that invokes the command.
  var verb: String
  /// Other words that invoke it (`ls` for `list`).
  var aliases: [String]
  /// The group `help` lists it in.
  var group: Group
  /// The argument synopsis, such as `[ALBUM]`.
  var synopsis: String
  /// One line for the verb list.
  var summary: String
  /// More detail for `help VERB`.
  var details: String
  /// Example lines for `help VERB`.
  var examples: [String]
  /// The arguments by position, for completion.
  var arguments: [Argument]

  /// Creates a configuration.
  init(
    verb: String, aliases: [String] = [], group: Group, synopsis: String = "",
    summary: String, details: String = "", examples: [String] = [], arguments: [Argument] = []
  ) {
    self.verb = verb
    self.aliases = aliases
    self.group = group
    self.synopsis = synopsis
    self.summary = summary
    self.details = details
    self.examples = examples
    self.arguments = arguments
  }

  /// `verb SYNOPSIS`.
  var usage: String { synopsis.isEmpty ? verb : verb + " " + synopsis }
}
