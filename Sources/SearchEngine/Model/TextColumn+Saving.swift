extension TextColumn {
  /// Writes the column to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(bytes)
    try writer.write(starts)
  }

  /// Reads a column written by ``write(to:)``, checking that every value lies in the bytes
  /// and ends with the separator.
  init(reading reader: SavedFileReader, what: String) throws(SavedIndexError) {
    let bytes: [UInt8] = try reader.readArray("the text of \(what)")
    let starts: [Int32] = try reader.readArray("the value starts of \(what)")
    let valid = starts.withUnsafeBufferPointer { starts in
      bytes.withUnsafeBufferPointer { bytes in
        guard starts.first == 0, Int(starts[starts.count - 1]) == bytes.count else {
          return false
        }
        for value in 1..<starts.count {
          let end = Int(starts[value])
          guard end > Int(starts[value - 1]), bytes[end - 1] == Self.separator else {
            return false
          }
        }
        return true
      }
    }
    guard valid else {
      throw reader.corrupt("the value starts of \(what) do not fit its text")
    }
    self.init(bytes: bytes, starts: starts)
  }
}
