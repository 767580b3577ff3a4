/// The text of one field for every item, stored column-wise: every value's UTF-8 back to back,
/// each followed by the separator byte 0xFF (which never occurs in UTF-8, so a substring search
/// over the whole column never runs from one value into the next).
///
/// Values are numbered in the order they were appended; an item's values are consecutive. An
/// update appends the new values and leaves the old bytes unused until the column is compacted.
package struct TextColumn: Sendable {
  static let separator: UInt8 = 0xFF

  /// All values, each followed by the separator.
  package private(set) var bytes: [UInt8] = []
  /// Start offset of each value; one more entry than values, so value `v` is
  /// `starts[v]..<(starts[v + 1] - 1)` (the separator excluded).
  private(set) var starts: [Int32] = [0]

  /// An empty column.
  init() {}

  /// A column of stored parts, checked by the caller (see `TextColumn+Saving.swift`).
  init(bytes: [UInt8], starts: [Int32]) {
    self.bytes = bytes
    self.starts = starts
  }

  /// The number of values, used or not.
  var valueCount: Int { starts.count - 1 }

  /// The byte range of value `v`, without its separator.
  @inline(__always)
  func range(of value: Int) -> Range<Int> { Int(starts[value])..<(Int(starts[value + 1]) - 1) }

  /// The text of value `v`.
  func string(_ value: Int) -> String { String(decoding: bytes[range(of: value)], as: UTF8.self) }

  mutating func reserve(values: Int, bytes count: Int) {
    starts.reserveCapacity(values + 1)
    bytes.reserveCapacity(count)
  }

  /// Appends one value given as valid UTF-8.
  mutating func append<C: Collection<UInt8>>(utf8 value: C) {
    bytes.append(contentsOf: value)
    bytes.append(Self.separator)
    starts.append(Int32(bytes.count))
  }

  /// Appends one value.
  mutating func append(_ value: String) {
    var value = value
    value.withUTF8 { append(utf8: $0) }
  }
}
