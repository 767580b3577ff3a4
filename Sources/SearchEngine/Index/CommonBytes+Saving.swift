extension CommonBytes {
  /// Writes the bits to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(Int64(count))
    try writer.write(slot)
    try writer.write(Int64(rows.count))
    for row in rows { try writer.write(row) }
  }

  /// Reads bits written by ``write(to:)`` for a column of `values` values, checking that
  /// each byte's slot names a row and each row covers the values and no bit past them.
  init(reading reader: SavedFileReader, values: Int, what: String) throws(SavedIndexError) {
    let count = try reader.readCount("the value count of \(what)'s common bytes")
    let slot: [Int8] = try reader.readArray("the slots of \(what)'s common bytes")
    let rowCount = try reader.readCount("the rows of \(what)'s common bytes", limit: 256)
    let words = (values + 63) / 64
    var rows: [[UInt64]] = []
    for _ in 0..<rowCount {
      let row: [UInt64] = try reader.readArray("a row of \(what)'s common bytes")
      let spare = values % 64 == 0 ? 0 : ~UInt64(0) << UInt64(values % 64)
      guard row.count == words, row.last.map({ $0 & spare == 0 }) ?? true else {
        throw reader.corrupt("a row of \(what)'s common bytes does not cover its \(values) values")
      }
      rows.append(row)
    }
    let used = slot.filter { $0 >= 0 }
    guard count == values, slot.count == 256, slot.allSatisfy({ $0 >= -1 }),
      used.count == rowCount, Set(used).count == rowCount, used.allSatisfy({ Int($0) < rowCount })
    else { throw reader.corrupt("the common bytes of \(what) do not match its rows") }
    self.init(slot: slot, rows: rows, count: count)
  }

  /// Whether these bits may be those of `values`: the bytes that have bits are those that
  /// get them (``tracked(in:)``, from the byte counts), and no row has more bits than its
  /// byte has occurrences.
  ///
  /// Which values each bit names is not checked: that takes as long as computing the bits, a third
  /// more than opening the file (cities500).
  func isConsistent(with values: FoldedValues) -> Bool {
    let tracked = Self.tracked(in: values)
    return tracked.count == rows.count
      && tracked.allSatisfy { byte in
        slot[Int(byte)] >= 0
          && rows[Int(slot[Int(byte)])].reduce(0) { $0 + $1.nonzeroBitCount }
            <= values.byteCounts[Int(byte)]
      }
  }
}
