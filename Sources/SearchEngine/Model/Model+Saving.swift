extension Model {
  /// Writes the model (schema, columns, value maps, attributes, order) to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try schema.write(to: writer)
    try writer.write(Int64(version))
    try writer.write(isInIdentityOrder ? UInt8(1) : 0)
    try writer.write(order)
    try writer.write(isAlive)
    try writer.write(positions)
    for field in schema.fields.indices {
      try columns[field].write(to: writer)
      try valueMaps[field].write(to: writer)
    }
    for attribute in schema.attributes.indices {
      try writer.write(attributeValues[attribute])
      try attributeOfItem[attribute].write(to: writer)
    }
  }

  /// Reads a model written by ``write(to:)``, checking every part against the others: the
  /// order holds each living item once, value maps and codes are in range.
  init(reading reader: SavedFileReader) throws(SavedIndexError) {
    let schema = try Schema(reading: reader)
    let version = try reader.readCount("the model version", limit: Int.max)
    let identityOrder = try reader.read(UInt8.self, "the order flag")
    // Read into memory rather than mapped: the first table of a start copies every identity
    // (``ids``), which from an array is a shared reference, from a mapping a copy beside it.
    let order = ColumnStorage<ItemID>(try reader.readArray("the order"))
    let alive: ColumnStorage<Bool> = try reader.readColumn("the living items")
    let positions: [Int32] = try reader.readArray("the positions")
    let limit = alive.count
    // Each byte is 0 or 1 (read as bytes: another byte is no Bool), and counted.
    guard let living = SavedChecks.countOnes(alive, reader: reader) else {
      throw reader.corrupt("the living items are not 0 or 1")
    }
    guard identityOrder <= 1, order.count == living else {
      throw reader.corrupt("the order holds \(order.count) items, \(living) are alive")
    }
    // As many items as are alive, each alive (and in identity order, ascending: each once).
    guard
      Self.isOrder(
        order, alive: alive, ascending: identityOrder == 1, reader: reader)
    else {
      throw reader.corrupt("the order holds an item that is not alive, or out of order")
    }
    if identityOrder == 1 {
      guard positions.isEmpty else {
        throw reader.corrupt("the model is marked in identity order but has positions")
      }
    } else {
      // Every living item's position holds it, so living items have distinct positions: as
      // many as the order's, each once.
      let valid = order.withUnsafeBufferPointer { order in
        alive.withUnsafeBufferPointer { alive in
          positions.count == limit
            && positions.indices.allSatisfy({
              alive[$0]
                ? positions[$0] >= 0 && Int(positions[$0]) < order.count
                  && Int(order[Int(positions[$0])].rawValue) == $0
                : positions[$0] == -1
            })
        }
      }
      guard valid else { throw reader.corrupt("the positions do not match the order") }
    }
    var columns: [TextColumn] = []
    var maps: [ValueMap] = []
    for field in schema.fields {
      let column = try TextColumn(reading: reader, what: "field \"\(field.name)\"")
      let map = try ValueMap(
        reading: reader, values: column.valueCount, what: "field \"\(field.name)\"")
      guard map.itemCount == limit else {
        throw reader.corrupt("field \"\(field.name)\" has \(map.itemCount) items, not \(limit)")
      }
      columns.append(column)
      maps.append(map)
    }
    var values: [[String]] = []
    var codes: [AttributeCodes] = []
    for name in schema.attributes {
      let distinct = try reader.readStrings("the values of attribute \"\(name)\"")
      guard Set(distinct).count == distinct.count else {
        throw reader.corrupt("attribute \"\(name)\" has a value twice")
      }
      values.append(distinct)
      codes.append(
        try AttributeCodes(
          reading: reader, items: limit, values: distinct.count,
          what: "the codes of attribute \"\(name)\""))
    }
    self.init(
      schema: schema, columns: columns, valueMaps: maps, attributeValues: values,
      attributeOfItem: codes, order: order, isAlive: alive, positions: positions,
      isInIdentityOrder: identityOrder == 1,
      version: version)
  }

  /// Whether every item of `order` is alive and, when `ascending`, each greater than the one
  /// before it. `alive` holds only 0 and 1 (`SavedChecks.countOnes(_:reader:)`).
  private static func isOrder(
    _ order: ColumnStorage<ItemID>, alive: ColumnStorage<Bool>, ascending: Bool,
    reader: SavedFileReader
  ) -> Bool {
    let alive = reader.cursor(over: alive, as: UInt8.self)
    var previous: Int32 = -1
    for id in order {
      guard id.rawValue >= 0, Int(id.rawValue) < alive.count,
        alive.element(Int(id.rawValue)) == 1, !ascending || id.rawValue > previous
      else { return false }
      previous = id.rawValue
    }
    return true
  }
}
