import BlueCovers
import FoundationEssentials
import Synchronization

/// The covers of a Subsonic server's albums (`subsonic://USER@HOST:PORT/cover:ID`), one
/// `getCoverArt` by cover id (an album's, or the song's or folder's the server names for
/// it), never one per track: the loader caches each URL, so albums that share a cover
/// fetch it once. A server that has none for the id (`status: failed`, error 70) answers
/// "none", which the library remembers.
package struct SubsonicCoverSource: CoverSource {
  /// The server the covers come from.
  package let server: SubsonicServer

  /// The covers of `server`.
  package init(server: SubsonicServer) {
    self.server = server
  }

  package var schemes: Set<String> { ["subsonic"] }

  package func fetch(_ url: String, limits: CoverLimits) async throws(CoverFailure) -> Data {
    let id = try cover(of: url)
    let cancelled = Atomic<Bool>(false)
    let result = await BlockingRead.run(on: BlockingRead.serverQueue) {
      Result { () throws(CoverFailure) -> Data in
        try read(id, limits: limits) { cancelled.load(ordering: .relaxed) }
      }
    } onCancel: {
      cancelled.store(true, ordering: .relaxed)
    }
    return try result.get()
  }

  /// The cover id a URL names on this source's server.
  private func cover(of url: String) throws(CoverFailure) -> String {
    let prefix = server.root + "/" + SubsonicServer.coverPrefix
    guard url.hasPrefix(prefix), let id = SubsonicServer.id(filed: url.dropFirst(prefix.count)) else {
      throw .badURL(url, reason: "not a cover of \(server.name), the server of this shell")
    }
    return id
  }

  /// The bytes of the cover `id`, within `limits`; `isCancelled` ends the wait.
  private func read(_ id: String, limits: CoverLimits, isCancelled: @escaping () -> Bool) throws(CoverFailure)
    -> Data
  {
    let answer: HTTPGetter.Answer
    do {
      answer = try server.http.get(
        server.url("getCoverArt", [("id", id)]), headers: ["Accept: image/*"],
        limits: HTTPGetter.Limits(
          maxBytes: limits.maxBytes, timeout: limits.timeout,
          connectTimeout: min(SubsonicServer.connectTimeout, limits.timeout)),
        isCancelled: isCancelled)
    } catch {
      throw error
    }
    // supysonic answers 404 for an id it does not know, Navidrome a placeholder image.
    if answer.status == 404 { throw .noneOnServer(server: server.name, song: "") }
    guard (200...299).contains(answer.status) else { throw .httpStatus(answer.status) }
    let type = answer.headers["content-type"]?.lowercased() ?? ""
    if type.hasPrefix("application/json") || type.hasPrefix("text/") || answer.body.first == UInt8(ascii: "{") {
      // An answer, not a picture: `status: failed`, 70 when there is none.
      guard let said = try? SubsonicAnswer.decode(answer.body), let error = said.error else {
        throw .notAnImage
      }
      if error.code == 70 { throw .noneOnServer(server: server.name, song: "") }
      throw .downloadFailed(SubsonicError(server: server.name, .failed(code: error.code, message: error.message)).cause)
    }
    return answer.body
  }
}
