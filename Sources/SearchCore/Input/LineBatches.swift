#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file, standard input or bytes in memory, read in batches of whole lines: what `filter`
/// and the data set loader stream, so that memory holds a batch and not the whole input.
///
/// Reading checks the line limit as the bytes arrive, as ``FileBytes`` does: a line longer
/// than ``LineInput/maximumLineLength`` stops it with an error before it fills memory.
package struct LineBatches: ~Copyable {
  private enum Input {
    case descriptor(Int32, closes: Bool)
    case memory([UInt8])
  }

  private let input: Input
  /// The input's size when it is known (a regular file, bytes in memory), for progress and
  /// reservations.
  package let size: Int?
  /// Bytes read and not yet handed out: the line still open, then what was read after it.
  private var pending: [UInt8] = []
  /// Where reading from memory has got to.
  private var memoryOffset = 0
  private var atEnd = false

  /// The bytes read at once.
  static let blockSize = 1 << 20

  /// Opens the file at `path`, or standard input when `path` is nil.
  package init(path: String?) throws(FileBytes.Failure) {
    var descriptor = STDIN_FILENO
    if let path {
      descriptor = open(path, O_RDONLY)
      if descriptor < 0 { throw .system(String(cString: strerror(errno))) }
    }
    var status = stat()
    let isFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    input = .descriptor(descriptor, closes: path != nil)
    size = isFile ? Int(status.st_size) : nil
  }

  /// Serves `bytes` in batches, as a file holding them would be read.
  package init(bytes: [UInt8]) {
    input = .memory(bytes)
    size = bytes.count
  }

  deinit {
    if case .descriptor(let descriptor, closes: true) = input { close(descriptor) }
  }

  /// The next batch: whole lines of about `bytes` bytes (more when a line is longer), the
  /// last batch ending where the input ends (with or without a final "\n"); nil after it.
  ///
  /// - Parameters:
  ///   - linesBefore: The number of lines in the batches handed out so far, for errors.
  ///   - endsAfterContent: Whether a batch other than the last must end after a line that is
  ///     not blank (not only "\r"), so that the blank lines at the end of the input all come
  ///     in the last batch, where a reader that ignores them can tell them apart.
  package mutating func next(bytes: Int, linesBefore: Int, endsAfterContent: Bool = false)
    throws(FileBytes.Failure) -> (bytes: [UInt8], isLast: Bool)?
  {
    if atEnd && pending.isEmpty { return nil }
    var searched = 0
    var cut: Int?
    while !atEnd && (pending.count < bytes || cut == nil) {
      try readBlock()
      cut = cutOffset(searchingFrom: searched, endsAfterContent: endsAfterContent) ?? cut
      searched = pending.count
      try checkLineLength(linesBefore: linesBefore)
    }
    if atEnd {
      defer { pending = [] }
      return pending.isEmpty ? nil : (pending, true)
    }
    guard let cut else { return nil }  // not reached: the loop reads until a cut or the end
    var batch = pending
    pending = Array(pending[cut...])
    batch.removeLast(batch.count - cut)
    return (batch, false)
  }

  private mutating func readBlock() throws(FileBytes.Failure) {
    switch input {
    case .memory(let bytes):
      let count = min(Self.blockSize, bytes.count - memoryOffset)
      pending.append(contentsOf: bytes[memoryOffset..<(memoryOffset + count)])
      memoryOffset += count
      atEnd = count == 0
    case .descriptor(let descriptor, _):
      let start = pending.count
      pending.append(contentsOf: repeatElement(0, count: Self.blockSize))
      var count = 0
      while true {
        count = pending.withUnsafeMutableBufferPointer { buffer in
          systemRead(descriptor, buffer.baseAddress.map { $0 + start }, Self.blockSize)
        }
        if count >= 0 { break }
        if errno != EINTR {
          pending.removeLast(Self.blockSize)
          throw .system(String(cString: strerror(errno)))
        }
      }
      pending.removeLast(Self.blockSize - count)
      atEnd = count == 0
    }
  }

  /// Where a batch may end in `pending` (after a "\n"), at or after `start`: after the last
  /// line break, or, with `endsAfterContent`, after the last line that is not blank.
  private func cutOffset(searchingFrom start: Int, endsAfterContent: Bool) -> Int? {
    guard let newline = pending[start...].lastIndex(of: 0x0A) else { return nil }
    guard endsAfterContent else { return newline + 1 }
    // Back over the blank lines at the end, then forward to the end of the last other line.
    guard let content = pending[..<newline].lastIndex(where: { $0 != 0x0A && $0 != 0x0D })
    else { return nil }
    return (pending[content...].firstIndex(of: 0x0A) ?? newline) + 1
  }

  /// Stops at a line longer than ``LineInput/maximumLineLength``: the first one in `pending`
  /// (the only one that can be longer than a batch).
  private func checkLineLength(linesBefore: Int) throws(FileBytes.Failure) {
    let limit = LineInput.maximumLineLength
    guard pending.count > limit else { return }
    if (pending.firstIndex(of: 0x0A) ?? pending.count) > limit {
      throw .lineTooLong(line: linesBefore + 1, limit: limit)
    }
  }
}

/// read(2), at file scope where `read` is the C function.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
