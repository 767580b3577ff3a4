/// The folded text of every value of one field, column-wise: a separator byte (0xFF), then
/// each value's folded UTF-8 followed by the separator.
///
/// Value numbers are the model's.
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
  /// The values that hold each gram, when built (see ``GramIndex``).
  var grams: GramIndex?

  /// An empty column.
  init() {}

  /// A column of stored parts, checked by the caller (see `FoldedValues+Saving.swift`).
  init(
    bytes: [UInt8], starts: [Int32], interior: [Int32], leadingSpace: [Int32],
    trailingSpace: [Int32], byteCounts: [Int], commonBytes: CommonBytes?
  ) {
    self.bytes = bytes
    self.starts = starts
    self.interior = interior
    self.leadingSpace = leadingSpace
    self.trailingSpace = trailingSpace
    self.byteCounts = byteCounts
    self.commonBytes = commonBytes
  }

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
    Self.isBoundary(offset, bytes: bytes, interior: interior)
  }

  /// ``isBoundary(_:)`` for a reader of the column's bytes through a buffer: a closure that
  /// captures these two rather than the column copies one array, not each of the column's
  /// arrays, every time it is made.
  @inline(__always)
  static func isBoundary<Bytes: RandomAccessCollection<UInt8>>(
    _ offset: Int, bytes: Bytes, interior: [Int32]
  ) -> Bool where Bytes.Index == Int {
    if interior.isEmpty { return true }
    if offset > 0 && offset < bytes.count {
      let before = bytes[offset - 1]
      let after = bytes[offset]
      if before == separator || after == separator { return true }
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
  ///
  /// A text made only of ASCII that folds byte for byte (``Folder/asciiFolds``), most texts
  /// of most columns, is folded straight into the column by table; only the others go
  /// through the folder's loop and a ``FoldBuffer``.
  init(
    folding ranges: some Collection<Range<Int>>, of bytes: [UInt8], byteCount: Int,
    with folder: Folder
  ) throws(ICUError) {
    let folded = bytes.withUnsafeBufferPointer { bytes in
      Result { () throws(ICUError) in
        try FoldedValues(folding: ranges, of: bytes, byteCount: byteCount, with: folder)
      }
    }
    self = try folded.get()
  }

  /// The folded form of the texts at `ranges` of `bytes` (valid UTF-8), as the initialiser
  /// over an array gives it; without `countsBytes`, `byteCounts` stays zero (for a scan that
  /// asks no byte's frequency: one with no term of one byte).
  init(
    folding ranges: some Collection<Range<Int>>, of bytes: UnsafeBufferPointer<UInt8>,
    byteCount: Int, with folder: Folder, countsBytes: Bool = true
  ) throws(ICUError) {
    starts.reserveCapacity(ranges.count + 1)
    var column = [UInt8](repeating: Self.separator, count: byteCount + ranges.count + 1)
    var used = 1
    var buffer = FoldBuffer()
    var failure: ICUError?
    var next = ranges.startIndex
    folder.asciiFolds.withUnsafeBufferPointer { table in
      guard let base = bytes.baseAddress, let table = table.baseAddress else { return }
      while next != ranges.endIndex {
        // Fold values in place while they fit; make room and go on when one does not.
        column.withUnsafeMutableBufferPointer { output in
          guard let out = output.baseAddress else { return }
          while next != ranges.endIndex {
            let range = ranges[next]
            let text = base + range.lowerBound
            let count = range.count
            // Room for the value folded by table and its separator.
            guard used + count + 1 <= output.count else { return }
            var k = 0
            while k < count {
              let folded = table[Int(text[k])]
              if folded == 0xFF { break }
              out[used + k] = folded
              k += 1
            }
            let value = Int32(starts.count - 1)
            if k == count {
              if count > 0 {
                if Whitespace.isSpace(UInt32(out[used])) { leadingSpace.append(value) }
                if Whitespace.isSpace(UInt32(out[used + count - 1])) {
                  trailingSpace.append(value)
                }
              }
            } else {
              do throws(ICUError) {
                try folder.fold(
                  UnsafeBufferPointer(start: text, count: count), into: &buffer,
                  recordsMap: false)
              } catch {
                failure = error
                next = ranges.endIndex
                return
              }
              guard used + buffer.bytes.count + 1 <= output.count else { return }
              buffer.bytes.withUnsafeBufferPointer { folded in
                guard let from = folded.baseAddress else { return }
                (out + used).update(from: from, count: folded.count)
              }
              for offset in buffer.interior { interior.append(Int32(used + offset)) }
              if let first = buffer.bytes.first,
                Whitespace.startsWithSpace(buffer.bytes, first: first)
              {
                leadingSpace.append(value)
              }
              if Whitespace.endsWithSpace(buffer.bytes) { trailingSpace.append(value) }
              k = buffer.bytes.count
            }
            used += k
            out[used] = Self.separator
            used += 1
            starts.append(Int32(used))
            ranges.formIndex(after: &next)
          }
        }
        if next != ranges.endIndex {
          // The next value needs more room than is left: grow by half again, at least enough.
          let needed = max(ranges[next].count, buffer.bytes.count) + 1
          column.append(
            contentsOf: repeatElement(Self.separator, count: max(column.count / 2, needed)))
        }
      }
    }
    if let failure { throw failure }
    column.removeLast(column.count - used)
    self.bytes = column
    if countsBytes { countBytes() }
  }

  /// Counts every byte of the values (not the separators) into `byteCounts`.
  private mutating func countBytes() {
    byteCounts = Self.byteCounts(of: bytes)
    byteCounts[Int(Self.separator)] = 0
  }

  /// How often each byte occurs in `bytes`, the separators too.
  static func byteCounts(of bytes: [UInt8]) -> [Int] {
    // Four tables, so that a run of one byte does not wait on its own count.
    var counts = [Int](repeating: 0, count: 4 * 256)
    bytes.withUnsafeBufferPointer { bytes in
      counts.withUnsafeMutableBufferPointer { counts in
        guard let base = bytes.baseAddress, let tables = counts.baseAddress else { return }
        var i = 0
        while i + 4 <= bytes.count {
          tables[Int(base[i])] += 1
          tables[256 + Int(base[i + 1])] += 1
          tables[512 + Int(base[i + 2])] += 1
          tables[768 + Int(base[i + 3])] += 1
          i += 4
        }
        while i < bytes.count {
          tables[Int(base[i])] += 1
          i += 1
        }
      }
    }
    return (0..<256).map { counts[$0] + counts[256 + $0] + counts[512 + $0] + counts[768 + $0] }
  }

  /// The values whose folded text starts, and those whose text ends, with whitespace, as
  /// `append` lists them: what a saved column's lists are checked against.
  func spaceLists() -> (leading: [Int32], trailing: [Int32]) {
    var leading: [Int32] = []
    var trailing: [Int32] = []
    bytes.withUnsafeBufferPointer { buffer in
      starts.withUnsafeBufferPointer { starts in
        guard let base = buffer.baseAddress else { return }
        for value in 0..<(starts.count - 1) {
          let start = Int(starts[value])
          let end = Int(starts[value + 1]) - 1
          guard start < end else { continue }
          let first = base[start]
          if first < 0x80
            ? Whitespace.isSpace(UInt32(first))
            : Whitespace.isSpace(Folder.decode(base, at: start, count: end).value)
          {
            leading.append(Int32(value))
          }
          var last = end - 1
          if base[last] >= 0x80 {
            while last > start && base[last] & 0xC0 == 0x80 { last -= 1 }
          }
          if Whitespace.isSpace(Folder.decode(base, at: last, count: end).value) {
            trailing.append(Int32(value))
          }
        }
      }
    }
    return (leading, trailing)
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
    // Most values start with a visible ASCII character: no decoding.
    if bytes.count > 0 && (0x21...0x7E).contains(base[0]) { return 0 }
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
    if bytes.count > 0 && (0x21...0x7E).contains(base[bytes.count - 1]) { return 0 }
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
