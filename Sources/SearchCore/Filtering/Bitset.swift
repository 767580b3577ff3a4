/// A fixed-size set of small integers, one bit each.
struct Bitset: Sendable, Hashable {
  private(set) var words: [UInt64]
  /// The number of integers the set can hold: `0..<capacity`.
  let capacity: Int

  /// An empty set for `0..<capacity`.
  init(capacity: Int) {
    self.capacity = capacity
    words = [UInt64](repeating: 0, count: (capacity + 63) / 64)
  }

  @inline(__always)
  func contains(_ value: Int) -> Bool {
    value >= 0 && value < capacity && words[value >> 6] & (1 << UInt64(value & 63)) != 0
  }

  @inline(__always)
  mutating func insert(_ value: Int) { words[value >> 6] |= 1 << UInt64(value & 63) }

  mutating func remove(_ value: Int) { words[value >> 6] &= ~(1 << UInt64(value & 63)) }

  /// The number of integers in the set.
  var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

  /// Calls `body` with every integer of the set, ascending: one pass over the words.
  @inline(__always)
  func forEach(_ body: (Int) -> Void) {
    words.withUnsafeBufferPointer { words in
      for index in words.indices {
        var bits = words[index]
        while bits != 0 {
          body(index << 6 | bits.trailingZeroBitCount)
          bits &= bits - 1
        }
      }
    }
  }
}
