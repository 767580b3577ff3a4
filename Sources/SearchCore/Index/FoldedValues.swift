/// The folded text of every value of one field, column-wise: a separator byte (0xFF), then
/// each value's folded UTF-8 followed by the separator. Value numbers are the model's.
///
/// 0xFF never occurs in UTF-8, so a folded pattern found anywhere in `bytes` lies inside one
/// value; a pattern preceded by the separator is a prefix of a value, one followed by it a
/// suffix.
struct FoldedValues: Sendable {
  static let separator: UInt8 = 0xFF

  /// The separator, then every value followed by the separator.
  private(set) var bytes: [UInt8] = [FoldedValues.separator]
  /// Start offset of each value; value `v` is `starts[v]..<(starts[v + 1] - 1)`.
  private(set) var starts: [Int32] = [1]
  /// Scalar boundaries inside a folded character (never match boundaries), ascending.
  private(set) var interior: [Int32] = []
  /// Values whose folded text starts or ends with whitespace, ascending: anchored terms skip
  /// that whitespace, as fzf does.
  private(set) var leadingSpace: [Int32] = []
  private(set) var trailingSpace: [Int32] = []
  /// How often each byte occurs: tells a scan whether a one-byte term is rare (search for it)
  /// or common (walk the values).
  private(set) var byteCounts = [Int](repeating: 0, count: 256)
  /// Bits for the most frequent bytes, when computed (see ``CommonBytes``).
  var commonBytes: CommonBytes?

  /// The share of the column's bytes that are `byte`.
  func frequency(of byte: UInt8) -> Double {
    bytes.isEmpty ? 0 : Double(byteCounts[Int(byte)]) / Double(bytes.count)
  }

  /// The number of values.
  var count: Int { starts.count - 1 }

  /// The byte range of value `v`, without its separator.
  @inline(__always)
  func range(of value: Int) -> Range<Int> { Int(starts[value])..<(Int(starts[value + 1]) - 1) }

  /// Whether a match may start or end at `offset` (a character boundary of the folded text).
  ///
  /// Between two ASCII bytes other than CR LF, and next to a separator, there is always a
  /// character boundary (grapheme clusters join ASCII only as CR LF): only other offsets
  /// search the interior boundaries, so a scan of Latin text in a column with some Indic or
  /// emoji values pays for the search only near those characters.
  @inline(__always)
  func isBoundary(_ offset: Int) -> Bool {
    if interior.isEmpty { return true }
    if offset > 0 && offset < bytes.count {
      let before = bytes[offset - 1]
      let after = bytes[offset]
      if before == Self.separator || after == Self.separator { return true }
      if before < 0x80 && after < 0x80 && !(before == 0x0D && after == 0x0A) { return true }
    }
    return !interior.containsSorted(Int32(offset))
  }

  mutating func reserve(values: Int, bytes count: Int) {
    starts.reserveCapacity(values + 1)
    bytes.reserveCapacity(count + values + 1)
  }

  /// Appends the folded form of one value.
  mutating func append(_ buffer: FoldBuffer) {
    let start = bytes.count
    let value = Int32(count)
    bytes.append(contentsOf: buffer.bytes)
    byteCounts.withUnsafeMutableBufferPointer { counts in
      for byte in buffer.bytes { counts[Int(byte)] += 1 }
    }
    for offset in buffer.interior { interior.append(Int32(start + offset)) }
    if let first = buffer.bytes.first, Whitespace.startsWithSpace(buffer.bytes, first: first) {
      leadingSpace.append(value)
    }
    if Whitespace.endsWithSpace(buffer.bytes) { trailingSpace.append(value) }
    bytes.append(Self.separator)
    starts.append(Int32(bytes.count))
  }

  /// Appends all values of another column, after this one's.
  mutating func append(contentsOf other: FoldedValues) {
    let shift = Int32(bytes.count - 1)
    let valueShift = Int32(count)
    bytes.append(contentsOf: other.bytes.dropFirst())
    for start in other.starts.dropFirst() { starts.append(start + shift) }
    for offset in other.interior { interior.append(offset + shift) }
    for value in other.leadingSpace { leadingSpace.append(value + valueShift) }
    for value in other.trailingSpace { trailingSpace.append(value + valueShift) }
    for byte in 0..<256 { byteCounts[byte] += other.byteCounts[byte] }
  }
}

extension FoldedValues {
  /// The folded form of the texts at `ranges` of `bytes` (valid UTF-8), in order, folded by
  /// `folder`; `byteCount` is about how many bytes they hold, for the reservation.
  init(
    folding ranges: some Collection<Range<Int>>, of bytes: [UInt8], byteCount: Int,
    with folder: Folder
  ) throws(ICUError) {
    reserve(values: ranges.count, bytes: byteCount)
    var buffer = FoldBuffer()
    var failure: ICUError?
    bytes.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      for range in ranges {
        do throws(ICUError) {
          try folder.fold(
            UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), into: &buffer,
            recordsMap: false)
        } catch {
          failure = error
          return
        }
        append(buffer)
      }
    }
    if let failure { throw failure }
  }
}

/// Whitespace as fzf's anchored matches see it (Go's `unicode.IsSpace`), on folded UTF-8.
enum Whitespace {
  /// Whether the scalar is white space: tab, line feed, vertical tab, form feed, carriage
  /// return, space, U+0085, U+00A0, and the separators of category Z.
  static func isSpace(_ value: UInt32) -> Bool {
    switch value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
      0x3000:
      return true
    default: return false
    }
  }

  static func startsWithSpace(_ bytes: [UInt8], first: UInt8) -> Bool {
    if first < 0x80 { return isSpace(UInt32(first)) }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return false }
      return isSpace(Folder.decode(base, at: 0, count: buffer.count).value)
    }
  }

  static func endsWithSpace(_ bytes: [UInt8]) -> Bool {
    guard let last = bytes.last else { return false }
    if last < 0x80 { return isSpace(UInt32(last)) }
    var start = bytes.count - 1
    while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return false }
      return isSpace(Folder.decode(base, at: start, count: buffer.count).value)
    }
  }

  /// The length of the whitespace at the start of `bytes`.
  static func leadingLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var i = 0
    while i < bytes.count {
      let (value, length) = Folder.decode(base, at: i, count: bytes.count)
      if !isSpace(value) { break }
      i += length
    }
    return i
  }

  /// The length of the whitespace at the end of `bytes`.
  static func trailingLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var end = bytes.count
    while end > 0 {
      var start = end - 1
      while start > 0 && base[start] & 0xC0 == 0x80 { start -= 1 }
      if !isSpace(Folder.decode(base, at: start, count: end).value) { break }
      end = start
    }
    return bytes.count - end
  }
}
