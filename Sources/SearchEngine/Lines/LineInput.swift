#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text split into lines, checked to be UTF-8: the input of `filter` and of the loaders.
///
/// Lines end at "\n"; a final line without one is still a line, and a final "\n" does not
/// start an empty line. A line keeps a "\r" before its "\n" when printed, but the "\r" is not
/// part of the text that is searched.
package struct LineInput: Sendable {
  /// Where the text came from, for error messages: a path or "<stdin>".
  package let source: String
  /// The text as read.
  package let bytes: [UInt8]
  /// Start offset of each line.
  let starts: [Int]
  /// End offset of each line, before its "\n".
  let ends: [Int]

  /// The longest line read from a file or a pipe (see ``FileBytes/maximumLineLength``).
  package static let maximumLineLength = FileBytes.maximumLineLength

  /// The most bytes read in all, 2 GiB: what a field of a ``SearchModel`` holds.
  package static let maximumSize = Int(Int32.max)

  /// Reads the file at `path`, or standard input when `path` is nil, to its end and splits it
  /// into lines.
  ///
  /// Reading stops with an error at a line longer than ``maximumLineLength`` and when the
  /// input passes ``maximumSize``, as soon as the bytes arrive, so an endless input (a pipe,
  /// a device) ends in an error, not in running out of memory.
  ///
  /// - Throws: ``InputError`` when the file cannot be read, passes a limit, or is not UTF-8.
  package init(readingFile path: String?) throws(InputError) {
    let source = path ?? "<stdin>"
    switch FileBytes.contents(
      of: path, maximumLineLength: Self.maximumLineLength, maximumSize: Self.maximumSize)
    {
    case .success(let bytes): try self.init(bytes: bytes, source: source)
    case .failure(.system(let message)):
      throw InputError(
        source: source, line: nil,
        reason: "cannot read \(path == nil ? "standard input" : "the file"): \(message)",
        hint: path == nil ? nil : "check the path")
    case .failure(let failure):
      throw InputError(
        source: source, line: failure.line, reason: failure.message, hint: failure.hint)
    }
  }

  /// Splits `bytes` into lines after checking that they are UTF-8.
  ///
  /// - Throws: ``InputError`` naming the line and byte of the first invalid UTF-8 sequence.
  package init(bytes: [UInt8], source: String) throws(InputError) {
    self.source = source
    self.bytes = bytes
    var starts: [Int] = []
    var ends: [Int] = []
    let invalid: Int? = bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var position = 0
      while position < buffer.count {
        starts.append(position)
        if let newline = memchr(base + position, 0x0A, buffer.count - position) {
          let end = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
          ends.append(end)
          position = end + 1
        } else {
          ends.append(buffer.count)
          position = buffer.count
        }
      }
      return UTF8Validation.firstInvalidOffset(in: buffer)
    }
    self.starts = starts
    self.ends = ends
    if let invalid {
      let line = Self.lineIndex(containing: invalid, starts: starts)
      let byte = bytes[invalid]
      throw InputError(
        source: source, line: line + 1, column: invalid - starts[line] + 1,
        reason: "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))",
        hint: NotUTF8.hint(bytes, subject: "the input"))
    }
  }

  /// The number of lines.
  package var count: Int { starts.count }

  /// The byte range of line `index` (from 0) as printed, without its "\n".
  package func printedRange(ofLine index: Int) -> Range<Int> { starts[index]..<ends[index] }

  /// The byte range of line `index` that is searched: without a final "\r".
  package func searchedRange(ofLine index: Int) -> Range<Int> {
    var end = ends[index]
    if end > starts[index] && bytes[end - 1] == 0x0D { end -= 1 }
    return starts[index]..<end
  }

  /// The text of line `index` (from 0), as searched.
  package func line(_ index: Int) -> String {
    String(decoding: bytes[searchedRange(ofLine: index)], as: UTF8.self)
  }

  private static func lineIndex(containing offset: Int, starts: [Int]) -> Int {
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if starts[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return max(low - 1, 0)
  }
}
