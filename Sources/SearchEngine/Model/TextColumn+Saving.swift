extension TextColumn {
  /// Writes the column to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(bytes)
    try writer.write(starts)
  }

  /// Reads a column written by ``write(to:)``, checking that every value lies in the bytes
  /// and ends with the separator.
  init(reading reader: SavedFileReader, what: String) throws(SavedIndexError) {
    let bytes: ColumnStorage<UInt8> = try reader.readColumn("the text of \(what)")
    let starts: ColumnStorage<Int32> = try reader.readColumn("the value starts of \(what)")
    guard reader.first(of: starts) == 0,
      reader.last(of: starts).map({ Int($0) == bytes.count }) == true,
      SavedChecks.separate(
        starts, bytes: bytes, separator: Self.separator, reader: reader)
    else {
      throw reader.corrupt("the value starts of \(what) do not fit its text")
    }
    self.init(bytes: bytes, starts: starts)
  }
}
