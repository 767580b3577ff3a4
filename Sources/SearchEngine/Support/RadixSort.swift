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
    guard keys.count > 1, bits > 0 else { return (0..<Int32(keys.count)).map { $0 } }
    let positionBits = UInt64.bitWidth - (keys.count - 1).leadingZeroBitCount
    if bits + positionBits <= UInt64.bitWidth {
      return stableOrderOfPacked(keys, bits: bits, positionBits: positionBits)
    }
    return stableOrderOfPairs(keys, bits: bits)
  }

  /// The stable order where a key and its position fit in one number.
  ///
  /// The position is in the low bits, under the key, so that a pass moves one array instead
  /// of two. Every digit is counted in one read of the keys.
  private static func stableOrderOfPacked(_ keys: [UInt64], bits: Int, positionBits: Int)
    -> [Int32]
  {
    let buckets = 1 << digitBits
    let digits = (bits + digitBits - 1) / digitBits
    var current = [UInt64](unsafeUninitializedCapacity: keys.count) { buffer, count in
      for (position, key) in keys.enumerated() {
        buffer[position] = key << UInt64(positionBits) | UInt64(position)
      }
      count = keys.count
    }
    var next = [UInt64](repeating: 0, count: keys.count)
    // Each digit's counts, then its buckets' starts.
    var counts = [Int](repeating: 0, count: digits * buckets)
    let mask = UInt64(buckets - 1)
    counts.withUnsafeMutableBufferPointer { counts in
      for key in keys {
        for digit in 0..<digits {
          counts[digit * buckets + Int(key >> UInt64(digit * digitBits) & mask)] += 1
        }
      }
      for digit in 0..<digits {
        let shift = UInt64(positionBits + digit * digitBits)
        let base = digit * buckets
        // Every key has this digit: the order stays.
        if counts[base + Int(current[0] >> shift & mask)] == keys.count { continue }
        var start = 0
        for bucket in base..<(base + buckets) {
          let count = counts[bucket]
          counts[bucket] = start
          start += count
        }
        current.withUnsafeBufferPointer { current in
          next.withUnsafeMutableBufferPointer { next in
            for key in current {
              let bucket = base + Int(key >> shift & mask)
              next[counts[bucket]] = key
              counts[bucket] += 1
            }
          }
        }
        swap(&current, &next)
      }
    }
    let positionMask = UInt64(1) << UInt64(positionBits) - 1
    return current.map { Int32(truncatingIfNeeded: $0 & positionMask) }
  }

  /// The stable order of keys too wide to share a number with their positions.
  ///
  /// Each pass moves the keys and the positions.
  private static func stableOrderOfPairs(_ keys: [UInt64], bits: Int) -> [Int32] {
    var order = (0..<Int32(keys.count)).map { $0 }
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
