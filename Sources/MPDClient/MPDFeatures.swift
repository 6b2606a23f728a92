import BlueSystem
import MusicSource

/// What a server speaks, as it says itself (`commands`, `tagtypes`) rather than as its
/// version suggests: Mopidy greets as MPD 0.19.0 and lists `sticker`-less commands, some of
/// which it answers `Not implemented`; an MPD lists `sticker` only with a sticker database.
///
/// Asked once per server (its pool of connections), on the first connection that needs to
/// know, and asked again once the connection to the server was lost and is back (another
/// server, or the same one configured otherwise, may answer there now). A command listed
/// that answers as absent (`ACK [0@0] {replay_gain_mode} Not implemented`, `"listallinfo"
/// has been disabled in the server`, `unknown command`) is absent from then on: it is not
/// sent again (``MPDServer/learn(from:)``).
struct MPDFeatures: Sendable, Equatable {
  /// The commands the server listed, less those met answering as absent; nil when it
  /// listed none (it refused `commands`, or is too old to have it): then it is taken to
  /// have every one, as before features were asked.
  var commands: Set<String>?
  /// The tags it reads (`tagtypes`); nil when it did not say.
  var tags: [String]?
  /// The protocol version of its greeting (`[0, 19, 0]` for Mopidy).
  var version: [Int]
  /// Whether a `find` with a filter expression was refused although the version promised
  /// it: the listing goes the older way from then on.
  var filtersRefused = false

  /// Commands met answering as absent although listed (or when none were).
  var absent: Set<String> = []

  /// Whether the server has `command`, as far as it said and showed.
  func has(_ command: String) -> Bool {
    !absent.contains(command) && (commands?.contains(command) ?? true)
  }

  /// Whether `find` takes filter expressions and `window` (`find "(modified-since '0')"
  /// window 0:4000`): MPD's protocol from 0.21 on. This one thing is read from the version,
  /// as a syntax has no name of its own in `commands`; no query is sent to try it (Mopidy
  /// refuses it, but `list` would read an expression as a tag's value and answer nothing).
  var filters: Bool {
    !version.lexicographicallyPrecedes([0, 21]) && has("find") && !filtersRefused
  }

  /// Whether the server gives covers (`readpicture` or `albumart`).
  var covers: Bool { has("readpicture") || has("albumart") }

  /// What the server named of `subsystems` that `idle` may wait for: `sticker` only when it
  /// keeps stickers, as its `commands` say (Mopidy would wait for ever on a name it does
  /// not know, and it does not know `sticker`).
  func idleSubsystems(_ subsystems: [String]) -> [String] {
    subsystems.filter { $0 != "sticker" || has("sticker") }
  }

  /// Asks `connection`'s server: `commands`, then `tagtypes`; a refusal of either leaves
  /// that part unknown.
  static func ask(_ connection: MPDConnection) throws(MPDError) -> MPDFeatures {
    var features = MPDFeatures(commands: nil, tags: nil, version: connection.version)
    do throws(MPDError) {
      let listed = Set(try connection.run(MPDCommand("commands")).filter { $0.name == "command" }.map(\.value))
      if !listed.isEmpty { features.commands = listed }
    } catch  where error.leavesConnectionUsable {
      // Unknown: every command is tried.
    }
    if features.has("tagtypes") {
      do throws(MPDError) {
        features.tags = try connection.run(MPDCommand("tagtypes")).filter { $0.name == "tagtype" }.map(\.value)
      } catch  where error.leavesConnectionUsable {
        // Unknown: the tags are not chosen.
      }
    }
    return features
  }
}

extension MPDError {
  /// The command this refusal says the server does not have, though it may list it:
  /// `ACK [0@0] {sticker} Not implemented` (Mopidy), `ACK [0@0] {listallinfo} "listallinfo"
  /// has been disabled in the server` (Mopidy's `command_blacklist`), `ACK [5@0] {} unknown
  /// command "readpicture"`; nil for any other answer.
  var absentCommand: String? {
    guard case .refused(let code, let command, let message) = reason else { return nil }
    switch code {
    case 0 where message == "Not implemented" || message.hasSuffix("has been disabled in the server"):
      return command
    case 5 where message.hasPrefix("unknown command"):
      // The name in quotes, when the server gives it (`{}` names none in Mopidy's answer).
      let quoted = message.split(separator: "\"", omittingEmptySubsequences: false)
      return quoted.count >= 3 && !quoted[1].isEmpty ? String(quoted[1]) : command
    default:
      return nil
    }
  }
}

extension MPDServer {
  /// What ``MPDServer`` keeps of its server's features: what it said, and what it showed
  /// since (a command absent, filter expressions refused).
  struct FeatureCache {
    var asked: MPDFeatures?
    var absent: Set<String> = []
    var filtersRefused = false

    /// What was asked, with what was learnt since.
    var features: MPDFeatures? {
      guard var features = asked else { return nil }
      if let listed = features.commands { features.commands = listed.subtracting(absent) }
      features.absent = absent
      features.filtersRefused = filtersRefused
      return features
    }
  }

  /// What the server speaks: asked on `connection` the first time, then kept.
  func features(_ connection: MPDConnection) throws(MPDError) -> MPDFeatures {
    if let known = knownFeatures { return known }
    let asked = try MPDFeatures.ask(connection)
    return featureCache.withLock { cache in
      // Another thread may have asked meanwhile: the first answer stands.
      if cache.asked == nil { cache.asked = asked }
      return cache.features ?? asked
    }
  }

  /// What the server speaks, asked on a connection of the pool when not known yet.
  func features() throws(MPDError) -> MPDFeatures {
    if let known = knownFeatures { return known }
    return try withConnection { connection throws(MPDError) in try features(connection) }
  }

  /// What is known of the server's features, without asking.
  var knownFeatures: MPDFeatures? { featureCache.withLock { $0.features } }

  /// Takes `error` in: a command it says the server does not have is absent from now on.
  func learn(from error: MPDError) {
    guard let command = error.absentCommand else { return }
    featureCache.withLock { _ = $0.absent.insert(command) }
  }

  /// Remembers that the server refused a filter expression its version promised.
  func learnFiltersRefused() {
    featureCache.withLock { $0.filtersRefused = true }
  }

  /// Forgets what the server speaks: asked again when next needed (the connection to it
  /// was lost and is back).
  func forgetFeatures() {
    featureCache.withLock { $0 = FeatureCache() }
  }
}
