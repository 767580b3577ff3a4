#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the elements of a column read from a saved index file, mostly in ascending order,
/// with `pread` through a small buffer: the checks that walk a whole mapped column read the
/// system's file cache without making the column's pages part of the process's memory (a
/// page touched through the mapping stays resident, and giving it back with `madvise` is
/// undone when the system maps a whole large folio again at the next touch).
///
/// Elements of type `S` are loaded as `T` of the same stride: the living flags (`Bool`) are
/// loaded as bytes, so that a byte other than 0 or 1 is seen before it is read as a `Bool`.
final class SavedCursor<S: BitwiseCopyable & Sendable, T: BitwiseCopyable> {
  private let storage: ColumnStorage<S>
  private let descriptor: Int32
  private let offset: Int?
  /// The buffer (unused for an array).
  private let buffer: UnsafeMutableRawBufferPointer
  /// The first element in the buffer and how many it holds.
  private var first = 0
  private var held = 0
  private static var stride: Int { MemoryLayout<T>.stride }

  init(storage: ColumnStorage<S>, descriptor: Int32) {
    precondition(MemoryLayout<S>.stride == MemoryLayout<T>.stride, "S and T have one stride")
    self.storage = storage
    count = storage.count
    self.descriptor = descriptor
    offset = storage.mappedOffset
    buffer = .allocate(byteCount: offset == nil ? 0 : 64 * 1024, alignment: 16)
  }

  deinit { buffer.deallocate() }

  /// The number of elements.
  let count: Int

  /// Element `index` (in `0..<count`), or nil when the file cannot be read there.
  @inline(__always)
  func element(_ index: Int) -> T? {
    precondition(index >= 0 && index < count, "index out of range")
    if UInt(bitPattern: index &- first) < UInt(bitPattern: held), let base = buffer.baseAddress {
      return base.loadUnaligned(fromByteOffset: (index - first) * Self.stride, as: T.self)
    }
    return load(index)
  }

  /// Element `index` from the array, or from the file into the buffer.
  private func load(_ index: Int) -> T? {
    guard let offset else {
      return storage.withUnsafeBytes {
        $0.loadUnaligned(fromByteOffset: index * Self.stride, as: T.self)
      }
    }
    if index < first || index >= first + held {
      guard fill(from: index, offset: offset) else { return nil }
    }
    return buffer.loadUnaligned(fromByteOffset: (index - first) * Self.stride, as: T.self)
  }

  /// Reads the elements from `index` on into the buffer.
  private func fill(from index: Int, offset: Int) -> Bool {
    let wanted = min(buffer.count / Self.stride, count - index) * Self.stride
    let start = offset + index * Self.stride
    let descriptor = descriptor
    let done = { () -> Bool in
      guard let base = buffer.baseAddress else { return false }
      var done = 0
      while done < wanted {
        let got = pread(descriptor, base + done, wanted - done, off_t(start + done))
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else { return false }
        done += got
      }
      return true
    }()
    first = index
    held = done ? wanted / Self.stride : 0
    return done
  }
}
