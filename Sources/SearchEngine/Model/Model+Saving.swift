extension SearchModel {
  /// Writes the model (schema, columns, value maps, attributes, order) to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try schema.write(to: writer)
    try writer.write(Int64(version))
    try writer.write(isInIdentityOrder ? UInt8(1) : 0)
    try writer.write(order.map(\.rawValue))
    try writer.write(isAlive.map { $0 ? UInt8(1) : 0 })
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
    let schema = try SearchModel.Schema(reading: reader)
    let version = try reader.readCount("the model version", limit: Int.max)
    let identityOrder = try reader.read(UInt8.self, "the order flag")
    let order: [Int32] = try reader.readArray("the order")
    let alive: [UInt8] = try reader.readArray("the living items")
    let positions: [Int32] = try reader.readArray("the positions")
    let limit = alive.count
    var seen = [Bool](repeating: false, count: limit)
    for id in order {
      guard id >= 0, Int(id) < limit, alive[Int(id)] == 1, !seen[Int(id)] else {
        throw reader.corrupt("the order holds an item \(id) that is not alive or twice")
      }
      seen[Int(id)] = true
    }
    guard seen == alive.map({ $0 == 1 }) else {
      throw reader.corrupt("the order misses living items")
    }
    if identityOrder == 1 {
      guard positions.isEmpty, order.indices.dropFirst().allSatisfy({ order[$0 - 1] < order[$0] })
      else { throw reader.corrupt("the model is marked in identity order but is not") }
    } else {
      guard positions.count == limit,
        positions.indices.allSatisfy({
          alive[$0] == 1
            ? positions[$0] >= 0 && Int(positions[$0]) < order.count
              && Int(order[Int(positions[$0])]) == $0
            : positions[$0] == -1
        })
      else { throw reader.corrupt("the positions do not match the order") }
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
      attributeOfItem: codes, order: order.map { ItemID(rawValue: $0) },
      isAlive: alive.map { $0 == 1 }, positions: positions, isInIdentityOrder: identityOrder == 1,
      version: version)
  }
}
