extension GramIndex {
  /// Writes the grams to a saved index file: the values covered, the grams, their postings'
  /// starts, their counts and the postings.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(Int64(valueCount))
    try writer.write(grams)
    try writer.write(starts)
    try writer.write(counts)
    try writer.write(postings)
  }

  /// Reads grams written by ``write(to:)`` for the column `values`, checking everything a
  /// lookup relies on: grams ascending and kept, starts ascending from 0 to the end of the
  /// postings, and each gram's postings whole numbers, as many as its count, ascending and
  /// below the values covered, which are no more than the column's.
  ///
  /// Of which grams each value holds, only the first and last value of each gram are checked:
  /// all of them takes as long as building the grams.
  init(reading reader: SavedFileReader, values: FoldedValues, what: String)
    throws(SavedIndexError)
  {
    let valueCount = try reader.readCount("the values covered by \(what)'s grams")
    let grams: [UInt32] = try reader.readArray("the grams of \(what)")
    let starts: [UInt32] = try reader.readArray("the posting starts of \(what)'s grams")
    let counts: [Int32] = try reader.readArray("the counts of \(what)'s grams")
    let postings: [UInt8] = try reader.readArray("the postings of \(what)'s grams")
    guard valueCount <= values.count else {
      throw reader.corrupt(
        "the grams of \(what) cover \(valueCount) values, the column has \(values.count)")
    }
    guard starts.count == grams.count + 1, counts.count == grams.count,
      starts.first == 0, starts.last.map({ Int($0) == postings.count }) ?? false
    else {
      throw reader.corrupt(
        "the grams of \(what) do not match their starts, counts and postings in number")
    }
    var previous: Int = -1
    for (slot, gram) in grams.enumerated() {
      guard Int(gram) > previous, Int(gram) < Self.codeCount, Self.isKept(Int(gram)) else {
        throw reader.corrupt("gram \(slot) of \(what) (\(gram)) is out of order or unknown")
      }
      previous = Int(gram)
      guard starts[slot] < starts[slot + 1], counts[slot] > 0,
        let (first, last) = Self.wholePostings(
          postings, range: Int(starts[slot])..<Int(starts[slot + 1]), count: Int(counts[slot]),
          below: valueCount)
      else {
        throw reader.corrupt(
          "the postings of gram \(slot) of \(what) are not \(counts[slot]) ascending values"
            + " below \(valueCount)")
      }
      guard Self.holds(values, value: first, gram: Int(gram)),
        Self.holds(values, value: last, gram: Int(gram))
      else {
        throw reader.corrupt(
          "gram \(slot) of \(what) (\(gram)) is not in the values its postings name")
      }
    }
    self.init(
      valueCount: valueCount, grams: grams, starts: starts, counts: counts, postings: postings,
      values: values)
  }

  /// Whether value `value` of `values` holds `gram`.
  private static func holds(_ values: FoldedValues, value: Int, gram: Int) -> Bool {
    var found = false
    values.bytes.withUnsafeBufferPointer { bytes in
      values.starts.withUnsafeBufferPointer { starts in
        forEachGram(of: value, bytes: bytes, starts: starts) { found = found || $0 == gram }
      }
    }
    return found
  }

  /// The first and last value of `range` of `postings` when it is `count` LEB128 distances,
  /// each ending inside the range, that make values ascending from 0 and below `limit`; nil
  /// otherwise.
  private static func wholePostings(
    _ postings: [UInt8], range: Range<Int>, count: Int, below limit: Int
  ) -> (first: Int, last: Int)? {
    postings.withUnsafeBufferPointer { bytes in
      var offset = range.lowerBound
      var value = -1
      var first = -1
      var decoded = 0
      while offset < range.upperBound {
        var delta = 0
        var shift = 0
        while true {
          // A distance of more than five bytes, or one cut by the range's end, is no value.
          guard offset < range.upperBound, shift <= 28 else { return nil }
          let byte = bytes[offset]
          offset += 1
          delta |= Int(byte & 0x7F) << shift
          if byte < 0x80 { break }
          shift += 7
        }
        // The first distance is from 0 (and may be 0); the others at least 1.
        guard decoded == 0 || delta > 0 else { return nil }
        value = decoded == 0 ? delta : value + delta
        if decoded == 0 { first = value }
        decoded += 1
        guard value < limit, decoded <= count else { return nil }
      }
      return decoded == count ? (first, value) : nil
    }
  }
}
