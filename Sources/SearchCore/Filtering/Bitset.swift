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
}
