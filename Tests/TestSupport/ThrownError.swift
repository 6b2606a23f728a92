/// The error `body` threw, or nil when it threw none; a body with a typed `throws` keeps its
/// type (`thrownError { () throws(LibraryError) in … }` is a `LibraryError?`).
package func thrownError<Failure: Error, Result>(_ body: () throws(Failure) -> Result) -> Failure? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
