#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Substring search over bytes at memory speed.
enum ByteSearch {
  /// The first start of `needle` in `haystack[range]` (the whole needle inside the range) that
  /// `accept`s, or nil.
  ///
  /// Sixteen candidate starts at a time are filtered by comparing their first and last bytes
  /// with the needle's (the "generic SIMD" method); survivors are compared in full.
  ///
  /// - Complexity: O(*n*) in the range, plus O(*m*) per candidate that passes the filter.
  @inline(__always)
  static func first(
    _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>,
    range: Range<Int>, accept: (Int) -> Bool
  ) -> Int? {
    let count = needle.count
    guard count > 0 else { return accept(range.lowerBound) ? range.lowerBound : nil }
    guard range.count >= count, let base = haystack.baseAddress, let pattern = needle.baseAddress
    else { return nil }
    let lastStart = range.upperBound - count
    let head = pattern[0]
    if count == 1 {
      var position = range.lowerBound
      while position <= lastStart {
        guard let found = memchr(base + position, Int32(head), lastStart - position + 1) else {
          return nil
        }
        let start = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        if accept(start) { return start }
        position = start + 1
      }
      return nil
    }
    let tail = pattern[count - 1]
    let heads = SIMD16<UInt8>(repeating: head)
    let tails = SIMD16<UInt8>(repeating: tail)
    var position = range.lowerBound
    while position + 15 <= lastStart {
      let first = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
      let last = UnsafeRawPointer(base + position + count - 1).loadUnaligned(
        as: SIMD16<UInt8>.self)
      let candidates = (first .== heads) .& (last .== tails)
      if any(candidates) {
        for lane in 0..<16 where candidates[lane] {
          let start = position + lane
          if count <= 2 || memcmp(base + start + 1, pattern + 1, count - 2) == 0, accept(start) {
            return start
          }
        }
      }
      position += 16
    }
    while position <= lastStart {
      if base[position] == head && base[position + count - 1] == tail
        && (count <= 2 || memcmp(base + position + 1, pattern + 1, count - 2) == 0)
        && accept(position)
      {
        return position
      }
      position += 1
    }
    return nil
  }
}
