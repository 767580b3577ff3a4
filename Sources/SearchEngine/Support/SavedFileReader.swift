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
/// Every failure is a ``SavedIndexError`` naming the file: the file is outside input.
final class SavedFileReader {
  /// The file's path, for errors.
  let path: String
  private let descriptor: Int32
  private let size: Int
  private var offset = 0

  /// Opens `path` for reading.
  init(path: String) throws(SavedIndexError) {
    self.path = path
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw SavedIndexError(
        .io, file: path, reason: "cannot open it: \(SavedFileWriter.lastError())")
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

  /// A ``SavedIndexError/Kind/corrupt`` error about this file.
  func corrupt(_ reason: String) -> SavedIndexError {
    SavedIndexError(.corrupt, file: path, reason: reason)
  }

  /// Reads a fixed-size value.
  func read<T: BitwiseCopyable>(_ type: T.Type, _ what: String) throws(SavedIndexError) -> T {
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
    let count = try readCount("the length of \(what)", limit: Int(Int32.max))
    let checksum = try read(UInt64.self, "the checksum of \(what)")
    let byteCount = count * stride
    guard byteCount <= size - offset else {
      throw corrupt(
        "\(what) needs \(byteCount) bytes at offset \(offset), past the end (the file is truncated)"
      )
    }
    var failure: SavedIndexError?
    let array = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
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
    let actual = array.withUnsafeBytes { SavedChecksum.of($0) }
    guard actual == checksum else { throw corrupt("\(what) does not match its checksum") }
    return array
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
