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
      // A hit is often a few bytes away (a common letter in short values): look there before
      // paying for a call.
      let near = min(lastStart + 1, position + 16)
      while position < near {
        if base[position] == head && accept(position) { return position }
        position += 1
      }
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
        // Visit only the lanes that passed: 0xFF bytes in two 64-bit words.
        let lanes = unsafeBitCast(
          SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: candidates),
          to: SIMD2<UInt64>.self)
        for half in 0..<2 {
          var word = lanes[half]
          while word != 0 {
            let byte = word.trailingZeroBitCount >> 3
            word &= ~(UInt64(0xFF) << UInt64(byte << 3))
            let start = position + half * 8 + byte
            if count <= 2 || memcmp(base + start + 1, pattern + 1, count - 2) == 0, accept(start) {
              return start
            }
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
