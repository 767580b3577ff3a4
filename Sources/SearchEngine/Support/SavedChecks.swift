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
