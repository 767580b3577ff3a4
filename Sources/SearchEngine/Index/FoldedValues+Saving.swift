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
    try writer.write(grams == nil ? UInt8(0) : UInt8(1))
    try grams?.write(to: writer)
  }

  /// Reads a folded column written by ``write(to:)`` for a field of `values` values,
  /// checking what the scans rely on before they use it: the separators around every value,
  /// ascending starts within the bytes, interior boundaries inside them, the byte counts and
  /// the space lists against the bytes, the common bytes' rows against the byte counts, and
  /// the grams' postings against the values (``GramIndex/init(reading:values:what:)``).
  ///
  /// That the folded text is the folding of the model's text is checked by the caller where
  /// it is cheap (`firstValueFoldedOtherwise(than:table:)`); see
  /// `SearchCorpus.init(contentsOf:)` for what a changed file may still change.
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
    guard bytes.first == Self.separator else {
      throw reader.corrupt("the folded text of \(what) does not start with the separator")
    }
    try reader.checkStarts(
      starts, first: 1, of: bytes, separator: Self.separator, "the folded starts of \(what)")
    // One separator per value and the first: none inside a value, where a scan would take
    // the middle of a value for its start.
    var expected = Self.byteCounts(of: bytes)
    guard expected[Int(Self.separator)] == values + 1 else {
      throw reader.corrupt("the folded text of \(what) has a separator inside a value")
    }
    expected[Int(Self.separator)] = 0
    guard counts == expected else {
      throw reader.corrupt("the byte counts of \(what) do not match its folded text")
    }
    guard Self.isAscending(interior, below: bytes.count) else {
      throw reader.corrupt("the interior boundaries of \(what) are out of order or past its text")
    }
    let hasBits = try reader.read(UInt8.self, "the common bytes flag of \(what)")
    guard hasBits <= 1 else { throw reader.corrupt("the common bytes flag of \(what)") }
    let common =
      hasBits == 1 ? try CommonBytes(reading: reader, values: values, what: what) : nil
    let spaces = FoldedValues(
      bytes: bytes, starts: starts, interior: [], leadingSpace: [], trailingSpace: [],
      byteCounts: [], commonBytes: nil
    ).spaceLists()
    guard leading == spaces.leading, trailing == spaces.trailing else {
      throw reader.corrupt("the space lists of \(what) do not match its folded text")
    }
    self.init(
      bytes: bytes, starts: starts, interior: interior, leadingSpace: leading,
      trailingSpace: trailing, byteCounts: counts, commonBytes: common)
    guard common?.isConsistent(with: self) ?? true else {
      throw reader.corrupt("the common bytes of \(what) do not match its folded text")
    }
    let hasGrams = try reader.read(UInt8.self, "the grams flag of \(what)")
    guard hasGrams <= 1 else { throw reader.corrupt("the grams flag of \(what)") }
    if hasGrams == 1 { grams = try GramIndex(reading: reader, values: self, what: what) }
  }

  /// The first value whose text is ASCII that folds byte for byte by `table`
  /// (`Folder.asciiFolds`) but whose folded text is not that folding, or nil: the part of
  /// the folded text checkable against `column` at about the cost of reading it (the other
  /// values take the folder's loop, as much as building the index).
  func firstValueFoldedOtherwise(than column: TextColumn, table: [UInt8]) -> Int? {
    column.bytes.withUnsafeBufferPointer { raw in
      bytes.withUnsafeBufferPointer { folded in
        table.withUnsafeBufferPointer { table in
          for value in 0..<count {
            let text = column.range(of: value)
            let range = self.range(of: value)
            var k = 0
            while k < text.count {
              let byte = table[Int(raw[text.lowerBound + k])]
              if byte == 0xFF { break }
              if k >= range.count || folded[range.lowerBound + k] != byte { return value }
              k += 1
            }
            if k == text.count && k != range.count { return value }
          }
          return nil
        }
      }
    }
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
