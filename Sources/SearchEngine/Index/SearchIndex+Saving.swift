extension SearchIndex {
  /// Writes the folded columns to a saved index file; the normaliser is the file header's.
  ///
  /// A new index structure is written here after the fields, or per field in
  /// `FoldedValues.write(to:)` (as the grams are), and read back in the same order below.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(Int64(modelVersion))
    try writer.write(fields.map { $0 == nil ? UInt8(0) : UInt8(1) })
    for field in fields { try field?.write(to: writer) }
  }

  /// Reads folded columns written by ``write(to:)`` for `model`, checking that exactly its
  /// searched fields are indexed, each with a folded value per value of the model, and
  /// that each value of ASCII text that folds byte for byte is folded so.
  init(reading reader: SavedFileReader, model: SearchModel, normalizer: Normalizer)
    throws(SavedIndexError)
  {
    let version = try reader.readCount("the index's model version", limit: Int.max)
    let indexed: [UInt8] = try reader.readArray("the indexed fields")
    let schema = model.schema
    guard version == model.version, indexed.count == schema.fields.count,
      zip(indexed, schema.fields).allSatisfy({ ($0 == 1) == $1.isSearched })
    else { throw reader.corrupt("the index does not match the model's fields") }
    let table: [UInt8]
    do { table = try normalizer.makeFolder().asciiFolds } catch {
      throw SavedIndexError(
        .stale, file: reader.path, reason: "its folding cannot be made: \(error)")
    }
    var fields: [FoldedValues?] = []
    for (field, spec) in schema.fields.enumerated() {
      guard spec.isSearched else {
        fields.append(nil)
        continue
      }
      let column = model.columns[field]
      let folded = try FoldedValues(
        reading: reader, values: column.valueCount, what: "field \"\(spec.name)\"")
      if let value = folded.firstValueFoldedOtherwise(than: column, table: table) {
        throw reader.corrupt(
          "the folded text of field \"\(spec.name)\" is not the folding of value \(value),"
            + " \"\(column.string(value))\"")
      }
      fields.append(folded)
    }
    self.init(normalizer: normalizer, fields: fields, modelVersion: version)
  }
}
