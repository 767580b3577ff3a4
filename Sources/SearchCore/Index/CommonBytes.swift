/// For the most frequent ASCII bytes of a folded column, which values contain each one: one
/// bit per value.
///
/// A one-character query for a common letter ("e" is in 78% of W1's words) matches most of the
/// corpus; scanning for it costs a check per value, while these bits answer it in a walk over
/// set bits (a few milliseconds less on W1, and the difference between meeting a 10 ms
/// full-scan budget and not).
struct CommonBytes: Sendable {
  /// How many bytes get bits: the most frequent letters of the languages in the corpora;
  /// 12 × one bit per value is 2.3 MB for W1's 1.56 M values.
  static let limit = 12
  /// Values per chunk when the bits are computed over all cores (a multiple of 64, so that
  /// chunks write separate words).
  static let valuesPerChunk = 64 * 1024

  /// The slot of each byte, or -1 when the byte has no bits.
  private let slot: [Int8]
  /// Bits of slot `s` are `words[s * stride ..< (s + 1) * stride]`.
  private let words: [UInt64]
  private let stride: Int

  /// Computes the bits for the most frequent ASCII letters and digits of `values`.
  init(values: FoldedValues) {
    let ranked = (0..<128).filter { byte in
      let character = UInt8(byte)
      return values.byteCounts[byte] > 0
        && ((0x61...0x7A).contains(character) || (0x30...0x39).contains(character))
    }.sorted { values.byteCounts[$0] > values.byteCounts[$1] }.prefix(Self.limit)
    var slot = [Int8](repeating: -1, count: 256)
    for (index, byte) in ranked.enumerated() { slot[byte] = Int8(index) }
    let stride = (values.count + 63) / 64
    let storage = WordStorage(count: stride * ranked.count)
    let ranges = Parallel.ranges(count: values.count, size: Self.valuesPerChunk)
    let table = slot
    _ = Parallel.map(chunks: ranges.count) { chunk -> Bool in
      values.bytes.withUnsafeBufferPointer { bytes in
        for value in ranges[chunk] {
          let bit = UInt64(1) << UInt64(value & 63)
          for position in values.range(of: value) {
            let index = table[Int(bytes[position])]
            if index >= 0 { storage.or(bit, at: Int(index) * stride + value >> 6) }
          }
        }
      }
      return true
    }
    self.slot = slot
    self.words = storage.array()
    self.stride = stride
  }

  /// Whether `byte` has bits.
  func tracks(_ byte: UInt8) -> Bool { slot[Int(byte)] >= 0 }

  /// Appends the owner of every value in `range` that contains `byte`, once per owner.
  func owners(
    containing byte: UInt8, in range: Range<Int>, map: ValueMap, into owners: inout [ItemID]
  ) {
    let base = Int(slot[Int(byte)]) * stride
    guard !range.isEmpty else { return }
    owners.reserveCapacity(owners.count + range.count)
    var previous: Int32 = -1
    words.withUnsafeBufferPointer { words in
      for wordIndex in (range.lowerBound >> 6)...((range.upperBound - 1) >> 6) {
        var word = words[base + wordIndex]
        let first = wordIndex << 6
        if first < range.lowerBound { word &= ~0 << UInt64(range.lowerBound - first) }
        if first + 64 > range.upperBound { word &= ~(~0 << UInt64(range.upperBound - first)) }
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

/// Words that several threads set bits in, each thread in words of its own.
private final class WordStorage: @unchecked Sendable {
  private let words: UnsafeMutableBufferPointer<UInt64>

  init(count: Int) {
    words = .allocate(capacity: max(count, 1))
    words.initialize(repeating: 0)
  }

  deinit { words.deallocate() }

  func or(_ bits: UInt64, at index: Int) { words[index] |= bits }

  func array() -> [UInt64] { Array(words) }
}
