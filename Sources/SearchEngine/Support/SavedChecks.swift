/// Checks of the big arrays read from a saved index file that walk a whole array: each gives
/// back the pages it has passed (``ColumnStorage/releasePages(_:)``) as it goes, so that
/// checking a mapped file does not make all of it resident.
enum SavedChecks {
  /// How many values are walked between two releases of the pages passed.
  static let valuesPerRelease = 1 << 16

  /// Whether `starts` ascend strictly, each at most the end of `bytes`, and every value
  /// `v` ≥ 1 ends with `separator` (`bytes[starts[v] - 1]`). The caller checks the first and
  /// last start.
  static func separate(
    _ starts: ColumnStorage<Int32>, bytes: ColumnStorage<UInt8>, separator: UInt8
  ) -> Bool {
    var releasedValue = 0
    var releasedByte = 0
    let valid = starts.withUnsafeBufferPointer { starts in
      bytes.withUnsafeBufferPointer { bytes in
        guard let first = starts.first, first >= 0 else { return false }
        var previous = Int(first)
        for value in 1..<starts.count {
          let end = Int(starts[value])
          guard end > previous, end <= bytes.count, bytes[end - 1] == separator else {
            return false
          }
          previous = end
          if value - releasedValue >= valuesPerRelease {
            release(starts: releasedValue..<value, bytes: releasedByte..<end)
            releasedValue = value
            releasedByte = end
          }
        }
        return true
      }
    }
    release(starts: releasedValue..<starts.count, bytes: releasedByte..<bytes.count)
    return valid

    func release(starts range: Range<Int>, bytes passed: Range<Int>) {
      starts.releasePages(range)
      bytes.releasePages(passed)
    }
  }

  /// The number of true flags of `flags`, or nil when a byte of them is neither 0 nor 1
  /// (read as bytes, before any is read as a `Bool`).
  static func countOnes(_ flags: ColumnStorage<Bool>) -> Int? {
    var released = 0
    var ones = 0
    let valid = flags.withUnsafeBytes { bytes in
      for index in bytes.indices {
        let byte = bytes[index]
        guard byte <= 1 else { return false }
        ones += Int(byte)
        if index - released >= valuesPerRelease * 16 {
          flags.releasePages(released..<index)
          released = index
        }
      }
      return true
    }
    flags.releasePages(released..<flags.count)
    return valid ? ones : nil
  }

  /// Whether every item of `order` is alive and, when `ascending`, each greater than the one
  /// before it. `alive` holds only 0 and 1 (``countOnes(_:)``).
  static func isOrder(
    _ order: ColumnStorage<ItemID>, alive: ColumnStorage<Bool>, ascending: Bool
  ) -> Bool {
    var released = 0
    let valid = order.withUnsafeBufferPointer { order in
      alive.withUnsafeBufferPointer { alive in
        var previous: Int32 = -1
        for index in order.indices {
          let id = order[index].rawValue
          guard id >= 0, Int(id) < alive.count, alive[Int(id)], !ascending || id > previous
          else { return false }
          previous = id
          if index - released >= valuesPerRelease {
            release(released..<index)
            released = index
          }
        }
        return true
      }
    }
    release(released..<order.count)
    if !ascending { alive.releasePages(0..<alive.count) }
    return valid

    func release(_ range: Range<Int>) {
      guard !range.isEmpty else { return }
      order.releasePages(range)
      // Ascending, the living flags read for those items lie between theirs.
      let first = Int(order[range.lowerBound].rawValue)
      let last = Int(order[range.upperBound - 1].rawValue)
      if ascending, first >= 0, first <= last, last < alive.count {
        alive.releasePages(first..<last)
      }
    }
  }

  /// Whether every element of `array` is below `limit` and at least `minimum`.
  static func allIn<T: BinaryInteger & BitwiseCopyable & Sendable>(
    _ array: ColumnStorage<T>, from minimum: T, below limit: Int
  ) -> Bool {
    var released = 0
    let valid = array.withUnsafeBufferPointer { elements in
      for index in elements.indices {
        let element = elements[index]
        guard element >= minimum, Int(element) < limit else { return false }
        if index - released >= valuesPerRelease {
          array.releasePages(released..<index)
          released = index
        }
      }
      return true
    }
    array.releasePages(released..<array.count)
    return valid
  }
}
