extension AttributeCodes {
  /// Writes the codes to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(wide == nil ? UInt8(0) : UInt8(1))
    if let wide { try writer.write(wide) } else { try writer.write(narrow) }
  }

  /// Reads codes written by ``write(to:)`` for `items` items, checking each against the
  /// attribute's `values` distinct values.
  init(reading reader: SavedFileReader, items: Int, values: Int, what: String)
    throws(SavedIndexError)
  {
    let isWide = try reader.read(UInt8.self, "the width of \(what)")
    guard isWide <= 1 else { throw reader.corrupt("the width of \(what) is \(isWide)") }
    if isWide == 1 {
      let wide: [UInt32] = try reader.readArray(what)
      self.init(narrow: [], wide: wide)
    } else {
      let narrow: [UInt8] = try reader.readArray(what)
      self.init(narrow: narrow, wide: nil)
    }
    guard count == items else {
      throw reader.corrupt("\(what) has \(count) items, the model \(items)")
    }
    let valid =
      wide.map { $0.allSatisfy { Int($0) < values } }
      ?? narrow.allSatisfy { Int($0) < values }
    guard valid else { throw reader.corrupt("\(what) has a code past its \(values) values") }
  }
}
