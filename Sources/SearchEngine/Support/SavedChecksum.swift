/// The checksum of each array of a saved index file, so that a flipped byte is an error
/// rather than a wrong answer or a trap.
///
/// Four independent lanes of a multiply-rotate over 8-byte words keep the multiplier busy:
/// about 8 GB/s, a few milliseconds for the largest column, against the ~50 ms the file's
/// read takes. Not a cryptographic hash: it catches damage, not tampering.
enum SavedChecksum {
  /// The checksum of `bytes`.
  static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
    var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
    let words = bytes.count / 8
    var i = 0
    if let base = bytes.baseAddress {
      while i + 4 <= words {
        let offset = i * 8
        lanes.0 = (lanes.0 ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
        lanes.1 =
          (lanes.1 ^ base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime
        lanes.2 =
          (lanes.2 ^ base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime
        lanes.3 =
          (lanes.3 ^ base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime
        lanes.0 = (lanes.0 << 31) | (lanes.0 >> 33)
        lanes.1 = (lanes.1 << 31) | (lanes.1 >> 33)
        lanes.2 = (lanes.2 << 31) | (lanes.2 >> 33)
        lanes.3 = (lanes.3 << 31) | (lanes.3 >> 33)
        i += 4
      }
    }
    var hash = UInt64(bytes.count) &* prime
    for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { hash = (hash ^ lane) &* prime }
    for offset in (i * 8)..<bytes.count {
      hash = (hash ^ UInt64(bytes[offset])) &* prime
      hash = (hash << 27) | (hash >> 37)
    }
    return hash
  }
}
