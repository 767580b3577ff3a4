/// Checks of the big columns read from a saved index file that walk a whole column: through
/// ``SavedCursor``s, so that checking a mapped file does not make its pages resident.
enum SavedChecks {
  /// Whether `starts` ascend strictly from a first start of at least 0, each at most the end
  /// of `bytes`, and every value `v` ≥ 1 ends with `separator` (`bytes[starts[v] - 1]`). The
  /// caller checks the first and last start's values.
  static func separate(
    _ starts: ColumnStorage<Int32>, bytes: ColumnStorage<UInt8>, separator: UInt8,
    reader: SavedFileReader
  ) -> Bool {
    let starts = reader.cursor(over: starts, as: Int32.self)
    let text = reader.cursor(over: bytes, as: UInt8.self)
    guard starts.count > 0, let first = starts.element(0), first >= 0 else { return false }
    var previous = Int(first)
    for value in 1..<starts.count {
      guard let start = starts.element(value) else { return false }
      let end = Int(start)
      guard end > previous, end <= text.count, text.element(end - 1) == separator else {
        return false
      }
      previous = end
    }
    return true
  }

  /// The number of true flags of `flags`, or nil when a byte of them is neither 0 nor 1
  /// (read as bytes, before any is read as a `Bool`).
  static func countOnes(_ flags: ColumnStorage<Bool>, reader: SavedFileReader) -> Int? {
    let bytes = reader.cursor(over: flags, as: UInt8.self)
    var ones = 0
    for index in 0..<bytes.count {
      guard let byte = bytes.element(index), byte <= 1 else { return nil }
      ones += Int(byte)
    }
    return ones
  }
}
