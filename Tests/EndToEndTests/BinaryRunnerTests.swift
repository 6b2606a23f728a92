import Foundation
import TestSupport
import Testing

/// A runner's private home goes with the runner (issue 37, item 5): no test has to remember
/// to remove it, and one that stops early leaves none behind in the temp dir.
struct BinaryRunnerTests {
  @Test func aHomeIsRemovedWithItsRunnerWhateverTheRunWroteThere() throws {
    var home = ""
    do {
      let runner = BinaryRunner()
      home = runner.home.path
      let result = try runner.run(script: "add \"Kept Here\" year=1999\n")
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try !FileManager.default.contentsOfDirectory(atPath: home).isEmpty)
    }
    #expect(!FileManager.default.fileExists(atPath: home))
  }

  @Test func aCopyOfARunnerKeepsTheHomeUntilTheLastCopyGoes() {
    var home = ""
    var copy: BinaryRunner?
    do {
      let runner = BinaryRunner()
      home = runner.home.path
      copy = runner
    }
    #expect(FileManager.default.fileExists(atPath: home))
    #expect(copy?.home.path == home)
    copy = nil
    #expect(!FileManager.default.fileExists(atPath: home))
  }
}
