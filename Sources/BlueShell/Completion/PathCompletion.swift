import BlueSystem

#if canImport(Glibc)
  import Glibc
#endif

/// File-system candidates for `import`/`export`: entries of the prefix's directory whose
/// names start with the prefix's last component, directories marked with `/`.
enum PathCompletion {
  static func entries(matching prefix: String, home: String?) -> [String] {
    let slash = prefix.lastIndex(of: "/")
    let directoryPart = slash.map { String(prefix[...$0]) } ?? ""
    let namePrefix = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
    var directory = directoryPart.isEmpty ? "." : directoryPart
    if directory.hasPrefix("~/"), let home { directory = home + directory.dropFirst() }
    guard let names = directoryEntries(atPath: directory) else { return [] }
    var result: [String] = []
    for name in names {
      guard name.hasPrefix(namePrefix) else { continue }
      guard !name.hasPrefix(".") || namePrefix.hasPrefix(".") else { continue }
      var info = stat()
      let isDirectory =
        stat(directory + "/" + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
      result.append(directoryPart + name + (isDirectory ? "/" : ""))
      if result.count > Completer.listLimit { break }
    }
    return result.sorted()
  }
}
