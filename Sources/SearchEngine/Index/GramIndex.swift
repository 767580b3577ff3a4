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
/// Grams with white space or ASCII punctuation in them are left out (``leftOutClasses``): a
/// query's terms are split at white space, so only a quoted phrase has it, and few terms hold
/// punctuation; their other grams still narrow them (a term all of whose grams are left out is
/// scanned for). That is a quarter of the grams of real text.
///
/// A value's first two bytes are a gram too, a start gram, which a term anchored at the start
/// (`^sa`) looks up with its other grams: the values it gives are those that start so, and
/// those that start with white space, which anchored terms skip (``FoldedValues/leadingSpace``).
///
/// Three lowercase letters or digits are a gram of their own when the column holds no capital
/// ASCII letter (``isExact(_:atStart:)``), and two at the start: the values that hold the gram
/// hold those very bytes, so a term of three such bytes (two at the start) needs no check of
/// its candidates, except where a character of several code points might put a hit's end
/// inside it (``valuesWithInterior``) or white space precedes it.
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
  let grams: [UInt32]
  /// Where the postings of each of ``grams`` start in ``postings``, and one past the last.
  let starts: [UInt32]
  /// How many values hold each of ``grams``.
  let counts: [Int32]
  /// Every gram's postings, one after the other.
  let postings: [UInt8]
  /// Whether the column held no capital ASCII letter when it was built: see
  /// ``isExact(_:atStart:)``.
  private let lettersAreExact: Bool
  /// The covered values with an interior offset (inside a character of several code points),
  /// ascending: a hit of an ASCII term may end inside a character only there.
  let valuesWithInterior: [Int32]
  /// The covered values that start with white space, ascending: a term anchored at the start
  /// may match them whatever their start gram.
  let valuesWithLeadingSpace: [Int32]

  /// The bytes the index takes.
  var byteCount: Int {
    grams.count * 12 + postings.count
      + (valuesWithInterior.count + valuesWithLeadingSpace.count) * 4
  }

  /// The class of each byte: a letter (either case) or a digit its own, white space one, other
  /// ASCII 6 classes, the bytes of other characters 20 (a folded column holds no 0xFF inside a
  /// value).
  static let classes: [UInt8] = (0...255).map { (byte: Int) -> UInt8 in
    switch byte {
    case 0x61...0x7A: UInt8(byte - 0x61 + 1)
    case 0x41...0x5A: UInt8(byte - 0x41 + 1)
    case 0x30...0x39: UInt8(byte - 0x30 + 27)
    case 0x09...0x0D, 0x20: 37
    case 0..<0x80: UInt8(38 + byte % 6)
    default: UInt8(44 + byte % 20)
    }
  }

  /// The classes of ASCII white space and punctuation, whose grams are left out.
  static let leftOutClasses: ClosedRange<UInt8> = 37...43

  /// Whether the gram `code` is one the index keeps: none of its classes is left out.
  @inline(__always)
  static func isKept(_ code: Int) -> Bool {
    let left = Int(leftOutClasses.lowerBound)...Int(leftOutClasses.upperBound)
    return !left.contains(code & 63) && !left.contains((code >> 6) & 63)
      && !left.contains(code >> 12)
  }

  /// The fewest values appended since the build that have the index built again (above an
  /// eighth of the column).
  static let rebuildFloor = 32 * 1024

  /// The number of gram codes: three classes of 6 bits.
  ///
  /// A start gram's first class is 0, which no byte has.
  static let codeCount = 1 << 18

  /// The fewest values a piece of the build takes: it runs in two pieces per core, each with
  /// tables of every gram code (about 5 MB).
  static let valuesPerPiece = 16 * 1024

  /// The grams of the values of `values`, built on every core, in pieces of at least
  /// `valuesPerPiece` values; nil when the postings would pass 4 GB (the column is scanned).
  ///
  /// - Complexity: O(*n*) in the bytes of the column, two passes over them.
  init?(values: FoldedValues, valuesPerPiece: Int = Self.valuesPerPiece) {
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
    var starts: [UInt32] = [0]
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
      starts.append(UInt32(truncatingIfNeeded: total))
    }
    // Postings are placed by 32-bit offsets: a column that would need more (4 GB of postings,
    // from a column of half as many bytes at least) is scanned.
    guard total <= Int(UInt32.max) else { return nil }
    // Second pass: each piece writes its postings where the first said, apart from the others.
    let output = DisjointWrites<UInt8>(count: total, initial: 0)
    let (slots, pieceCursors, piecePrevious) = (grams, cursors, previous)
    _ = Parallel.map(chunks: pieces.count) { piece -> Bool in
      tallies[piece].writePostings(
        of: values, range: pieces[piece], grams: slots, cursors: pieceCursors[piece],
        previous: piecePrevious[piece], into: output)
      return true
    }
    self.init(
      valueCount: valueCount, grams: grams, starts: starts, counts: counts,
      postings: output.array(0..<total), values: values)
  }

  /// An index of these parts (built, or read and checked) over the first `valueCount` values
  /// of `values`.
  init(
    valueCount: Int, grams: [UInt32], starts: [UInt32], counts: [Int32], postings: [UInt8],
    values: FoldedValues
  ) {
    self.valueCount = valueCount
    self.grams = grams
    self.starts = starts
    self.counts = counts
    self.postings = postings
    lettersAreExact = (0x41...0x5A).allSatisfy { values.byteCounts[$0] == 0 }
    valuesWithInterior = Self.valuesWithInterior(values, below: valueCount)
    valuesWithLeadingSpace = values.leadingSpace.filter { $0 < valueCount }
  }

  /// The values under `end` that hold an interior offset, ascending.
  private static func valuesWithInterior(_ values: FoldedValues, below end: Int) -> [Int32] {
    var result: [Int32] = []
    var value = 0
    for offset in values.interior {
      while value < end && values.starts[value + 1] <= offset { value += 1 }
      guard value < end else { break }
      if result.last != Int32(value) { result.append(Int32(value)) }
    }
    return result
  }

  /// Whether the values that hold the grams of `needle` hold `needle` itself.
  ///
  /// So it is for three lowercase letters or digits, or two at the start (`atStart`), in a
  /// column without capital letters. Those values that start with white space, or hold an
  /// interior offset, may still not match.
  func isExact(_ needle: [UInt8], atStart: Bool) -> Bool {
    lettersAreExact && needle.count == (atStart ? 2 : 3)
      && needle.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
  }

  /// The values whose candidacy for an exact needle (``isExact(_:atStart:)``) says nothing:
  /// those with an interior offset, and those starting with white space when `atStart`.
  func valuesToCheck(atStart: Bool) -> [Int32] {
    atStart ? SortedLists.union(valuesWithInterior, valuesWithLeadingSpace) : valuesWithInterior
  }

  /// How many values hold the rarest gram of `needle` (anchored at the start of a value when
  /// `atStart`): what ``candidates(for:atStart:limit:)`` gives at most; nil when it has no
  /// gram the index keeps.
  func rarestCount(for needle: [UInt8], atStart: Bool) -> Int? {
    lookUp(needle, atStart: atStart)?.map { Int($0.count) }.min()
  }

  /// The values (ascending) that may hold `needle`, at their start when `atStart`: those that
  /// hold its rarest grams; nil when it has no gram the index keeps (fewer than three bytes,
  /// or two at the start, or white space in each) or the rarest is held by more than `limit`
  /// values, for which reading the column costs less.
  func candidates(for needle: [UInt8], atStart: Bool, limit: Int) -> [Int32]? {
    guard var found = lookUp(needle, atStart: atStart) else { return nil }
    found.sort { $0.count < $1.count }
    guard let rarest = found.first, Int(rarest.count) <= limit else { return nil }
    var result = rarest.slot < 0 ? [] : decode(rarest.slot)
    if rarest.isStart { result = SortedLists.union(result, valuesWithLeadingSpace) }
    // The next rarest grams, while their lists are not much longer than what is left.
    for next in found.dropFirst().prefix(2) where Int(next.count) < result.count * 16 {
      var kept = next.slot < 0 ? [] : intersection(result, next.slot)
      if next.isStart {
        kept = SortedLists.union(kept, SortedLists.intersection(result, valuesWithLeadingSpace))
      }
      result = kept
      if result.isEmpty { break }
    }
    return result
  }

  /// Each gram of `needle` the index keeps, its start gram first when `atStart`: how many
  /// values it may give and its slot (-1 for a gram no value holds); nil when `needle` has
  /// none.
  private func lookUp(_ needle: [UInt8], atStart: Bool) -> [Gram]? {
    guard needle.count >= (atStart ? 2 : 3) else { return nil }
    var found: [Gram] = []
    var code = Int(Self.classes[Int(needle[0])]) << 6 | Int(Self.classes[Int(needle[1])])
    if atStart && Self.isKept(code) {
      let slot = self.slot(of: UInt32(code))
      let count = Int32(valuesWithLeadingSpace.count) + (slot.map { counts[$0] } ?? 0)
      found.append(Gram(count: count, slot: slot ?? -1, isStart: true))
    }
    for byte in needle.dropFirst(2) {
      code = (code << 6 | Int(Self.classes[Int(byte)])) & (Self.codeCount - 1)
      guard Self.isKept(code) else { continue }
      let slot = self.slot(of: UInt32(code))
      found.append(Gram(count: slot.map { counts[$0] } ?? 0, slot: slot ?? -1, isStart: false))
    }
    return found.isEmpty ? nil : found
  }

  /// A gram of a needle: how many values it may give, its slot (-1 if no value holds it), and
  /// whether it is the start gram (whose values starting with white space come apart).
  private struct Gram {
    var count: Int32
    var slot: Int
    var isStart: Bool
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
      var offset = Int(starts[slot])
      let end = Int(starts[slot + 1])
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

  /// Calls `body` with the code of each kept gram of value `value`, its start gram first, in
  /// order (a gram may come more than once).
  @inline(__always)
  static func forEachGram(
    of value: Int, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int32>,
    _ body: (Int) -> Void
  ) {
    let lower = Int(starts[value])
    let upper = Int(starts[value + 1]) - 1
    guard upper - lower >= 2 else { return }
    var code = Int(classes[Int(bytes[lower])]) << 6 | Int(classes[Int(bytes[lower + 1])])
    if isKept(code) { body(code) }
    guard upper - lower >= 3 else { return }
    for offset in (lower + 2)..<upper {
      code = (code << 6 | Int(classes[Int(bytes[offset])])) & (codeCount - 1)
      if isKept(code) { body(code) }
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
