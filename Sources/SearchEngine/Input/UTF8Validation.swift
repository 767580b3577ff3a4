/// Validation of UTF-8 that says where the first bad byte is.
package enum UTF8Validation {
  /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (as the
  /// Unicode standard defines it: no overlong forms, no surrogates, nothing above U+10FFFF),
  /// or nil when all of `bytes` is valid.
  package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let n = bytes.count
    var i = 0
    while i < n {
      // Eight ASCII bytes at a time.
      while i + 8 <= n {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
      }
      guard i < n else { break }
      let b0 = base[i]
      if b0 < 0x80 {
        i += 1
        continue
      }
      // The common sequences first: two bytes, and three bytes with no range of their own.
      if b0 >= 0xC2 && b0 <= 0xDF && i + 1 < n && base[i + 1] & 0xC0 == 0x80 {
        i += 2
        continue
      }
      if b0 >= 0xE1 && b0 <= 0xEF && b0 != 0xED && i + 2 < n && base[i + 1] & 0xC0 == 0x80
        && base[i + 2] & 0xC0 == 0x80
      {
        i += 3
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch b0 {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return i
      }
      guard i + 1 < n, (low...high).contains(base[i + 1]) else { return i }
      for k in 2..<length {
        guard i + k < n, base[i + k] & 0xC0 == 0x80 else { return i }
      }
      i += length
    }
    return nil
  }
}
