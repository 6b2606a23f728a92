import BlueCovers
import FoundationEssentials
import MusicSource
import Synchronization

/// The covers of a server's albums (`mpd://HOST:PORT/Artist/Album/01.flac`): the song's own
/// picture (`readpicture`), else the cover file of its folder (`albumart`), read in chunks
/// of up to 1 MiB (`binarylimit`), on threads of their own so the loader's tasks never block.
package struct MPDCoverSource: CoverSource {
  /// The server the covers come from.
  package let server: MPDServer

  /// The covers of `server`.
  package init(server: MPDServer) {
    self.server = server
  }

  package var schemes: Set<String> { ["mpd"] }

  /// What a fetch's cancellation reaches from another thread: the connection reading, and
  /// a flag for a read that has not started.
  private final class Cancellation: Sendable {
    let connection = Mutex<MPDConnection?>(nil)
    let requested = Atomic<Bool>(false)
  }

  /// Why the server gives no covers, when it has neither `readpicture` nor `albumart`
  /// (Mopidy): said once by `download`, instead of as each album's failure, and nothing is
  /// asked of it. Known once the server's features are (the start's sync asks them; a
  /// fetch does too): this asks nothing.
  package var setupProblem: String? {
    guard let features = server.knownFeatures, !features.covers else { return nil }
    return noCovers
  }

  /// What ``setupProblem`` says.
  private var noCovers: String { "\(server.name) gives no covers (it has neither 'readpicture' nor 'albumart')" }

  package func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let uri = try song(of: url)
    if let setupProblem { throw .downloadFailed(setupProblem) }
    let deadline = ContinuousClock.now + limits.timeout
    let (seconds, attoseconds) = limits.timeout.components
    let timeout = Double(seconds) + Double(attoseconds) / 1e18
    let cancellation = Cancellation()
    let result = await BlockingRead.run(on: BlockingRead.serverQueue) {
      Result { () throws(CoverFailure) -> Data in
        try read(uri, maxBytes: limits.maxBytes, deadline: deadline, timeout: timeout) { connection in
          cancellation.connection.withLock { $0 = connection }
          return !cancellation.requested.load(ordering: .relaxed)
        }
      }
    } onCancel: {
      cancellation.requested.store(true, ordering: .relaxed)
      cancellation.connection.withLock { $0 }?.cancel.wake()
    }
    return try result.get()
  }

  /// The song a cover URL names on this source's server.
  private func song(of url: String) throws(CoverFailure) -> String {
    let prefix = server.root + "/"
    guard url.hasPrefix(prefix), url.count > prefix.count,
      let place = MPDServer.percentDecoded(url.dropFirst(prefix.count))
    else {
      throw .badURL(url, reason: "not a song of \(server.name), the server of this shell")
    }
    return MPDServer.uri(ofPlace: place)
  }

  /// The most bytes of one chunk (`binarylimit`): a cover of 500 KB in one answer, not
  /// sixty-odd of MPD's default 8 KiB (MPD ≥ 0.22.4; an older one sends 8 KiB, within it).
  static let chunkLimit = 1 << 20

  /// Reads the picture of `uri`, or its folder's cover file, chunk by chunk, all of it by
  /// `deadline` (the download's `timeout` seconds from its start); `started` is told the
  /// connection (to cancel it) and says whether to go on.
  private func read(
    _ uri: String, maxBytes: Int, deadline: ContinuousClock.Instant, timeout: Double,
    started: (MPDConnection) -> Bool
  ) throws(CoverFailure) -> Data {
    let outcome: Result<Data, CoverFailure>
    do throws(MPDError) {
      outcome = try server.withConnection { connection throws(MPDError) -> Result<Data, CoverFailure> in
        guard started(connection) else { return .failure(.cancelled) }
        return try connection.withDeadline(deadline, seconds: timeout) { () throws(MPDError) in
          let features = try server.features(connection)
          guard features.covers else { return .failure(.downloadFailed(noCovers)) }
          if features.has("binarylimit") {
            _ = try? connection.run(MPDCommand("binarylimit", String(Self.chunkLimit)))
          }
          for verb in ["readpicture", "albumart"] where features.has(verb) {
            do throws(MPDError) {
              if let found = try Self.chunks(verb, uri, maxBytes: maxBytes, connection) { return found }
            } catch let error where error.reason.isNoSuchFile {
              // No such picture (no cover file in the song's folder): try the next way.
            }
          }
          return .failure(.noneOnServer(server: server.name, song: uri))
        }
      }
    } catch {
      switch error.reason {
      case .interrupted: throw .cancelled
      case .timedOut(let seconds): throw .timedOut(seconds: seconds)
      default: throw .downloadFailed(error.description)
      }
    }
    return try outcome.get()
  }

  /// Reads a picture with `verb` (`readpicture` or `albumart`) from offset 0 to its size; nil
  /// when the server has none (an empty answer). Each chunk must tell the size the first
  /// told, and end within it.
  private static func chunks(
    _ verb: String, _ uri: String, maxBytes: Int, _ connection: MPDConnection
  ) throws(MPDError) -> Result<Data, CoverFailure>? {
    var data = Data()
    var size: Int?
    repeat {
      var told: Int?
      var chunk = 0
      try connection.stream(
        MPDCommand(verb, uri, String(data.count)),
        pair: { name, value in
          if MPDConnection.equals(name, "size") { told = Int(String(decoding: value, as: UTF8.self)) }
        }, binaryLimit: chunkLimit,
        binary: { bytes in
          chunk = bytes.count
          data.append(contentsOf: bytes)
        })
      guard let total = told, total >= 0 else {
        if size == nil { return nil }
        throw connection.error(.badAnswer("no size in a chunk of the picture"))
      }
      if let size, size != total {
        throw connection.error(.badAnswer("the picture's size changed from \(size) to \(total) bytes"))
      }
      size = total
      if total > maxBytes { return .failure(.tooLarge(maxBytes: maxBytes)) }
      if data.count > total {
        throw connection.error(.badAnswer("more than the \(total) bytes of the picture"))
      }
      if chunk == 0 && data.count < total {
        throw connection.error(.badAnswer("an empty chunk at \(data.count) of \(total) bytes"))
      }
    } while data.count < size ?? 0
    return .success(data)
  }
}

extension MPDError.Reason {
  /// Whether MPD said it has no such file (`ACK [50@0] {albumart} No file exists`).
  var isNoSuchFile: Bool {
    if case .refused(50, _, _) = self { true } else { false }
  }
}
