import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the lines of a text that match a query without building a model or an index: what
/// `filter` on plain lines needs, and nothing it does not.
///
/// The input is read in batches of whole lines. Each batch is cut into chunks that are checked
/// to be UTF-8, folded and matched over all cores, and handed back in input order, so memory
/// stays at one batch and its chunks' folded text whatever the input's size, and the first
/// matches come out while the rest is still being read. Lines that cannot match are rejected
/// before a chunk's column is built (``LinePrefilter``). A chunk is matched as the corpus is:
/// each term scans the chunk's folded column, a set is the union of its terms, an inverse term
/// the chunk's lines without it, and the query the intersection of its sets. The answer is the
/// one ``IncrementalFilter`` gives over SearchDataSets' `DataSetLoader.loadLines(_:)` of the same input.
package struct LineFilter: Sendable {
  private let normalizer: Normalizer
  private let sets: [[TermMatcher]]
  /// Whether a scan may ask how common a byte is (a term of one byte).
  private let countsBytes: Bool
  /// What rejects lines before they are folded into a column, when the query's sets can.
  private let prefilter: LinePrefilter?
  /// Bytes read before a batch is matched (more when a line is longer): what `filter` holds
  /// beside its output.
  private let batchBytes: Int
  /// Bytes per chunk of a batch (more when a line is longer): enough to make a scan worth
  /// its setup, few enough to keep every core busy within a batch.
  private let chunkBytes: Int

  /// A filter of lines for `query`, reading batches of `batchBytes` cut into chunks of
  /// `chunkBytes` (the defaults suit `filter`; tests make them small to cross boundaries),
  /// rejecting the lines that cannot match before folding them (``LinePrefilter``) unless
  /// `prefilters` is false (for tests, which compare both ways).
  package init(
    query: SearchQuery, normalizer: Normalizer, batchBytes: Int = 8 << 20,
    chunkBytes: Int = 256 << 10,
    prefilters: Bool = true
  ) {
    self.normalizer = normalizer
    self.sets = query.sets.map { $0.terms.map(TermMatcher.init) }
    self.countsBytes = sets.joined().contains { $0.needle.count == 1 }
    self.prefilter = prefilters ? LinePrefilter(sets: sets) : nil
    self.batchBytes = max(batchBytes, 1)
    self.chunkBytes = max(chunkBytes, 1)
  }

  /// The matching lines of one chunk of a batch.
  package struct Chunk: Sendable {
    /// The number of lines in the chunk.
    var lineCount = 0
    /// The matching lines, by number in the chunk (from 0), ascending.
    var lines: [Int] = []
    /// Where each matching line is in the batch, as printed (with a final "\r", without the
    /// "\n").
    var printed: [Range<Int>] = []
    /// Why the chunk could not be matched.
    var failure: Failure?
  }

  enum Failure: Sendable {
    /// The first invalid UTF-8 byte: its line (from 0) in the chunk, its offset in the line.
    case invalidUTF8(line: Int, column: Int, byte: UInt8)
    case icu(ICUError)
  }

  // MARK: Entry points

  /// Reads the file at `path`, or standard input when `path` is nil, and hands `write` each
  /// matching line as printed (with a final "\r", without its "\n"), in input order, as soon
  /// as its batch is done.
  ///
  /// - Returns: The number of matching lines.
  /// - Throws: ``InputError`` when the input cannot be read, has a line longer than
  ///   ``LineInput/maximumLineLength`` or is not UTF-8 (the matches of the chunks before the
  ///   one at fault have been written); ``ICUError`` when ICU fails to fold.
  package func filter(readingFile path: String?, write: (UnsafeBufferPointer<UInt8>) -> Void)
    throws -> Int
  {
    let source = path ?? "<stdin>"
    let input: LineBatches
    do {
      input = try LineBatches(path: path)
    } catch {
      throw Self.inputError(error, source: source, isFile: path != nil)
    }
    var matched = 0
    try run(input, source: source, isFile: path != nil) { batch, chunks in
      batch.withUnsafeBufferPointer { bytes in
        for chunk in chunks {
          for range in chunk.printed { write(UnsafeBufferPointer(rebasing: bytes[range])) }
          matched += chunk.printed.count
        }
      }
    }
    return matched
  }

  /// The numbers (from 0) of the lines of `text` that match, ascending, found batch by batch
  /// as ``filter(readingFile:write:)`` finds them.
  ///
  /// - Throws: as ``filter(readingFile:write:)`` does, naming the source "<text>".
  package func matchingLines(in text: [UInt8]) throws -> [Int] {
    var lineCount = 0
    var found: [Int] = []
    try run(LineBatches(bytes: text), source: "<text>", isFile: false) { _, chunks in
      for chunk in chunks {
        found.append(contentsOf: chunk.lines.lazy.map { lineCount + $0 })
        lineCount += chunk.lineCount
      }
    }
    return found
  }

  // MARK: Batches

  /// Matches the batches of `input` and hands each to `handle` with its chunks, in input
  /// order.
  private func run(
    _ input: consuming LineBatches, source: String, isFile: Bool,
    batch handle: ([UInt8], [Chunk]) -> Void
  ) throws {
    let folders = FolderPool(normalizer: normalizer)
    var linesBefore = 0
    var next: (bytes: [UInt8], isLast: Bool)?
    do {
      next = try input.next(bytes: batchBytes, linesBefore: 0)
    } catch {
      throw Self.inputError(error, source: source, isFile: isFile)
    }
    while let batch = next?.bytes {
      // The batch is matched on the other threads while this one reads the next.
      let matched = MatchedBatch()
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) {
        matched.chunks = matchBatch(batch, folders: folders)
      }
      var failure: FileBytes.Failure?
      do {
        // Counted from 0: a line too long is the first of the next batch, numbered below.
        next = try input.next(bytes: batchBytes, linesBefore: 0)
      } catch {
        failure = error
        next = nil
      }
      group.wait()
      let chunks = matched.chunks
      for (index, chunk) in chunks.enumerated() {
        switch chunk.failure {
        case nil: linesBefore += chunk.lineCount
        case .invalidUTF8(let line, let column, let byte):
          handle(batch, Array(chunks[..<index]))
          throw InputError(
            source: source, line: linesBefore + line + 1, column: column + 1,
            reason: "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))",
            hint: NotUTF8.hint(linesBefore == 0 ? batch : [], subject: "the input"))
        case .icu(let error):
          throw error
        }
      }
      handle(batch, chunks)
      if let failure {
        var numbered = failure
        if case .lineTooLong(let line, let limit) = failure {
          numbered = .lineTooLong(line: linesBefore + line, limit: limit)
        }
        throw Self.inputError(numbered, source: source, isFile: isFile)
      }
    }
  }

  private static func inputError(_ failure: FileBytes.Failure, source: String, isFile: Bool)
    -> InputError
  {
    if case .system(let message) = failure {
      return InputError(
        source: source, line: nil,
        reason: "cannot read \(isFile ? "the file" : "standard input"): \(message)",
        hint: isFile ? "check the path" : nil)
    }
    return InputError(
      source: source, line: failure.line, reason: failure.message, hint: failure.hint)
  }

  /// The chunks of a batch, handed from the thread that matched them to the one that reads.
  private final class MatchedBatch: @unchecked Sendable {
    // Written by the matching thread before the group is left, read after the wait.
    var chunks: [Chunk] = []
  }

  /// The chunks of a batch of whole lines, each matched on its own core.
  private func matchBatch(_ batch: [UInt8], folders: FolderPool) -> [Chunk] {
    let bounds = chunkBounds(batch)
    return Parallel.map(chunks: bounds.count) { index in
      batch.withUnsafeBufferPointer { bytes in
        do throws(ICUError) {
          return try folders.withFolder { folder throws(ICUError) in
            try match(bytes, bounds[index], folder: folder)
          }
        } catch {
          return Chunk(failure: .icu(error))
        }
      }
    }
  }

  /// Ranges of about `chunkBytes` that split `batch` after line breaks.
  private func chunkBounds(_ batch: [UInt8]) -> [Range<Int>] {
    var bounds: [Range<Int>] = []
    var start = 0
    while start < batch.count {
      var end = min(start + chunkBytes, batch.count)
      if end < batch.count {
        end = (batch[(end - 1)...].firstIndex(of: 0x0A) ?? batch.count - 1) + 1
      }
      bounds.append(start..<end)
      start = end
    }
    return bounds
  }

  // MARK: One chunk

  /// The lines of `bytes[range]` (whole lines) that match.
  private func match(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, folder: Folder)
    throws(ICUError) -> Chunk
  {
    guard let base = bytes.baseAddress else { return Chunk() }
    var chunk = Chunk()
    // Each line as printed (without "\n"), and as searched (without a final "\r").
    var printed: [Range<Int>] = []
    var searched: [Range<Int>] = []
    var position = range.lowerBound
    while position < range.upperBound {
      var end = range.upperBound
      if let newline = memchr(base + position, 0x0A, range.upperBound - position) {
        end = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
      }
      printed.append(position..<end)
      searched.append(position..<(end > position && base[end - 1] == 0x0D ? end - 1 : end))
      position = end + 1
    }
    chunk.lineCount = printed.count
    if let invalid = UTF8Validation.firstInvalidOffset(
      in: UnsafeBufferPointer(rebasing: bytes[range]))
    {
      let offset = range.lowerBound + invalid
      let line = printed.firstIndex { $0.upperBound >= offset } ?? printed.count - 1
      chunk.failure = .invalidUTF8(
        line: line, column: offset - printed[line].lowerBound, byte: base[offset])
      return chunk
    }
    chunk.lines = try matchingValues(searched, of: bytes, byteCount: range.count, folder: folder)
    chunk.printed = chunk.lines.map { printed[$0] }
    return chunk
  }

  /// The indices of the texts at `ranges` that match, ascending.
  private func matchingValues(
    _ ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, byteCount: Int, folder: Folder
  ) throws(ICUError) -> [Int] {
    if sets.isEmpty { return Array(ranges.indices) }
    guard let prefilter else {
      return try matchingValues(ranges, of: bytes, byteCount: byteCount, folder: folder, of: nil)
    }
    // Only the lines the prefilter keeps are folded and matched.
    let kept = try prefilter.candidates(ranges, of: bytes, folder: folder)
    if kept.isEmpty { return [] }
    let keptRanges = kept.map { ranges[$0] }
    let keptBytes = keptRanges.reduce(0) { $0 + $1.count }
    return try matchingValues(keptRanges, of: bytes, byteCount: keptBytes, folder: folder, of: kept)
  }

  /// The indices of the texts at `ranges` that match, ascending, or of `numbers` (the texts'
  /// own numbers, one per range) at those indices.
  private func matchingValues(
    _ ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, byteCount: Int, folder: Folder,
    of numbers: [Int]?
  ) throws(ICUError) -> [Int] {
    let all = 0..<ranges.count
    let values = try FoldedValues(
      folding: ranges, of: bytes, byteCount: byteCount, with: folder, countsBytes: countsBytes)
    let identity = ValueMap()
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
          found = SortedLists.difference(all.map { ItemID(rawValue: Int32($0)) }, found)
        }
        union = union.map { SortedLists.union($0, found) } ?? found
      }
      let list = union ?? []
      current = current.map { SortedLists.intersection($0, list) } ?? list
      if current?.isEmpty == true { break }
    }
    let found = (current ?? []).map { Int($0.rawValue) }
    guard let numbers else { return found }
    return found.map { numbers[$0] }
  }
}
