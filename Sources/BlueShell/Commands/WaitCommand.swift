import BlueLibrary
import BlueSystem

/// `wait [SECONDS]`: block until pending downloads finish; Ctrl-C stops waiting.
struct WaitCommand: Command {
  static let configuration = CommandConfiguration(
    verb: "wait", group: .covers, synopsis: "[SECONDS]",
    summary: "wait until pending downloads finish (or SECONDS pass)",
    details: "Ctrl-C cancels the pending downloads. Scripts use 'wait' so their output is the same every run.",
    examples: ["download all; wait", "wait 5"], arguments: [.text])

  let seconds: Double?

  init(arguments: [Word]) throws(CommandError) {
    seconds = try Self.parseOptional(arguments) { word throws(CommandError) in
      guard let value = Double(word.text), value >= 0, value.isFinite, value <= 86_400 else {
        throw CommandError(
          "SECONDS must be a number from 0 to 86400, got \(TextSanitizer.quotedWord(word.text))")
      }
      return value
    }
  }

  func execute(in environment: CommandEnvironment) throws -> CommandOutcome {
    let library = environment.library
    // Not only running downloads: finished ones whose status line is still on its way
    // (cache hits always are, for a moment) must be waited for too.
    guard !library.coversAreIdle else { return .nothing }
    let before = library.pendingCoverCount
    if environment.isInteractive && before > 0 {
      environment.announce("waiting for \(Library.counted(before, "download")) (Ctrl-C cancels)")
    }
    let interactive = environment.isInteractive
    let cancellation = environment.cancellation
    let end = library.waitForCovers(
      timeout: seconds, drain: interactive ? 5 : 1, wakingOn: cancellation.wakeUpPipe.readEnd
    ) {
      // Status lines as they come, at a terminal.
      environment.deliverMessages()
      return cancellation.coverWaitStop()
    }
    switch end {
    case .done:
      return .nothing
    case .cancelled:
      // Ctrl-C at a terminal says so; a signal that ends the run leaves without a word.
      if interactive && !cancellation.isRunEnding { throw CommandError("cancelled the pending downloads") }
      return .nothing
    case .timedOut:
      let left = library.pendingCoverCount
      return .lines([
        "still \(Library.counted(left, "download")) pending after \(Self.format(seconds ?? 0)) s"
      ])
    }
  }

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
