extension ValueMap {
  /// Writes the map to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(Int64(itemCount))
    try writer.write(explicit == nil ? UInt8(0) : UInt8(1))
    guard let explicit else { return }
    try writer.write(explicit.start)
    try writer.write(explicit.end)
    try writer.write(explicit.owner)
  }

  /// Reads a map written by ``write(to:)`` for a column of `values` values, checking that
  /// every item's values and every value's owner are in range, and agree.
  init(reading reader: SavedFileReader, values: Int, what: String) throws(SavedIndexError) {
    let items = try reader.readCount("the item count of \(what)")
    let isExplicit = try reader.read(UInt8.self, "the kind of \(what)")
    guard isExplicit <= 1 else { throw reader.corrupt("the kind of \(what) is \(isExplicit)") }
    guard isExplicit == 1 else {
      guard items == values else {
        throw reader.corrupt("\(what) has \(items) items for \(values) values")
      }
      self.init(itemCount: items, explicit: nil)
      return
    }
    let start: [Int32] = try reader.readArray("the first values of \(what)")
    let end: [Int32] = try reader.readArray("the value ends of \(what)")
    let owner: [Int32] = try reader.readArray("the value owners of \(what)")
    guard start.count == items, end.count == items, owner.count == values,
      zip(start, end).allSatisfy({ $0 >= 0 && $0 <= $1 && Int($1) <= values }),
      owner.allSatisfy({ $0 >= -1 && Int($0) < items })
    else { throw reader.corrupt("the value map of \(what) is out of range") }
    // Each item owns exactly the values of its range: a scan maps a matching value to its
    // owner, a highlight an item to its values.
    var owned = 0
    for item in 0..<items {
      for value in Int(start[item])..<Int(end[item]) where Int(owner[value]) != item {
        throw reader.corrupt(
          "value \(value) of \(what) is in item \(item)'s range, owned by \(owner[value])")
      }
      owned += Int(end[item] - start[item])
    }
    guard owner.lazy.filter({ $0 >= 0 }).count == owned else {
      throw reader.corrupt("the value map of \(what) owns values outside the items' ranges")
    }
    self.init(itemCount: items, explicit: Explicit(start: start, end: end, owner: owner))
  }
}
