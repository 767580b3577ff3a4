#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a whole file (or standard input) with POSIX calls, so that errors carry the system's
/// reason, under limits checked as the bytes arrive: a line longer than
/// ``maximumLineLength`` or more bytes than the reader allows stop the reading with an
/// error before the input fills memory (`/dev/zero`, a binary file, an endless pipe).
package enum FileBytes {
  /// Why reading stopped before the end of the input.
  package enum Failure: Error, Sendable {
    /// The system refused: its message, such as "No such file or directory".
    case system(String)
    /// Line `line` (from 1) is longer than the limit.
    case lineTooLong(line: Int, limit: Int)
    /// The input passes the size limit in line `line` (from 1).
    case tooLarge(line: Int, limit: Int)
    /// The path names what a reader that needs a regular file refuses, rather than wait on
    /// it: "a FIFO (named pipe)", "a folder", a device.
    case notRegular(String)

    /// The reason, for an error message that names the file.
    package var message: String {
      switch self {
      case .system(let message): message
      case .notRegular(let kind): FileOpening.Failure.notRegular(kind).message
      case .lineTooLong(_, let limit):
        "the line is longer than \(FileBytes.size(limit)), the longest line read"
      case .tooLarge(_, let limit):
        "the input passes \(FileBytes.size(limit)) in this line, the most read"
      }
    }

    /// The line at fault, when there is one.
    package var line: Int? {
      switch self {
      case .system, .notRegular: nil
      case .lineTooLong(let line, _), .tooLarge(let line, _): line
      }
    }

    /// What to do about it.
    package var hint: String {
      switch self {
      case .system: "check the path"
      case .notRegular:
        "name a regular file (write what it holds to one first); a stream is read from"
          + " standard input"
      case .lineTooLong:
        "is this a text file? Text without line breaks (a binary file, /dev/zero) cannot be read"
          + " as lines"
      case .tooLarge: "split the input"
      }
    }
  }

  /// The longest line read from a file or a pipe, 256 MiB (before its "\n"): reading stops
  /// at a longer line with an error that names it, so that input without line breaks (a binary
  /// file, `/dev/zero`) is refused before it fills memory.
  package static let maximumLineLength = 256 << 20

  /// The bytes read between two checks of the limits (and the most read past a limit).
  static let chunkSize = 1 << 20

  /// Opens `path` for reading (see ``FileOpening/open(_:regularOnly:)``).
  package static func open(_ path: String, regularOnly: Bool) -> Result<Int32, Failure> {
    FileOpening.open(path, regularOnly: regularOnly).mapError { failure in
      switch failure {
      case .system(let message): .system(message)
      case .notRegular(let kind): .notRegular(kind)
      }
    }
  }

  /// Everything in the file at `path`, or on standard input when `path` is nil.
  ///
  /// - Parameters:
  ///   - maximumLineLength: the most bytes a line may have before its "\n".
  ///   - maximumSize: the most bytes in all.
  ///   - regularOnly: Whether `path` must name a regular file (see ``open(_:regularOnly:)``).
  package static func contents(
    of path: String?, maximumLineLength: Int = FileBytes.maximumLineLength,
    maximumSize: Int = .max, regularOnly: Bool = false
  ) -> Result<[UInt8], Failure> {
    let descriptor: Int32
    if let path {
      switch open(path, regularOnly: regularOnly) {
      case .success(let opened): descriptor = opened
      case .failure(let failure): return .failure(failure)
      }
    } else {
      descriptor = STDIN_FILENO
    }
    defer { if path != nil { close(descriptor) } }
    return read(
      descriptor, maximumLineLength: maximumLineLength, maximumSize: maximumSize,
      chunkSize: chunkSize)
  }

  /// Everything readable from `descriptor`, read `chunkSize` bytes at a time, under the limits
  /// of ``contents(of:maximumLineLength:maximumSize:)``.
  static func read(
    _ descriptor: Int32, maximumLineLength: Int, maximumSize: Int, chunkSize: Int
  ) -> Result<[UInt8], Failure> {
    var status = stat()
    var bytes: [UInt8] = []
    if fstat(descriptor, &status) == 0 && status.st_size > 0 {
      // A regular file: room for all of it at once (only reserved; pages are touched as the
      // bytes arrive), within the limit.
      bytes.reserveCapacity(min(Int(status.st_size), maximumSize) + 1)
    }
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    // Where the line being read starts.
    var lineStart = 0
    while true {
      let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { break }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(.system(String(cString: strerror(errno))))
      }
      let start = bytes.count
      bytes.append(contentsOf: chunk[0..<count])
      // Every line that ends in this chunk, and the one still open, within the limit.
      let longLine: Int? = chunk.withUnsafeBytes { chunk in
        guard let base = chunk.baseAddress else { return nil }
        var position = base
        let end = base + count
        while position < end, let newline = memchr(position, 0x0A, end - position) {
          let lineEnd = start + (UnsafeRawPointer(newline) - base)
          if lineEnd - lineStart > maximumLineLength { return lineStart }
          position = UnsafeRawPointer(newline) + 1
          lineStart = lineEnd + 1
        }
        return bytes.count - lineStart > maximumLineLength ? lineStart : nil
      }
      if let longLine {
        return .failure(
          .lineTooLong(line: lineNumber(at: longLine, in: bytes), limit: maximumLineLength))
      }
      if bytes.count > maximumSize {
        return .failure(.tooLarge(line: lineNumber(at: maximumSize, in: bytes), limit: maximumSize))
      }
    }
    return .success(bytes)
  }

  /// The number (from 1) of the line that byte `offset` is in.
  private static func lineNumber(at offset: Int, in bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { buffer in
      guard var position = buffer.baseAddress else { return 1 }
      let end = position + offset
      var line = 1
      while position < end, let newline = memchr(position, 0x0A, end - position) {
        line += 1
        position = UnsafeRawPointer(newline) + 1
      }
      return line
    }
  }

  /// A size in bytes as it is said: "256 MiB", "2 GiB", "1,000 bytes".
  static func size(_ bytes: Int) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")]
    where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
      return "\(bytes >> shift) \(unit)"
    }
    // Int32.max and the like: one byte short of a round size.
    for (shift, unit) in [(30, "GiB"), (20, "MiB")] where (bytes + 1) % (1 << shift) == 0 {
      return "\((bytes + 1) >> shift) \(unit)"
    }
    return "\(bytes) bytes"
  }
}

/// read(2), at file scope where `read` is the C function.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
