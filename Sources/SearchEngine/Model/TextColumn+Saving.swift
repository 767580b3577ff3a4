extension TextColumn {
  /// Writes the column to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(bytes)
    try writer.write(starts)
  }

  /// Reads a column written by ``write(to:)``, checking that every value lies in the bytes
  /// and ends with the separator (`SavedFileReader.checkStarts`).
  init(reading reader: SavedFileReader, what: String) throws(SavedIndexError) {
    let bytes: [UInt8] = try reader.readArray("the text of \(what)")
    let starts: [Int32] = try reader.readArray("the value starts of \(what)")
    try reader.checkStarts(
      starts, first: 0, of: bytes, separator: Self.separator, "the value starts of \(what)")
    self.init(bytes: bytes, starts: starts)
  }
}
