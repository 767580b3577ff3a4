/// The folded text of a model's searched fields, held column-wise for scanning at memory speed.
///
/// Built once per model (over all cores) and kept in step with the model's changes by
/// ``apply(changesOf:)`` without a rebuild: new and updated values are folded and appended;
/// values of removed or updated items are no longer owned by any item and are skipped.
package struct SearchIndex: Sendable {
  /// How the model's text and the queries are folded.
  package let normalizer: Normalizer
  /// The folded values of each field; nil for fields that are not searched.
  private(set) var fields: [FoldedValues?]
  /// The model version the index reflects.
  package private(set) var modelVersion: Int

  /// Values per chunk when the index is built over all cores.
  static let valuesPerChunk = 32_768

  /// Folds every searched field of `model`.
  ///
  /// - Complexity: O(*n*) in the model's text, divided over the cores.
  /// `progress`, when given, counts the values folded.
  package init(model: SearchModel, normalizer: Normalizer, progress: LoadProgress? = nil)
    throws(ICUError)
  {
    self.normalizer = normalizer
    self.modelVersion = model.version
    let searched = model.schema.fields.indices.filter { model.schema.fields[$0].isSearched }
    progress?.begin(.indexing, total: searched.reduce(0) { $0 + model.columns[$1].valueCount })
    var fields: [FoldedValues?] = []
    for (field, spec) in model.schema.fields.enumerated() {
      fields.append(
        spec.isSearched
          ? try Self.fold(model.columns[field], normalizer: normalizer, progress: progress) : nil)
    }
    // The grams, timed apart for the benchmarks.
    let clock = ContinuousClock()
    let start = clock.now
    for field in fields.indices {
      guard var folded = fields[field] else { continue }
      fields[field] = nil
      folded.grams = GramIndex(values: folded)
      fields[field] = folded
    }
    gramBuildTime = clock.now - start
    self.fields = fields
  }

  /// How long building the fields' grams took, when this index was built rather than read.
  package private(set) var gramBuildTime: Duration = .zero

  /// An index of stored parts, checked by the caller (see `SearchIndex+Saving.swift`).
  init(normalizer: Normalizer, fields: [FoldedValues?], modelVersion: Int) {
    self.normalizer = normalizer
    self.fields = fields
    self.modelVersion = modelVersion
  }

  /// The bytes the gram indexes of the fields take (see ``GramIndex``).
  package var gramByteCount: Int { fields.reduce(0) { $0 + ($1?.grams?.byteCount ?? 0) } }

  /// Whether field `field` is indexed (searched).
  package func isIndexed(field: Int) -> Bool { fields[field] != nil }

  /// The folded bytes of every indexed field, as scans read them: what a benchmark's bandwidth
  /// baseline passes over.
  package var foldedColumns: [[UInt8]] { fields.compactMap { $0?.bytes } }

  private static func fold(
    _ column: TextColumn, normalizer: Normalizer, progress: LoadProgress?
  ) throws(ICUError) -> FoldedValues {
    let ranges = Parallel.ranges(count: column.valueCount, size: valuesPerChunk)
    let folders = FolderPool(normalizer: normalizer)
    var result = FoldedValues()
    result.reserve(values: column.valueCount, bytes: column.bytes.count)
    // In waves of a few chunks per core, each joined before the next is folded: the memory
    // beside the column is one wave's chunks, which the next wave reuses, not the column
    // twice over.
    let wave = 2 * Parallel.activeProcessorCount
    for first in stride(from: 0, to: ranges.count, by: wave) {
      let waveRanges = ranges[first..<min(first + wave, ranges.count)]
      let chunks = Parallel.map(chunks: waveRanges.count) {
        chunk -> Result<FoldedValues, ICUError> in
        let values = waveRanges[waveRanges.startIndex + chunk]
        do throws(ICUError) {
          let folded = try folders.withFolder { folder throws(ICUError) in
            try fold(column, values: values, folder: folder)
          }
          progress?.advance(by: values.count)
          return .success(folded)
        } catch { return .failure(error) }
      }
      for chunk in chunks { result.append(contentsOf: try chunk.get()) }
    }
    result.commonBytes = CommonBytes(values: result)
    return result
  }

  private static func fold(_ column: TextColumn, values: Range<Int>, folder: Folder)
    throws(ICUError) -> FoldedValues
  {
    let first = values.isEmpty ? 0 : column.range(of: values.lowerBound).lowerBound
    let last = values.isEmpty ? 0 : column.range(of: values.upperBound - 1).upperBound
    return try FoldedValues(
      folding: values.lazy.map { column.range(of: $0) }, of: column.bytes, byteCount: last - first,
      with: folder)
  }

  /// Brings the index up to date with `model` after changes: folds the values the model has
  /// gained since the index last saw it, and extends their common bytes' bits to them.
  ///
  /// The bits are computed again over every value only when the new values moved a letter or
  /// digit across `CommonBytes.share` (see `CommonBytes.extend(to:)`), which takes far
  /// more new text than a few items hold.
  ///
  /// - Complexity: O(*k*) in the text of the new values; O(*n*) in the model's text when a
  ///   byte gains or loses its bits, or when the values appended since a field's grams were
  ///   built reach an eighth of it (amortised, O(1) a value).
  package mutating func apply(changesOf model: SearchModel) throws(ICUError) {
    guard model.version != modelVersion else { return }
    for field in fields.indices {
      guard var folded = fields[field] else { continue }
      let column = model.columns[field]
      if folded.count < column.valueCount {
        fields[field] = nil  // drop the reference so the append does not copy
        let extra = try Self.fold(
          column, values: folded.count..<column.valueCount, folder: try normalizer.makeFolder())
        var common = folded.commonBytes
        folded.commonBytes = nil  // the bits' one owner, so that they grow in place
        folded.append(contentsOf: extra)
        if common?.extend(to: folded) != true { common = CommonBytes(values: folded) }
        folded.commonBytes = common
        // The grams cover the values they were built over; searches scan the others, and
        // the grams are built again when those are an eighth of the column.
        let covered = folded.grams?.valueCount ?? 0
        if folded.grams != nil, (folded.count - covered) * 8 > max(covered, GramIndex.rebuildFloor)
        {
          folded.grams = GramIndex(values: folded)
        }
      }
      fields[field] = folded
    }
    modelVersion = model.version
  }
}
