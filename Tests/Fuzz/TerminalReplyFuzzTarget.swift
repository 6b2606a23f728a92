// A libFuzzer target for the reader of terminal answers (kitty's `ESC _G…`, the cell size
// `ESC [6;H;Wt`, the device attributes `ESC [?…c`, the sixel registers `ESC [?1;0;NS`),
// compiled with Sources/BlueShell/Graphics/TerminalReply.swift alone (it depends on nothing):
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -package-name bluelib -O \
//     Sources/BlueShell/Graphics/TerminalReply.swift Tests/Fuzz/TerminalReplyFuzzTarget.swift -o fuzz-reply
//   ./fuzz-reply -max_total_time=15 -max_len=8192 Tests/Fuzz/reply-corpus
//
// `bash .ci/run fuzz [SECONDS]` does both. Whatever a terminal (or a hostile program writing
// to it) sends must be read without a crash; the bytes read in two pieces, split where the
// input's first byte says, must give the same reply as in one piece (the probe reads in
// chunks of whatever size the terminal's writes make); nothing comes out that did not go in.

@_cdecl("LLVMFuzzerTestOneInput")
package func terminalReplyFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard size > 0 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let (whole, consumed) = TerminalReply.parse(bytes)
  precondition(consumed <= bytes.count, "consumed more than was read")
  precondition(whole.typedAhead.count <= consumed, "typed more keys than bytes were read")
  if let cell = whole.cellSize { precondition(cell.width > 0 && cell.height > 0, "a cell of no pixels") }
  if let registers = whole.colorRegisters { precondition(registers > 0, "no colour registers") }

  // In two pieces, as the probe reads them: what a read leaves is read again with the rest.
  let split = Int(data[0]) * bytes.count / 255
  var pieces = TerminalReply()
  let first = pieces.read(Array(bytes[..<split]))
  precondition(first <= split, "consumed more than the first piece")
  let rest = Array(bytes[first...])
  let second = pieces.read(rest)
  precondition(second <= rest.count, "consumed more than the second piece")
  precondition(pieces == whole, "in two pieces the reply differs: \(pieces) vs \(whole)")
  precondition(rest[second...].elementsEqual(bytes[consumed...]), "in two pieces a different tail is left")
  return 0
}
