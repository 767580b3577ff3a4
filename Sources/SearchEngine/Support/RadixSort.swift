/// Sorting plain integers by their digits rather than by comparisons.
enum RadixSort {
  /// The bits of one digit: a pass counts into 2,048 buckets.
  private static let digitBits = 11

  /// The positions of `keys` sorted by key, equal keys in the order given: least significant
  /// digit first, skipping a digit every key shares.
  ///
  /// `bits`: how many low bits of the keys may differ; the others must be 0.
  ///
  /// - Complexity: O(*n*) per digit of `bits` that differs between keys.
  static func stableOrder(of keys: [UInt64], bits: Int) -> [Int32] {
    precondition(keys.count < Int(Int32.max), "more keys than positions")
    var order = (0..<Int32(keys.count)).map { $0 }
    guard keys.count > 1, bits > 0 else { return order }
    var current = keys
    var nextKeys = [UInt64](repeating: 0, count: keys.count)
    var nextOrder = [Int32](repeating: 0, count: keys.count)
    let buckets = 1 << digitBits
    var counts = [Int](repeating: 0, count: buckets)
    for shift in stride(from: 0, to: bits, by: digitBits) {
      let mask = UInt64(buckets - 1)
      for bucket in counts.indices { counts[bucket] = 0 }
      for key in current { counts[Int(key >> UInt64(shift) & mask)] += 1 }
      // Every key has this digit: the order stays.
      if counts[Int(current[0] >> UInt64(shift) & mask)] == current.count { continue }
      var start = 0
      for bucket in counts.indices {
        let count = counts[bucket]
        counts[bucket] = start
        start += count
      }
      for (key, position) in zip(current, order) {
        let bucket = Int(key >> UInt64(shift) & mask)
        nextKeys[counts[bucket]] = key
        nextOrder[counts[bucket]] = position
        counts[bucket] += 1
      }
      swap(&current, &nextKeys)
      swap(&order, &nextOrder)
    }
    return order
  }
}
