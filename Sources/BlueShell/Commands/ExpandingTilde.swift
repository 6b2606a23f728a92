import BlueLibrary

/// `~/x` → `$HOME/x`, as a shell would.
func expandingTilde(_ path: String) -> String {
  guard path == "~" || path.hasPrefix("~/"), let home = processEnvironment()["HOME"] else { return path }
  return home + path.dropFirst()
}
