/// For one folded column, which values hold each sequence of three bytes (a gram): a term of
/// three bytes or more is then looked for only in the values that hold its rarest grams, not
/// in every byte of the column.
///
/// A gram is three byte classes rather than three bytes (``classes``: letters and digits each
/// their own class, other bytes sharing a few), so that the grams of a column fit a table of
/// 2¹⁸ slots while it is built. Two grams that share their classes share their values, which
/// only adds candidates: the values a lookup gives hold every gram of the term when they are
/// not sure to, and the caller checks each. A gram never spans two values.
///
/// The postings of a gram are its values' numbers, ascending, each written as its distance
/// from the one before in LEB128 (seven bits a byte): about a byte and a half per value and
/// gram in real text.
///
/// Values appended after the build (``valueCount`` and on) are not covered: a search scans
/// them as it scans a column without grams, so the index stays exact through model changes,
/// which only append values (a replaced or removed value loses its owner, which the caller
/// checks), until ``SearchIndex`` builds it again.
struct GramIndex: Sendable {
  /// The values covered: `0..<valueCount`.
  let valueCount: Int
  /// The grams that occur, ascending.
  private let grams: [UInt32]
  /// Where the postings of each of ``grams`` start in ``postings``, and one past the last.
  private let starts: [Int]
  /// How many values hold each of ``grams``.
  private let counts: [Int32]
  /// Every gram's postings, one after the other.
  private let postings: [UInt8]

  /// The bytes the index takes.
  var byteCount: Int { grams.count * 16 + postings.count }

  /// The class of each byte: a letter (either case) or a digit its own, space its own, other
  /// ASCII 6 classes, the bytes of other characters 20 (a folded column holds no 0xFF inside
  /// a value).
  static let classes: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
    switch byte {
    case 0x61...0x7A: UInt8(byte - 0x61 + 1)
    case 0x41...0x5A: UInt8(byte - 0x41 + 1)
    case 0x30...0x39: UInt8(byte - 0x30 + 27)
    case 0x20: 37
    case 0..<0x80: UInt8(38 + byte % 6)
    default: UInt8(44 + byte % 20)
    }
  }

  /// The fewest values appended since the build that have the index built again (above an
  /// eighth of the column).
  static let rebuildFloor = 32 * 1024

  /// The number of gram codes: three classes of 6 bits.
  static let codeCount = 1 << 18

  /// The fewest values a piece of the build takes: it runs in two pieces per core, each with
  /// tables of every gram code (about 5 MB).
  static let valuesPerPiece = 16 * 1024

  /// The grams of the values of `values`, built on every core, in pieces of at least
  /// `valuesPerPiece` values.
  ///
  /// - Complexity: O(*n*) in the bytes of the column, two passes over them.
  init(values: FoldedValues, valuesPerPiece: Int = Self.valuesPerPiece) {
    let valueCount = values.count
    let pieceCount = min(
      2 * Parallel.activeProcessorCount, (valueCount + valuesPerPiece - 1) / valuesPerPiece)
    let pieces = Parallel.ranges(
      count: valueCount, size: (valueCount + max(pieceCount, 1) - 1) / max(pieceCount, 1))
    // First pass, piece by piece: how many values hold each gram, the bytes of their
    // distances, and the first and last value.
    let tallies = Parallel.map(chunks: pieces.count) { piece in
      Tally(values: values, range: pieces[piece])
    }
    // Where each piece writes each gram: the pieces' postings of a gram follow each other, the
    // first distance of a piece counted from the last value of the pieces before.
    var grams: [UInt32] = []
    var starts: [Int] = [0]
    var counts: [Int32] = []
    var cursors = [[Int]](repeating: [], count: pieces.count)
    var previous = [[Int32]](repeating: [], count: pieces.count)
    var total = 0
    for code in 0..<Self.codeCount {
      var count: Int32 = 0
      var last: Int32 = 0
      var bytes = 0
      for tally in tallies where tally.counts[code] > 0 {
        bytes += tally.bytes[code] + Self.encodedSize(UInt32(tally.first[code] - last))
        last = tally.last[code]
        count += tally.counts[code]
      }
      guard count > 0 else { continue }
      grams.append(UInt32(code))
      counts.append(count)
      last = 0
      var cursor = total
      for (piece, tally) in tallies.enumerated() where tally.counts[code] > 0 {
        cursors[piece].append(cursor)
        previous[piece].append(last)
        cursor += tally.bytes[code] + Self.encodedSize(UInt32(tally.first[code] - last))
        last = tally.last[code]
      }
      total += bytes
      starts.append(total)
    }
    // Second pass: each piece writes its postings where the first said, apart from the others.
    let output = DisjointWrites<UInt8>(count: total, initial: 0)
    let (slots, pieceCursors, piecePrevious) = (grams, cursors, previous)
    _ = Parallel.map(chunks: pieces.count) { piece -> Bool in
      tallies[piece].writePostings(
        of: values, range: pieces[piece], grams: slots, cursors: pieceCursors[piece],
        previous: piecePrevious[piece], into: output)
      return true
    }
    self.valueCount = valueCount
    self.grams = grams
    self.starts = starts
    self.counts = counts
    self.postings = output.array(0..<total)
  }

  /// How many values hold the rarest gram of `needle`: what ``candidates(for:limit:)`` gives
  /// at most; nil when it has no gram.
  func rarestCount(for needle: [UInt8]) -> Int? {
    lookUp(needle)?.map { Int($0.count) }.min()
  }

  /// The values (ascending) that may hold `needle`: those that hold its rarest grams; nil when
  /// it has no gram (fewer than three bytes) or the rarest is held by more than `limit` values,
  /// for which reading the column costs less.
  func candidates(for needle: [UInt8], limit: Int) -> [Int32]? {
    guard var found = lookUp(needle) else { return nil }
    found.sort { $0.count < $1.count }
    guard let rarest = found.first, Int(rarest.count) <= limit else { return nil }
    guard rarest.count > 0 else { return [] }  // no value holds one of its grams
    var result = decode(rarest.slot)
    // The next rarest grams, while their lists are not much longer than what is left.
    for next in found.dropFirst().prefix(2) where Int(next.count) < result.count * 16 {
      result = intersection(result, next.slot)
      if result.isEmpty { break }
    }
    return result
  }

  /// Each gram of `needle`: how many values hold it and its slot (count 0 and no slot for a
  /// gram no value holds); nil when `needle` has fewer than three bytes.
  private func lookUp(_ needle: [UInt8]) -> [(count: Int32, slot: Int)]? {
    guard needle.count >= 3 else { return nil }
    var found: [(count: Int32, slot: Int)] = []
    var code = UInt32(Self.classes[Int(needle[0])]) << 6 | UInt32(Self.classes[Int(needle[1])])
    for byte in needle.dropFirst(2) {
      code = (code << 6 | UInt32(Self.classes[Int(byte)])) & UInt32(Self.codeCount - 1)
      found.append(slot(of: code).map { (counts[$0], $0) } ?? (0, -1))
    }
    return found
  }

  /// The slot of a gram in ``grams``, or nil when no value holds it.
  private func slot(of code: UInt32) -> Int? {
    var (low, high) = (0, grams.count)
    while low < high {
      let middle = (low + high) / 2
      if grams[middle] < code { low = middle + 1 } else { high = middle }
    }
    return low < grams.count && grams[low] == code ? low : nil
  }

  /// The values of the gram in `slot`, ascending.
  private func decode(_ slot: Int) -> [Int32] {
    var values: [Int32] = []
    values.reserveCapacity(Int(counts[slot]))
    walk(slot) { values.append($0) }
    return values
  }

  /// The values of `list` that the gram in `slot` holds.
  private func intersection(_ list: [Int32], _ slot: Int) -> [Int32] {
    var result: [Int32] = []
    var index = 0
    walk(slot) { value in
      while index < list.count && list[index] < value { index += 1 }
      if index < list.count && list[index] == value { result.append(value) }
    }
    return result
  }

  /// Calls `body` with each value of the gram in `slot`, ascending.
  private func walk(_ slot: Int, _ body: (Int32) -> Void) {
    postings.withUnsafeBufferPointer { bytes in
      var offset = starts[slot]
      let end = starts[slot + 1]
      var value: Int32 = 0
      while offset < end {
        var delta: UInt32 = 0
        var shift: UInt32 = 0
        while true {
          let byte = bytes[offset]
          offset += 1
          delta |= UInt32(byte & 0x7F) << shift
          if byte < 0x80 { break }
          shift += 7
        }
        value += Int32(bitPattern: delta)
        body(value)
      }
    }
  }

  /// The bytes of `value` in LEB128.
  @inline(__always)
  static func encodedSize(_ value: UInt32) -> Int {
    value < 1 << 7 ? 1 : value < 1 << 14 ? 2 : value < 1 << 21 ? 3 : value < 1 << 28 ? 4 : 5
  }

  /// Calls `body` with the code of each gram of value `value` once, in order of first
  /// occurrence.
  @inline(__always)
  fileprivate static func forEachGram(
    of value: Int, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int32>,
    _ body: (Int) -> Void
  ) {
    let lower = Int(starts[value])
    let upper = Int(starts[value + 1]) - 1
    guard upper - lower >= 3 else { return }
    var code = Int(classes[Int(bytes[lower])]) << 6 | Int(classes[Int(bytes[lower + 1])])
    for offset in (lower + 2)..<upper {
      code = (code << 6 | Int(classes[Int(bytes[offset])])) & (codeCount - 1)
      body(code)
    }
  }
}

/// What the first pass learns of one piece of values, by gram code.
private struct Tally: Sendable {
  /// How many values of the piece hold the gram.
  var counts: [Int32]
  /// The bytes of the distances between them (the first not counted).
  var bytes: [Int]
  /// The first and last value of the piece that hold it.
  var first: [Int32]
  var last: [Int32]

  init(values: FoldedValues, range: Range<Int>) {
    var counts = [Int32](repeating: 0, count: GramIndex.codeCount)
    var bytes = [Int](repeating: 0, count: GramIndex.codeCount)
    var first = [Int32](repeating: -1, count: GramIndex.codeCount)
    var last = [Int32](repeating: -1, count: GramIndex.codeCount)
    values.bytes.withUnsafeBufferPointer { text in
      values.starts.withUnsafeBufferPointer { starts in
        for value in range {
          let number = Int32(value)
          GramIndex.forEachGram(of: value, bytes: text, starts: starts) { code in
            let previous = last[code]
            guard previous != number else { return }  // again in the same value
            if previous < 0 {
              first[code] = number
            } else {
              bytes[code] += GramIndex.encodedSize(UInt32(number - previous))
            }
            last[code] = number
            counts[code] += 1
          }
        }
      }
    }
    self.counts = counts
    self.bytes = bytes
    self.first = first
    self.last = last
  }
}

extension Tally {
  /// Writes the postings of the values `range`, this tally's piece, into `output`.
  ///
  /// The gram in `grams[i]` (one of those the piece holds, in order) goes at `cursors[i]`, its
  /// first distance counted from `previous[i]`. Each piece writes byte ranges of its own.
  func writePostings(
    of values: FoldedValues, range: Range<Int>, grams: [UInt32], cursors: [Int],
    previous: [Int32], into output: DisjointWrites<UInt8>
  ) {
    // For each code the piece holds: where it writes next, and the last value written.
    var position = [Int](repeating: -1, count: GramIndex.codeCount)
    var written = [Int32](repeating: -1, count: GramIndex.codeCount)
    var index = 0
    for code in grams where counts[Int(code)] > 0 {
      position[Int(code)] = cursors[index]
      written[Int(code)] = previous[index]
      index += 1
    }
    var seen = [Int32](repeating: -1, count: GramIndex.codeCount)
    values.bytes.withUnsafeBufferPointer { text in
      values.starts.withUnsafeBufferPointer { starts in
        for value in range {
          let number = Int32(value)
          GramIndex.forEachGram(of: value, bytes: text, starts: starts) { code in
            guard seen[code] != number else { return }
            seen[code] = number
            var delta = UInt32(number - written[code])
            written[code] = number
            var offset = position[code]
            while delta >= 0x80 {
              output[offset] = UInt8(delta & 0x7F) | 0x80
              delta >>= 7
              offset += 1
            }
            output[offset] = UInt8(delta)
            position[code] = offset + 1
          }
        }
      }
    }
  }
}
