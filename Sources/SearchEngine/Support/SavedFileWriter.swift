#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a saved index file: integers, strings and flat arrays of plain values, each array
/// as its count, a checksum (``SavedChecksum``) and its bytes, written straight from its
/// storage.
///
/// The file is written under a temporary name and renamed when complete, so that a reader never
/// sees half a file.
final class SavedFileWriter {
  private let path: String
  private let temporary: String
  private var descriptor: Int32

  /// Opens a temporary file beside `path`.
  init(path: String) throws(SavedIndexError) {
    self.path = path
    temporary = path + ".partial-\(getpid())"
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else {
      throw SavedIndexError(.io, file: path, reason: "cannot create it: \(Self.lastError())")
    }
  }

  deinit {
    if descriptor >= 0 {
      close(descriptor)
      unlink(temporary)
    }
  }

  /// Writes a fixed-size value.
  func write<T: BitwiseCopyable>(_ value: T) throws(SavedIndexError) {
    let written = withUnsafeBytes(of: value) { writeBytes($0) }
    if !written { throw failure() }
  }

  /// Writes a string as its UTF-8 length and bytes.
  func write(_ string: String) throws(SavedIndexError) {
    try write(Array(string.utf8))
  }

  /// Writes an array as its count, its checksum and its elements' bytes.
  func write<T: BitwiseCopyable>(_ array: [T]) throws(SavedIndexError) {
    try write(Int64(array.count))
    try write(array.withUnsafeBytes { SavedChecksum.of($0) })
    if !array.withUnsafeBytes({ writeBytes($0) }) { throw failure() }
  }

  /// Writes an array of strings.
  ///
  /// As two arrays, the lengths and the UTF-8 back to back, so that reading many short
  /// strings (an attribute's 100 000 distinct values) is two reads rather than one per string.
  func write(_ strings: [String]) throws(SavedIndexError) {
    try write(strings.map { Int32($0.utf8.count) })
    var bytes: [UInt8] = []
    for string in strings { bytes.append(contentsOf: string.utf8) }
    try write(bytes)
  }

  /// Closes the file and gives it its name.
  func finish() throws(SavedIndexError) {
    let result = close(descriptor)
    descriptor = -1
    guard result == 0, rename(temporary, path) == 0 else {
      let reason = Self.lastError()
      unlink(temporary)
      throw SavedIndexError(.io, file: path, reason: "cannot write it: \(reason)")
    }
  }

  /// Writes all of `bytes`; false on an error (in `errno`).
  private func writeBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var done = 0
    while done < bytes.count {
      let written = systemWrite(descriptor, base + done, bytes.count - done)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      done += written
    }
    return true
  }

  private func failure() -> SavedIndexError {
    SavedIndexError(.io, file: path, reason: "cannot write it: \(Self.lastError())")
  }

  static func lastError() -> String { String(cString: strerror(errno)) }
}

/// `write(2)`, named apart from the writer's own `write` methods.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
