import Dispatch
import Foundation
import TestSupport
import Testing

@testable import BlueSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct SyscallTests {
  @Test func aFailedCallThrowsItsNameAndTheLowercaseReason() {
    #expect(throws: SystemError("open", errno: ENOENT)) {
      try syscall("open") { open("/no/such/bluelib/file", O_RDONLY | O_CLOEXEC) }
    }
    let error = SystemError("open", errno: ENOENT)
    #expect(error.reason == "no such file or directory")
    #expect(error.description == "open: no such file or directory")
    #expect(SystemError.reason(EACCES) == "permission denied")
  }

  @Test func aSuccessfulCallReturnsItsResult() throws {
    let directory = try TemporaryDirectory()
    let fd = try syscall("open") { open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    #expect(fd >= 0)
    #expect(try syscall("close") { close(fd) } == 0)
  }

  @Test func anInterruptedCallIsRetried() throws {
    var calls = 0
    let result = try syscall("read") { () -> Int in
      calls += 1
      if calls < 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 3)
  }

  @Test func anInterruptedCallStopsWhenTheSignalSaysSo() throws {
    var calls = 0
    var asked = 0
    let stop = { () -> String? in
      asked += 1
      return asked == 2 ? "interrupt" : nil
    }
    let call = { () -> Int32 in
      calls += 1
      errno = EINTR
      return -1
    }
    let outcome = try syscall("poll", stoppingOnSignal: stop, call)
    guard case .stopped(let stop) = outcome else {
      Issue.record("expected the call to stop, got \(outcome)")
      return
    }
    #expect(stop == "interrupt")
    #expect(calls == 2, "the first interruption, not asked to stop, is retried")
  }

  @Test func anInterruptibleCallThatSucceedsCompletes() throws {
    let never = { () -> String? in "never asked" }
    let outcome = try syscall("read", stoppingOnSignal: never, { 5 })
    guard case .completed(let value) = outcome else {
      Issue.record("expected the call to complete, got \(outcome)")
      return
    }
    #expect(value == 5)
  }

  @Test func wouldBlockIsThrownForTheCallerToHandle() throws {
    let (readEnd, writeEnd) = try nonBlockingPipe()
    defer {
      close(readEnd)
      close(writeEnd)
    }
    var byte: UInt8 = 0
    do {
      try syscall("read") { read(readEnd, &byte, 1) }
      Issue.record("an empty non-blocking pipe has nothing to read")
    } catch {
      #expect(error.wouldBlock)
      #expect(error.call == "read")
    }
  }

  @Test func writeAllWaitsForRoomInAFullNonBlockingPipe() throws {
    let (readEnd, writeEnd) = try nonBlockingPipe()
    defer { close(readEnd) }
    let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0) }
    let received = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var read: [UInt8] = []
    DispatchQueue.global().async {
      let flags = fcntl(readEnd, F_GETFL)
      _ = fcntl(readEnd, F_SETFL, flags & ~O_NONBLOCK)
      read = (try? readToEnd(readEnd)) ?? []
      received.signal()
    }
    try write(bytes, to: writeEnd)
    close(writeEnd)
    received.wait()
    #expect(read == bytes)
  }

  @Test func writeAllToAClosedPipeThrows() throws {
    let (readEnd, writeEnd) = try nonBlockingPipe()
    defer { close(writeEnd) }
    close(readEnd)
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    #expect(throws: SystemError("write", errno: EPIPE)) {
      try write([1], to: writeEnd)
    }
  }

  private func write(_ bytes: [UInt8], to fd: Int32) throws(SystemError) {
    try bytes.withUnsafeBytes { buffer in Result { () throws(SystemError) in try writeAll(fd, buffer) } }.get()
  }

  private func nonBlockingPipe() throws -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    try syscall("pipe") { pipe(&ends) }
    for fd in ends { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return (ends[0], ends[1])
  }
}
