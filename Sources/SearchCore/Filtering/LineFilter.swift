/// Finds the lines of a text that match a query without building a model or an index: what
/// `filter` on plain lines needs, and nothing it does not.
///
/// The lines are folded and matched in chunks over all cores, each chunk's folded text thrown
/// away once matched, so memory stays at the input plus one chunk per core. A chunk is matched
/// as the corpus is: each term scans the chunk's folded column, a set is the union of its
/// terms, an inverse term the chunk's lines without it, and the query the intersection of its
/// sets. The answer is the one ``IncrementalFilter`` gives over ``DataSetLoader/loadLines(_:)``
/// of the same input.
package struct LineFilter: Sendable {
  /// Lines per chunk: enough to make a scan worth its setup, few enough to keep several chunks
  /// per core.
  static let linesPerChunk = 16_384

  private let normalizer: Normalizer
  private let sets: [[TermMatcher]]

  package init(query: Query, normalizer: Normalizer) {
    self.normalizer = normalizer
    self.sets = query.sets.map { $0.terms.map(TermMatcher.init) }
  }

  /// The numbers (from 0) of the lines of `input` that match, ascending.
  ///
  /// - Throws: ``ICUError`` when ICU fails to fold.
  package func matchingLines(in input: LineInput) throws(ICUError) -> [Int] {
    if sets.isEmpty { return Array(0..<input.count) }
    let ranges = Parallel.ranges(count: input.count, size: Self.linesPerChunk)
    let folders = FolderPool(normalizer: normalizer)
    let chunks = Parallel.map(chunks: ranges.count) { chunk -> Result<[Int], ICUError> in
      do throws(ICUError) {
        return .success(
          try folders.withFolder { folder throws(ICUError) in
            try matchingLines(ranges[chunk], of: input, folder: folder)
          })
      } catch { return .failure(error) }
    }
    var result: [Int] = []
    for chunk in chunks { result.append(contentsOf: try chunk.get()) }
    return result
  }

  private func matchingLines(_ lines: Range<Int>, of input: LineInput, folder: Folder)
    throws(ICUError) -> [Int]
  {
    let values = try FoldedValues(
      folding: lines.lazy.map { input.searchedRange(ofLine: $0) }, of: input.bytes,
      byteCount: input.printedRange(ofLine: lines.upperBound - 1).upperBound
        - input.printedRange(ofLine: lines.lowerBound).lowerBound,
      with: folder)
    let identity = ValueMap()
    let all = 0..<values.count
    var current: [ItemID]?
    for set in sets {
      var union: [ItemID]?
      for term in set {
        var found: [ItemID] = []
        term.scan(values, valueRange: all, owner: identity, into: &found)
        if !found.isStrictlyAscending() {
          // Values whose white space hides an anchored match come after the others.
          found = found.sorted().removingAdjacentDuplicates()
        }
        if term.isInverse {
          found = QueryEvaluator.difference(all.map { ItemID(rawValue: Int32($0)) }, found)
        }
        union = union.map { QueryEvaluator.union($0, found) } ?? found
      }
      let list = union ?? []
      current = current.map { QueryEvaluator.intersection($0, list) } ?? list
      if current?.isEmpty == true { break }
    }
    return (current ?? []).map { lines.lowerBound + Int($0.rawValue) }
  }
}
