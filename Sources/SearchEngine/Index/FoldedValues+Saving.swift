extension FoldedValues {
  /// Writes the folded column to a saved index file.
  ///
  /// A new part of the column (such as a posting list) is one more `write` here and the
  /// matching `readArray` and check in the initialiser below.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(bytes)
    try writer.write(starts)
    try writer.write(interior)
    try writer.write(leadingSpace)
    try writer.write(trailingSpace)
    try writer.write(byteCounts)
    try writer.write(commonBytes == nil ? UInt8(0) : UInt8(1))
    try commonBytes?.write(to: writer)
  }

  /// Reads a folded column written by ``write(to:)`` for a field of `values` values,
  /// checking what the scans rely on: the separators around every value, ascending starts,
  /// interior boundaries inside the bytes and space lists naming values, ascending.
  init(reading reader: SavedFileReader, values: Int, what: String) throws(SavedIndexError) {
    let bytes: [UInt8] = try reader.readArray("the folded text of \(what)")
    let starts: [Int32] = try reader.readArray("the folded starts of \(what)")
    let interior: [Int32] = try reader.readArray("the interior boundaries of \(what)")
    let leading: [Int32] = try reader.readArray("the leading spaces of \(what)")
    let trailing: [Int32] = try reader.readArray("the trailing spaces of \(what)")
    let counts: [Int] = try reader.readArray("the byte counts of \(what)")
    guard starts.count == values + 1 else {
      throw reader.corrupt("\(what) has \(starts.count - 1) folded values, the model \(values)")
    }
    let separated = starts.withUnsafeBufferPointer { starts in
      bytes.withUnsafeBufferPointer { bytes in
        guard bytes.first == Self.separator, starts[0] == 1,
          Int(starts[starts.count - 1]) == bytes.count
        else { return false }
        for value in 1..<starts.count {
          let end = Int(starts[value])
          guard end > Int(starts[value - 1]), bytes[end - 1] == Self.separator else {
            return false
          }
        }
        return true
      }
    }
    guard separated else {
      throw reader.corrupt("the folded starts of \(what) do not fit its folded text")
    }
    guard Self.isAscending(interior, below: bytes.count),
      Self.isAscending(leading, below: values), Self.isAscending(trailing, below: values)
    else { throw reader.corrupt("the boundaries or space lists of \(what) are out of order") }
    guard counts.count == 256, counts.allSatisfy({ $0 >= 0 && $0 <= bytes.count }) else {
      throw reader.corrupt("the byte counts of \(what) are out of range")
    }
    let hasBits = try reader.read(UInt8.self, "the common bytes flag of \(what)")
    guard hasBits <= 1 else { throw reader.corrupt("the common bytes flag of \(what)") }
    let common =
      hasBits == 1 ? try CommonBytes(reading: reader, values: values, what: what) : nil
    self.init(
      bytes: bytes, starts: starts, interior: interior, leadingSpace: leading,
      trailingSpace: trailing, byteCounts: counts, commonBytes: common)
  }

  /// Whether `array` is strictly ascending, from 0 and below `limit`.
  private static func isAscending(_ array: [Int32], below limit: Int) -> Bool {
    var previous: Int32 = -1
    for element in array {
      guard element > previous, Int(element) < limit else { return false }
      previous = element
    }
    return true
  }
}
