#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a saved index file written by ``SavedFileWriter``: each array is read with `pread`
/// straight into the storage of a new array (no parsing per element), its count checked
/// against what is left of the file and its checksum against its bytes.
///
/// Every failure is a ``SavedIndexError`` naming the file: the file is outside input, so the
/// readers of its parts check every offset, count and order before use (see `checkStarts`).
final class SavedFileReader {
  /// Where one read value or array lies in the file, for tests and the fuzz harness that
  /// change a part by name and mend its checksum: an array's count is at `offset`, its
  /// checksum after it and its `count` elements of `stride` bytes after that; a value's
  /// `stride` bytes are at `offset` (`count` nil).
  struct Part {
    let what: String
    let offset: Int
    let stride: Int
    let count: Int?
  }

  /// Every part read, in order, when not nil.
  var outline: [Part]?
  /// The file's path, for errors.
  let path: String
  private let descriptor: Int32
  private let size: Int
  private var offset = 0

  /// Opens `path` for reading.
  init(path: String) throws(SavedIndexError) {
    self.path = path
    switch FileOpening.open(path, regularOnly: true) {
    case .success(let opened): descriptor = opened
    case .failure(let failure):
      throw SavedIndexError(.io, file: path, reason: "cannot open it: \(failure.message)")
    }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      close(descriptor)
      throw SavedIndexError(.io, file: path, reason: "cannot read its size")
    }
    size = Int(status.st_size)
  }

  deinit { close(descriptor) }

  /// Whether every byte of the file has been read.
  var isAtEnd: Bool { offset == size }

  /// A ``SavedIndexError/Code/corrupt`` error about this file.
  func corrupt(_ reason: String) -> SavedIndexError {
    SavedIndexError(.corrupt, file: path, reason: reason)
  }

  /// Reads a fixed-size value.
  func read<T: BitwiseCopyable>(_ type: T.Type, _ what: String) throws(SavedIndexError) -> T {
    outline?.append(Part(what: what, offset: offset, stride: MemoryLayout<T>.size, count: nil))
    let bytes = try readBytes(MemoryLayout<T>.size, what)
    return bytes.withUnsafeBytes { $0.loadUnaligned(as: T.self) }
  }

  /// Reads a count written as `Int64`, checked to be at least 0 and at most `limit`.
  func readCount(_ what: String, limit: Int = Int(Int32.max)) throws(SavedIndexError) -> Int {
    let count = try read(Int64.self, what)
    guard count >= 0, count <= Int64(limit) else {
      throw corrupt("\(what) is \(count), outside 0...\(limit)")
    }
    return Int(count)
  }

  /// Reads a string.
  func readString(_ what: String) throws(SavedIndexError) -> String {
    let bytes: [UInt8] = try readArray(what)
    guard let string = String(validating: bytes, as: UTF8.self) else {
      throw corrupt("\(what) is not UTF-8")
    }
    return string
  }

  /// Reads an array of strings.
  func readStrings(_ what: String) throws(SavedIndexError) -> [String] {
    let lengths: [Int32] = try readArray("the lengths of \(what)")
    let bytes: [UInt8] = try readArray(what)
    guard lengths.allSatisfy({ $0 >= 0 }), lengths.reduce(0, { $0 + Int($1) }) == bytes.count
    else { throw corrupt("the lengths of \(what) do not fit their text") }
    var strings: [String] = []
    strings.reserveCapacity(lengths.count)
    var start = 0
    for length in lengths {
      let end = start + Int(length)
      guard let string = String(validating: bytes[start..<end], as: UTF8.self) else {
        throw corrupt("\(what) are not UTF-8")
      }
      strings.append(string)
      start = end
    }
    return strings
  }

  /// Reads an array: its count, its checksum, then its bytes straight into its storage.
  ///
  /// - Throws: when the count passes the rest of the file, or the checksum differs.
  func readArray<T: BitwiseCopyable>(_ what: String) throws(SavedIndexError) -> [T] {
    let stride = MemoryLayout<T>.stride
    let start = offset
    let count = try readCount("the length of \(what)", limit: Int(Int32.max))
    let checksum = try read(UInt64.self, "the checksum of \(what)")
    let byteCount = count * stride
    guard byteCount <= size - offset else {
      throw corrupt(
        "\(what) needs \(byteCount) bytes at offset \(offset), past the end (the file is truncated)"
      )
    }
    var failure: SavedIndexError?
    // No storage for an empty array: at capacity 0 the standard library hands out its one
    // shared empty storage, and `unsafeUninitializedCapacity` writes the count into it, which
    // races with every other thread that reads an empty array's count (harmless, since it
    // writes 0 over 0, but a race the thread sanitizer rightly reports in an optimised build).
    let array =
      count == 0
      ? []
      : [T](unsafeUninitializedCapacity: count) { buffer, initialized in
        let raw = UnsafeMutableRawBufferPointer(buffer)
        if let base = raw.baseAddress, !fill(base, count: byteCount) {
          failure = corrupt(
            "\(what) cannot be read at offset \(offset): \(SavedFileWriter.lastError())")
          initialized = 0
          return
        }
        initialized = count
      }
    if let failure { throw failure }
    offset += byteCount
    outline?.append(Part(what: what, offset: start, stride: stride, count: count))
    let actual = array.withUnsafeBytes { SavedChecksum.of($0) }
    guard actual == checksum else { throw corrupt("\(what) does not match its checksum") }
    return array
  }

  /// Checks the starts of a column whose values each end with `separator`: `starts[0]` is
  /// `first`, every start passes the one before and lies within `bytes`, the last is their
  /// end, and the byte before each start after the first is the separator.
  ///
  /// Every start is checked against the bytes before it is used, so the scans may read without
  /// bounds checks.
  ///
  /// - Complexity: O(*n*) in the number of starts.
  func checkStarts(
    _ starts: [Int32], first: Int, of bytes: [UInt8], separator: UInt8, _ what: String
  ) throws(SavedIndexError) {
    guard let head = starts.first, Int(head) == first else {
      throw corrupt("\(what) start at \(starts.first.map(String.init) ?? "nothing"), not \(first)")
    }
    // The first entry at fault, and its value (-1 when all are right).
    let fault = bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        for index in 1..<starts.count {
          let end = Int(starts[index])
          guard end > Int(starts[index - 1]), end <= bytes.count, bytes[end - 1] == separator
          else { return index }
        }
        return -1
      }
    }
    if fault >= 0 {
      throw corrupt(
        "\(what): entry \(fault) of \(starts.count) is \(starts[fault]), after"
          + " \(starts[fault - 1]), in \(bytes.count) bytes: not the end of a value")
    }
    guard Int(starts[starts.count - 1]) == bytes.count else {
      throw corrupt("\(what) end at \(starts[starts.count - 1]), not at the end, \(bytes.count)")
    }
  }

  private func readBytes(_ count: Int, _ what: String) throws(SavedIndexError) -> [UInt8] {
    guard count <= size - offset else {
      throw corrupt("\(what) is past the end at offset \(offset) (the file is truncated)")
    }
    var bytes = [UInt8](repeating: 0, count: count)
    let filled = bytes.withUnsafeMutableBytes { raw in
      raw.baseAddress.map { fill($0, count: count) } ?? true
    }
    guard filled else {
      throw corrupt("\(what) cannot be read at offset \(offset): \(SavedFileWriter.lastError())")
    }
    offset += count
    return bytes
  }

  /// Reads `count` bytes at the current offset into `base`; false when the file ends first.
  private func fill(_ base: UnsafeMutableRawPointer, count: Int) -> Bool {
    var done = 0
    while done < count {
      let got = pread(descriptor, base + done, count - done, off_t(offset + done))
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else { return false }
      done += got
    }
    return true
  }
}

extension SavedFileReader.Part {
  /// The offset of element `index` of the array, or of the value.
  func offset(ofElement index: Int) -> Int { count == nil ? offset : offset + 16 + index * stride }

  /// Writes the checksum of the array's elements in `bytes` (a whole file) where the array's
  /// checksum goes: a changed element then reaches the checks after the checksum's.
  func mendChecksum(in bytes: inout [UInt8]) {
    guard let count, offset + 16 + count * stride <= bytes.count else { return }
    let checksum = bytes.withUnsafeBytes {
      SavedChecksum.of(
        UnsafeRawBufferPointer(rebasing: $0[(offset + 16)..<(offset + 16 + count * stride)]))
    }
    withUnsafeBytes(of: checksum) { bytes.replaceSubrange((offset + 8)..<(offset + 16), with: $0) }
  }

  /// Writes `value` over element `index` of the array (or over the value) in `bytes`, and
  /// mends the array's checksum.
  func write<T: FixedWidthInteger>(_ value: T, element index: Int, in bytes: inout [UInt8]) {
    let at = offset(ofElement: index)
    guard at + MemoryLayout<T>.size <= bytes.count else { return }
    withUnsafeBytes(of: value.littleEndian) {
      bytes.replaceSubrange(at..<(at + MemoryLayout<T>.size), with: $0)
    }
    mendChecksum(in: &bytes)
  }
}
