#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process environment as a dictionary (read without Foundation).
package func processEnvironment() -> [String: String] {
  var result: [String: String] = [:]
  var pointer = environ
  while let entry = pointer.pointee {
    // The name ends at the first `=`, found as a byte: String's Character search cost a
    // start-up some 5,000 instructions a variable.
    let length = strlen(entry)
    if let equals = memchr(entry, 0x3D, length) {
      let nameLength = UnsafeRawPointer(equals) - UnsafeRawPointer(entry)
      let bytes = UnsafeRawBufferPointer(start: entry, count: length)
      result[String(decoding: bytes[..<nameLength], as: UTF8.self)] = String(
        decoding: bytes[(nameLength + 1)...], as: UTF8.self)
    }
    pointer += 1
  }
  return result
}
