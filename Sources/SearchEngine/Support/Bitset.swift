/// A set of small integers below a capacity, one bit each.
package struct Bitset: Sendable, Hashable {
  private(set) var words: [UInt64]
  /// The number of integers the set can hold: `0..<capacity`.
  private(set) var capacity: Int

  /// An empty set for `0..<capacity`.
  package init(capacity: Int) {
    self.capacity = capacity
    words = [UInt64](repeating: 0, count: (capacity + 63) / 64)
  }

  /// Raises the capacity to `capacity` (when larger), the new integers out of the set: the
  /// set a model's new identities need, as if it had been made that large.
  ///
  /// - Complexity: O(*k*) for *k* new words.
  package mutating func grow(to capacity: Int) {
    guard capacity > self.capacity else { return }
    self.capacity = capacity
    words.append(contentsOf: repeatElement(0, count: (capacity + 63) / 64 - words.count))
  }

  @inline(__always)
  package func contains(_ value: Int) -> Bool {
    value >= 0 && value < capacity && words[value >> 6] & (1 << UInt64(value & 63)) != 0
  }

  @inline(__always)
  package mutating func insert(_ value: Int) { words[value >> 6] |= 1 << UInt64(value & 63) }

  package mutating func remove(_ value: Int) { words[value >> 6] &= ~(1 << UInt64(value & 63)) }

  /// The number of integers in the set.
  package var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

  /// Calls `body` with every integer of the set, ascending: one pass over the words.
  @inline(__always)
  package func forEach(_ body: (Int) -> Void) {
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

  /// Calls `body` with each maximal run of consecutive integers of the set within `range`
  /// (cut at its bounds), ascending.
  ///
  /// - Complexity: O(*w* + *r*) for the *w* words `range` spans and the *r* runs.
  @inline(__always)
  package func forEachRun(in range: Range<Int>, _ body: (Range<Int>) -> Void) {
    let end = min(range.upperBound, capacity)
    var start = max(range.lowerBound, 0)
    words.withUnsafeBufferPointer { words in
      while start < end {
        guard let first = Self.next(in: words, from: start, below: end, inSet: true) else {
          return
        }
        let last = Self.next(in: words, from: first, below: end, inSet: false) ?? end
        body(first..<last)
        start = last
      }
    }
  }

  /// The first integer from `start` (below `end`, which is at most the capacity) that is in
  /// the set (`inSet`) or out of it; nil when none is.
  @inline(__always)
  private static func next(
    in words: UnsafeBufferPointer<UInt64>, from start: Int, below end: Int, inSet: Bool
  ) -> Int? {
    var index = start >> 6
    var bits = (inSet ? words[index] : ~words[index]) & (~0 << UInt64(start & 63))
    while bits == 0 {
      index += 1
      if index << 6 >= end { return nil }
      bits = inSet ? words[index] : ~words[index]
    }
    let found = index << 6 | bits.trailingZeroBitCount
    return found < end ? found : nil
  }

  /// The number of integers in both sets.
  ///
  /// - Complexity: O(*w*) for the *w* words of the smaller set.
  package func intersectionCount(with other: Bitset) -> Int {
    var total = 0
    for index in 0..<min(words.count, other.words.count) {
      total &+= (words[index] & other.words[index]).nonzeroBitCount
    }
    return total
  }
}
