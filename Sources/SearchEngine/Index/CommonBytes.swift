/// For the common ASCII letters and digits of a folded column, which values contain each one as
/// a whole character: one bit per value.
///
/// A one-character query for a common letter ("e" is in 78% of W1's words) matches most of the
/// corpus; searching for every occurrence costs a call and a lookup per hit, while these bits
/// answer it in a walk over set bits. A letter or digit gets bits when it makes more than
/// ``share`` of the column's bytes: below that, hits are far enough apart for `memchr` to be
/// as fast. In real text that is 20 to 35 of the 36 (W1: 25 rows of one bit per value, 4.9 MB
/// for 1.56 M values; cities500's names and alternate names: 35 rows).
///
/// The bits are exact: an occurrence counts only where a match may start and end (a letter
/// followed by a mark that folding kept is part of another character), so a column with such
/// characters (Indic scripts, Vietnamese without diacritic folding) gets bits too.
struct CommonBytes: Sendable {
  /// The share of a column's bytes above which a letter or digit gets bits (measured on
  /// cities500: "k", 1.6% of the bytes, took 7.1 ms through `memchr` and its hits, 1.0 ms
  /// through bits).
  static let share = 0.002

  /// Values per chunk when the bits are computed over all cores (a multiple of 64, so that
  /// chunks write separate words).
  static let valuesPerChunk = 64 * 1024

  /// The slot of each byte, or -1 when the byte has no bits.
  let slot: [Int8]
  /// The bits of each slot: bit `v` of a row is value `v`.
  private(set) var rows: [[UInt64]]
  /// The number of values the bits cover.
  private(set) var count: Int

  /// Bits of stored parts, checked by the caller (see `CommonBytes+Saving.swift`).
  init(slot: [Int8], rows: [[UInt64]], count: Int) {
    self.slot = slot
    self.rows = rows
    self.count = count
  }

  /// The bytes that get bits in `values`: ASCII letters and digits above ``share``, most
  /// frequent first.
  static func tracked(in values: FoldedValues) -> [UInt8] {
    candidates.filter { values.frequency(of: $0) > Self.share }
      .sorted { values.byteCounts[Int($0)] > values.byteCounts[Int($1)] }
  }

  /// The bytes that may get bits: ASCII digits and lowercase letters.
  private static let candidates = (0x30...0x39).map(UInt8.init) + (0x61...0x7A).map(UInt8.init)

  /// Computes the bits for the common ASCII letters and digits of `values`.
  ///
  /// - Complexity: O(*n*) in the bytes of `values`, divided over the cores.
  init(values: FoldedValues) {
    let ranked = Self.tracked(in: values)
    var slot = [Int8](repeating: -1, count: 256)
    for (index, byte) in ranked.enumerated() { slot[Int(byte)] = Int8(index) }
    let stride = (values.count + 63) / 64
    let storage = DisjointWrites<UInt64>(count: stride * ranked.count, initial: 0)
    let ranges = Parallel.ranges(count: values.count, size: Self.valuesPerChunk)
    let table = slot
    _ = Parallel.map(chunks: ranges.count) { chunk -> Bool in
      guard let range = ranges[chunk].first.map({ $0..<ranges[chunk].upperBound }) else {
        return true
      }
      Self.forEachOccurrence(in: values, of: table, range: range) { index, value in
        storage[index * stride + value >> 6] |= UInt64(1) << UInt64(value & 63)
      }
      return true
    }
    self.slot = slot
    self.rows = ranked.indices.map { storage.array($0 * stride..<($0 + 1) * stride) }
    self.count = values.count
  }

  /// Extends the bits to the values appended to `values` since they were computed: the bits
  /// the initialiser would compute, when the bytes that get bits are still the same.
  ///
  /// - Returns: false, and the bits unchanged, when the new values moved a byte across
  ///   ``share``: a byte that gains bits needs a pass over every value, so the caller
  ///   computes them all again.
  /// - Complexity: O(*k*) in the bytes of the *k* new values, plus O(log *i*) for the *i*
  ///   interior boundaries.
  mutating func extend(to values: FoldedValues) -> Bool {
    guard values.count >= count,
      Self.candidates.allSatisfy({ (values.frequency(of: $0) > Self.share) == tracks($0) })
    else { return false }
    let words = (values.count + 63) / 64
    for index in rows.indices {
      rows[index].append(contentsOf: repeatElement(0, count: words - rows[index].count))
    }
    Self.forEachOccurrence(in: values, of: slot, range: count..<values.count) { index, value in
      rows[index][value >> 6] |= UInt64(1) << UInt64(value & 63)
    }
    count = values.count
    return true
  }

  /// Calls `body` with the slot and the value of every occurrence of a byte with a slot in
  /// `table` among the values of `range`, where a match may start and end: a letter followed
  /// by a mark that folding kept is part of another character.
  @inline(__always)
  private static func forEachOccurrence(
    in values: FoldedValues, of table: [Int8], range: Range<Int>, _ body: (Int, Int) -> Void
  ) {
    guard !range.isEmpty else { return }
    values.bytes.withUnsafeBufferPointer { bytes in
      values.interior.withUnsafeBufferPointer { interior in
        // The interior boundaries are ascending, as the bytes are read: one cursor walks
        // them along, from the first at or after the range's first byte.
        let first = values.starts[range.lowerBound]
        var next = 0
        var high = interior.count
        while next < high {
          let middle = (next + high) / 2
          if interior[middle] < first { next = middle + 1 } else { high = middle }
        }
        for value in range {
          for position in values.range(of: value) {
            let index = table[Int(bytes[position])]
            guard index >= 0 else { continue }
            if !interior.isEmpty {
              while next < interior.count && Int(interior[next]) <= position { next += 1 }
              // Inside a character: the boundary before the byte is interior (the cursor
              // passed it), or the one after it is.
              if next > 0 && Int(interior[next - 1]) == position { continue }
              if next < interior.count && Int(interior[next]) == position + 1 { continue }
            }
            body(Int(index), value)
          }
        }
      }
    }
  }

  /// Whether `byte` has bits.
  func tracks(_ byte: UInt8) -> Bool { slot[Int(byte)] >= 0 }

  /// Appends the owner of every value in `range` that contains `byte`, once per owner.
  func owners(
    containing byte: UInt8, in range: Range<Int>, map: ValueMap, into owners: inout [ItemID]
  ) {
    let row = rows[Int(slot[Int(byte)])]
    guard !range.isEmpty else { return }
    if map.explicit == nil {
      Self.appendValues(row, in: range, into: &owners)
      return
    }
    owners.reserveCapacity(owners.count + range.count)
    var previous: Int32 = -1
    row.withUnsafeBufferPointer { words in
      for wordIndex in (range.lowerBound >> 6)...((range.upperBound - 1) >> 6) {
        var word = Self.bits(words, word: wordIndex, in: range)
        let first = wordIndex << 6
        while word != 0 {
          let value = first + word.trailingZeroBitCount
          word &= word - 1
          let item = map.owner(of: value)
          if item < 0 || item == previous { continue }
          owners.append(ItemID(rawValue: item))
          previous = item
        }
      }
    }
  }
}

extension CommonBytes {
  /// The bits of word `word` of a row for the values in `range` only.
  @inline(__always)
  fileprivate static func bits(
    _ words: UnsafeBufferPointer<UInt64>, word: Int, in range: Range<Int>
  ) -> UInt64 {
    var bits = words[word]
    let first = word << 6
    if first < range.lowerBound { bits &= ~0 << UInt64(range.lowerBound - first) }
    if first + 64 > range.upperBound { bits &= ~(~0 << UInt64(range.upperBound - first)) }
    return bits
  }

  /// The owners when every value is its own item (the map is the identity): the set bits
  /// themselves, each once and in order, written into room counted beforehand rather than
  /// appended one by one (half the time of the general walk on W1's "e", 1.2 M items).
  private static func appendValues(
    _ row: [UInt64], in range: Range<Int>, into owners: inout [ItemID]
  ) {
    let firstWord = range.lowerBound >> 6
    let lastWord = (range.upperBound - 1) >> 6
    row.withUnsafeBufferPointer { words in
      @inline(__always) func word(_ index: Int) -> UInt64 {
        Self.bits(words, word: index, in: range)
      }
      var total = 0
      for index in firstWord...lastWord { total += word(index).nonzeroBitCount }
      let start = owners.count
      owners.append(contentsOf: repeatElement(ItemID(rawValue: 0), count: total))
      owners.withUnsafeMutableBufferPointer { buffer in
        var next = start
        for index in firstWord...lastWord {
          var bits = word(index)
          let first = index << 6
          while bits != 0 {
            buffer[next] = ItemID(rawValue: Int32(first + bits.trailingZeroBitCount))
            next += 1
            bits &= bits - 1
          }
        }
      }
    }
  }
}
