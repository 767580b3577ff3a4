/// Finds the lines of a text that match a pattern: the engine behind `SearchREPL filter`.
public struct LineFilter: Sendable {
  /// The folded search text.
  public let pattern: FoldedPattern
  /// How lines are folded; the same normaliser folded the pattern.
  public let normalizer: Normalizer

  /// Lines per chunk when a large input is split over the cores: big enough that starting a
  /// chunk (a folder and its cache) is noise, small enough to balance two to eight cores.
  static let linesPerChunk = 16_384

  /// Creates a filter for the search text `query`.
  public init(query: String, normalizer: Normalizer) throws(ICUError) {
    self.normalizer = normalizer
    self.pattern = try FoldedPattern(query, normalizer: normalizer)
  }

  /// Indices (from 0, ascending) of the lines that match. An empty pattern matches every line.
  ///
  /// - Complexity: O(*n*) in the size of the input, split over all cores.
  public func matchingLines(in input: LineInput) throws(ICUError) -> [Int] {
    if pattern.isEmpty { return Array(0..<input.count) }
    let ranges = Parallel.ranges(count: input.count, size: Self.linesPerChunk)
    let chunks = Parallel.map(chunks: ranges.count) { chunk -> Result<[Int], ICUError> in
      do throws(ICUError) {
        return .success(try matchingLines(in: input, lines: ranges[chunk]))
      } catch {
        return .failure(error)
      }
    }
    var result: [Int] = []
    for chunk in chunks { result.append(contentsOf: try chunk.get()) }
    return result
  }

  private func matchingLines(in input: LineInput, lines: Range<Int>) throws(ICUError) -> [Int] {
    let folder = try normalizer.makeFolder()
    var buffer = FoldBuffer()
    var matches: [Int] = []
    let result: Result<Void, ICUError> = input.bytes.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return .success(()) }
      do throws(ICUError) {
        for index in lines {
          let range = input.searchedRange(ofLine: index)
          let line = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
          try folder.fold(line, into: &buffer, recordsMap: false)
          if pattern.firstMatch(in: buffer, from: 0) != nil { matches.append(index) }
        }
        return .success(())
      } catch { return .failure(error) }
    }
    try result.get()
    return matches
  }
}
