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
  /// Where a block is read before it joins `pending`.
  private var block = [UInt8](repeating: 0, count: LineBatches.blockSize)

  /// The bytes read at once.
  static let blockSize = 1 << 20

  /// Opens the file at `path`, or standard input when `path` is nil; with `regularOnly`,
  /// `path` must name a regular file (see ``FileBytes/open(_:regularOnly:)``).
  package init(path: String?, regularOnly: Bool = false) throws(FileBytes.Failure) {
    var descriptor = STDIN_FILENO
    if let path { descriptor = try FileBytes.open(path, regularOnly: regularOnly).get() }
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
    // Room for the batch and the block read past it at once, rather than regrown (and its
    // fresh pages touched) at each doubling.
    pending.reserveCapacity(max(min(bytes, 1 << 26), pending.count) + Self.blockSize)
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
      var count = 0
      repeat {
        count = block.withUnsafeMutableBufferPointer { buffer in
          systemRead(descriptor, buffer.baseAddress, buffer.count)
        }
      } while count < 0 && errno == EINTR
      if count < 0 { throw .system(String(cString: strerror(errno))) }
      block.withUnsafeBufferPointer { buffer in
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
      }
      atEnd = count == 0
    }
  }

  /// Where a batch may end in `pending` (after a "\n"), at or after `start`: after the last
  /// line break, or, with `endsAfterContent`, after the last line that is not blank.
  private func cutOffset(searchingFrom start: Int, endsAfterContent: Bool) -> Int? {
    pending.withUnsafeBufferPointer { bytes in
      // One memchr says whether there is a line break at all (none in /dev/zero); the last is
      // then near the end, found walking back.
      guard let base = bytes.baseAddress, start < bytes.count,
        memchr(base + start, 0x0A, bytes.count - start) != nil
      else { return nil }
      var newline = bytes.count - 1
      while base[newline] != 0x0A { newline -= 1 }
      guard endsAfterContent else { return newline + 1 }
      // Back over the blank lines at the end, then forward to the end of the last other line.
      var content = newline - 1
      while content >= 0 && (base[content] == 0x0A || base[content] == 0x0D) { content -= 1 }
      guard content >= 0, let after = memchr(base + content, 0x0A, newline + 1 - content) else {
        return nil
      }
      return UnsafeRawPointer(after) - UnsafeRawPointer(base) + 1
    }
  }

  /// Stops at a line longer than ``LineInput/maximumLineLength``: the first one in `pending`
  /// (the only one that can be longer than a batch).
  private func checkLineLength(linesBefore: Int) throws(FileBytes.Failure) {
    let limit = LineInput.maximumLineLength
    guard pending.count > limit else { return }
    let firstLineEnd = pending.withUnsafeBufferPointer { bytes in
      bytes.baseAddress.flatMap { base in
        memchr(base, 0x0A, bytes.count).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
      } ?? bytes.count
    }
    if firstLineEnd > limit { throw .lineTooLong(line: linesBefore + 1, limit: limit) }
  }
}

/// read(2), at file scope where `read` is the C function.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}
