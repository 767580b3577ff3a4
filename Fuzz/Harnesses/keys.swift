// fuzz-sources: Sources/SearchREPL/Console/Key.swift
//
// The terminal fronts' key decoder: whatever the bytes, nothing traps, and the keys do not
// depend on how the bytes were split between reads (a read may end anywhere: inside a UTF-8
// character, an escape sequence, a paste marker, a CR LF pair), so nothing is lost or
// duplicated at a split.

/// One input: up to four split points (one byte each), then the bytes a terminal sends.
func fuzzKeys(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let cuts = (0..<4).map { _ in Int(input.byte()) }
  let bytes = input.rest()

  var whole = KeyDecoder()
  let keys = whole.decode(bytes) + whole.flush()

  var split = KeyDecoder()
  var pieces: [Key] = []
  var start = 0
  for cut in cuts.map({ min($0, bytes.count) }).sorted() where cut >= start {
    pieces += split.decode(bytes[start..<cut])
    start = cut
  }
  pieces += split.decode(bytes[start...]) + split.flush()
  require(
    pieces == keys,
    "split at \(cuts.sorted()), \(bytes) decodes as \(pieces), whole as \(keys)")
  return 0
}
