/// The checksum of each array of a saved index file, so that a flipped byte is an error
/// rather than a wrong answer or a trap.
///
/// Four independent lanes of a multiply-rotate over 8-byte words keep the multiplier busy:
/// about 8 GB/s, a few milliseconds for the largest column, against the ~50 ms the file's
/// read takes. Not a cryptographic hash: it catches damage, not tampering.
///
/// The bytes may come in parts (``add(_:)``), every part but the last a multiple of
/// ``block`` bytes long: a reader checks a mapped array through a small buffer, without
/// making the whole array resident.
struct SavedChecksum {
  /// The lanes take 32 bytes at a time.
  static let block = 32
  private static let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
  private var total = 0
  /// The bytes after the last whole block: only the last part may leave some.
  private var tail: [UInt8] = []

  /// The checksum of `bytes`.
  static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var checksum = SavedChecksum()
    checksum.add(bytes)
    return checksum.value
  }

  /// Adds the next part of the bytes.
  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    precondition(tail.isEmpty, "only the last part may end inside a block")
    total += bytes.count
    let blocks = bytes.count / Self.block
    let prime = Self.prime
    if let base = bytes.baseAddress {
      for block in 0..<blocks {
        let offset = block * Self.block
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
      }
    }
    tail = Array(bytes[(blocks * Self.block)...])
  }

  /// The checksum of all the parts added.
  var value: UInt64 {
    let prime = Self.prime
    var hash = UInt64(total) &* prime
    for lane in [lanes.0, lanes.1, lanes.2, lanes.3] { hash = (hash ^ lane) &* prime }
    for byte in tail {
      hash = (hash ^ UInt64(byte)) &* prime
      hash = (hash << 27) | (hash >> 37)
    }
    return hash
  }
}
