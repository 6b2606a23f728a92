import BlueSystem
import Foundation
import TestSupport
import Testing

@testable import BlueShell

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private let limit = StreamLineReader.maximumLineLength

@Suite("StreamLineReader")
struct StreamLineReaderTests {
  // MARK: - Splitting lines

  @Test(arguments: [
    ("help\nundo\n", [LineEvent.line("help"), .line("undo")]),
    ("help\r\nundo\r\n", [.line("help"), .line("undo")]),
    ("help\nundo", [.line("help"), .line("undo")]),
    ("last\r", [.line("last")]),
    ("\n", [.line("")]),
    ("\n\n", [.line(""), .line("")]),
    ("\r\n", [.line("")]),
    ("a\rb\n", [.line("a\rb")]),
    ("a\r\r\n", [.line("a\r")]),
    ("  padded  \n", [.line("  padded  ")]),
    ("tap \"Café\"; show 東京 🎸\n", [.line("tap \"Café\"; show 東京 🎸")]),
    // A byte order mark starts the file, not the first command; later ones are text.
    ("\u{FEFF}help\n\u{FEFF}x\n", [.line("help"), .line("\u{FEFF}x")]),
    ("\u{FEFF}\r\n", [.line("")]),
  ])
  func splitsOnNewlinesAndDropsCarriageReturnBeforeThem(input: String, lines: [LineEvent]) throws {
    let reader = try pipeReader(feeding: input)
    defer { reader.close() }
    #expect(readAll(reader) == lines + [.endOfInput])
  }

  @Test func emptyInputIsEndOfInputAtOnce() throws {
    let reader = try pipeReader(feeding: "")
    defer { reader.close() }
    #expect(reader.readLine() == .endOfInput)
    #expect(reader.lineNumber == 0)
  }

  @Test func endOfInputRepeatsOnceReached() throws {
    let reader = try pipeReader(feeding: "one\n")
    defer { reader.close() }
    #expect(reader.readLine() == .line("one"))
    #expect(reader.readLine() == .endOfInput)
    #expect(reader.readLine() == .endOfInput)
    #expect(reader.lineNumber == 1)
  }

  @Test func lineNumberCountsEveryLineIncludingMalformedOnes() throws {
    let reader = try pipeReader(feeding: Array("one\n\n".utf8) + [0xFF, 0x0A] + Array("four".utf8))
    defer { reader.close() }
    var numbers: [Int] = []
    for _ in 0..<4 {
      _ = reader.readLine()
      numbers.append(reader.lineNumber)
    }
    #expect(numbers == [1, 2, 3, 4])
    #expect(reader.readLine() == .endOfInput)
    #expect(reader.lineNumber == 4)
  }

  @Test func unreadableDescriptorEndsTheInput() {
    let reader = StreamLineReader(fileDescriptor: -1)
    #expect(reader.readLine() == .endOfInput)
  }

  @Test func readsAFileWrittenToDisk() throws {
    try withTemporaryDirectory { dir in
      let path = dir + "/script"
      try writeFile(path, "tap 2\nshow\n")
      let fd = open(path, O_RDONLY)
      try #require(fd >= 0)
      let reader = StreamLineReader(fileDescriptor: fd, closeWhenDone: true)
      defer { reader.close() }
      #expect(readAll(reader) == [.line("tap 2"), .line("show"), .endOfInput])
    }
  }

  @Test func nonBlockingInputWaitsForMoreInsteadOfEnding() throws {
    // A parent process can leave stdin O_NONBLOCK; a read then fails with EAGAIN while the
    // writer is still producing the script.
    signal(SIGPIPE, SIG_IGN)
    let (readEnd, writeEnd) = try makePipe()
    _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    let reader = StreamLineReader(fileDescriptor: readEnd, closeWhenDone: true)
    _ = Array("first\n".utf8).withUnsafeBytes { POSIX.writeAll(writeEnd, $0) }
    #expect(reader.readLine() == .line("first"))

    let writerDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      usleep(100_000)
      _ = Array("second\n".utf8).withUnsafeBytes { POSIX.writeAll(writeEnd, $0) }
      close(writeEnd)
      writerDone.signal()
    }
    let next = reader.readLine()
    writerDone.wait()
    reader.close()
    #expect(next == .line("second"))
  }

  /// A signal that comes after the reader last asked whether to stop, before its wait for
  /// input blocks, ends the wait: the handler's byte on the wake-up pipe does (a read or poll
  /// of the input alone missed it and waited for input that never came: a script FIFO without
  /// a writer ran on after SIGTERM, 13 times in 100). Here the "signal" is what the second ask
  /// does as it answers no; the input, a pipe, never gets a byte.
  @Test func aSignalBetweenTheAskAndTheWaitEndsTheWait() throws {
    let (readEnd, writeEnd) = try makePipe()
    let wakeUp = WakeUpPipe()
    defer { wakeUp.close() }
    let event = LockedBox<LineEvent?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      var asked = 0
      let reader = StreamLineReader(
        fileDescriptor: readEnd, closeWhenDone: true, wakeUpPipe: wakeUp,
        stopRequested: {
          asked += 1
          if asked == 2 { wakeUp.wake() }
          return asked > 2 ? .terminated : nil
        })
      let read = reader.readLine()
      reader.close()
      event.update { $0 = read }
      done.signal()
    }
    // Only a hang reaches the ceiling; then the input ends, which frees the reader.
    let ended = done.wait(timeout: .now() + 60) == .success
    close(writeEnd)
    if !ended { done.wait() }
    #expect(ended, "still waiting for input after the signal")
    #expect(event.value == .terminated)
  }

  // MARK: - Malformed input

  @Test(
    arguments: [
      ([0x61, 0x62, 0xFF, 0x63], 3),
      ([0xFF], 1),
      ([0x61, 0xC3], 2),
      ([0xC3, 0xA9, 0xC3, 0x28], 3),
      ([0xE2, 0x82], 1),
      ([0xED, 0xA0, 0x80], 1),
      ([0xC0, 0xAF], 1),
      ([0x61, 0xF4, 0x90, 0x80, 0x80], 2),
    ] as [([UInt8], Int)])
  func invalidUTF8IsMalformedAndNamesTheByte(bytes: [UInt8], position: Int) throws {
    let reader = try pipeReader(feeding: bytes + Array("\nhelp\n".utf8))
    defer { reader.close() }
    #expect(
      readAll(reader) == [
        .malformed("line is not valid UTF-8 (byte \(position))"), .line("help"), .endOfInput,
      ])
  }

  @Test(arguments: [
    ("a\0b\n", 2),
    ("\0\n", 1),
    ("tap 2\0\r\n", 6),
  ])
  func nulByteIsMalformedAndNamesTheByte(input: String, position: Int) throws {
    let reader = try pipeReader(feeding: input + "ok\n")
    defer { reader.close() }
    #expect(
      readAll(reader) == [
        .malformed("line contains a NUL byte (byte \(position))"), .line("ok"), .endOfInput,
      ])
  }

  @Test func nulIsReportedBeforeInvalidUTF8() throws {
    let reader = try pipeReader(feeding: [0xFF, 0x00, 0x0A])
    defer { reader.close() }
    #expect(reader.readLine() == .malformed("line contains a NUL byte (byte 2)"))
  }

  // MARK: - Long lines

  @Test func fourMebibyteLineIsMalformedAndTheNextLineStillReads() throws {
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
    let reader = try pipeReader(feeding: long + Array("\nhelp\n".utf8))
    defer { reader.close() }
    #expect(
      reader.readLine()
        == .malformed("line is too long (4194304 bytes; the limit is 1048576 bytes)"))
    #expect(reader.lineNumber == 1)
    #expect(reader.readLine() == .line("help"))
    #expect(reader.lineNumber == 2)
    #expect(reader.readLine() == .endOfInput)
  }

  @Test func tooLongLastLineWithoutNewlineIsMalformed() throws {
    let long = [UInt8](repeating: UInt8(ascii: "y"), count: 3 << 20)
    let reader = try pipeReader(feeding: Array("first\n".utf8) + long)
    defer { reader.close() }
    #expect(
      readAll(reader) == [
        .line("first"),
        .malformed("line is too long (3145728 bytes; the limit is 1048576 bytes)"),
        .endOfInput,
      ])
  }

  @Test func lineOfExactlyTheLimitIsAccepted() throws {
    let text = String(repeating: "z", count: limit)
    let reader = try pipeReader(feeding: text + "\nnext\n")
    defer { reader.close() }
    #expect(reader.readLine() == .line(text))
    #expect(reader.readLine() == .line("next"))
  }

  @Test func lineOfOneByteOverTheLimitIsRejected() throws {
    let text = String(repeating: "z", count: limit + 1)
    let reader = try pipeReader(feeding: text + "\nnext\n")
    defer { reader.close() }
    #expect(
      reader.readLine()
        == .malformed("line is too long (1048577 bytes; the limit is 1048576 bytes)"))
    #expect(reader.readLine() == .line("next"))
  }

  @Test func textReaderOfTheSameLongLineAgrees() {
    let reader = StreamLineReader(text: String(repeating: "w", count: 2 << 20) + "\nok")
    #expect(
      readAll(reader) == [
        .malformed("line is too long (2097152 bytes; the limit is 1048576 bytes)"), .line("ok"),
        .endOfInput,
      ])
  }

  // MARK: - Text, for -c

  @Test(arguments: [
    ("tap 2; show", [LineEvent.line("tap 2; show")]),
    ("help\nundo", [.line("help"), .line("undo")]),
    ("help\r\n", [.line("help")]),
    ("", []),
    ("\n", [.line("")]),
  ])
  func textReaderYieldsTheTextsLines(text: String, lines: [LineEvent]) {
    let reader = StreamLineReader(text: text)
    #expect(readAll(reader) == lines + [.endOfInput])
    #expect(reader.lineNumber == lines.count)
  }

  // MARK: - Robustness

  @Test(arguments: [1 as UInt64, 2, 0xB10E_11B])
  func randomBytesNeverCrashAndEndWithEndOfInput(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let bytes = (0..<(1 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    let newlines = bytes.count(where: { $0 == 0x0A })
    let expectedLines = newlines + (bytes.last == 0x0A ? 0 : 1)

    let reader = try pipeReader(feeding: bytes)
    defer { reader.close() }
    let events = readAll(reader, atMost: expectedLines + 10)
    #expect(events.last == .endOfInput)
    #expect(events.count == expectedLines + 1)
    #expect(reader.lineNumber == expectedLines)
    for event in events.dropLast() {
      switch event {
      case .line(let text):
        #expect(!text.contains("\n") && !text.contains("\0"))
      case .malformed(let reason):
        #expect(
          reason.hasPrefix("line contains a NUL byte")
            || reason.hasPrefix("line is not valid UTF-8"))
      case .interrupted, .endOfInput, .terminated, .key:
        Issue.record("unexpected \(event) before the end of the bytes")
      }
    }
  }

  @Test func randomBytesWithoutNewlinesAreOneTooLongLine() throws {
    var generator = SeededGenerator(seed: 42)
    let bytes = (0..<(3 << 20)).map { _ in UInt8.random(in: 0x80...0xFF, using: &generator) }
    let reader = try pipeReader(feeding: bytes)
    defer { reader.close() }
    #expect(
      readAll(reader) == [
        .malformed("line is too long (3145728 bytes; the limit is 1048576 bytes)"), .endOfInput,
      ])
  }
}
