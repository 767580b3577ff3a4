/// The folded text of many items, stored column-wise: one contiguous byte array plus the
/// offset where each item starts.
package struct FoldedColumn: Sendable {
  /// The folded text of every item, back to back.
  package private(set) var bytes: [UInt8] = []
  /// `offsets[i]..<offsets[i + 1]` is item `i`'s folded text; one more entry than items.
  package private(set) var offsets: [Int] = [0]
  /// Scalar boundaries of `bytes` that fall inside a folded character, ascending.
  private(set) var interior: [Int] = []

  /// The number of items.
  package var count: Int { offsets.count - 1 }

  /// The folded text of item `index`.
  package subscript(index: Int) -> String {
    String(decoding: bytes[offsets[index]..<offsets[index + 1]], as: UTF8.self)
  }

  mutating func append(_ buffer: FoldBuffer) {
    let start = bytes.count
    bytes.append(contentsOf: buffer.bytes)
    for offset in buffer.interior { interior.append(start + offset) }
    offsets.append(bytes.count)
  }

  mutating func append(contentsOf other: FoldedColumn) {
    let start = bytes.count
    bytes.append(contentsOf: other.bytes)
    for offset in other.offsets.dropFirst() { offsets.append(start + offset) }
    for offset in other.interior { interior.append(start + offset) }
  }
}

extension Normalizer {
  /// Items per chunk when a column is folded over all cores.
  static let itemsPerChunk = 16_384

  /// Folds every text into one column, split over all cores.
  ///
  /// - Complexity: O(*n*) in the total length, divided by the number of cores.
  package func foldColumn(_ texts: [String]) throws(ICUError) -> FoldedColumn {
    let ranges = Parallel.ranges(count: texts.count, size: Self.itemsPerChunk)
    let chunks = Parallel.map(chunks: ranges.count) { chunk -> Result<FoldedColumn, ICUError> in
      do throws(ICUError) {
        let folder = try makeFolder()
        var column = FoldedColumn()
        for index in ranges[chunk] { column.append(try folder.foldBuffer(texts[index])) }
        return .success(column)
      } catch { return .failure(error) }
    }
    var column = FoldedColumn()
    for chunk in chunks { column.append(contentsOf: try chunk.get()) }
    return column
  }
}
