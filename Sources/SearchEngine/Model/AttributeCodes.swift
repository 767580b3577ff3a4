/// The attribute value of every item, as a code into the attribute's distinct values: one
/// byte per item while there are at most 256 distinct values (a language, a continent, a
/// country), four bytes per item from the 257th on.
struct AttributeCodes: Sendable {
  private(set) var narrow: [UInt8] = []
  private(set) var wide: [UInt32]?

  /// No item.
  init() {}

  /// Codes of stored parts, checked by the caller (see `AttributeCodes+Saving.swift`).
  init(narrow: [UInt8], wide: [UInt32]?) {
    self.narrow = narrow
    self.wide = wide
  }

  /// The number of items.
  var count: Int { wide?.count ?? narrow.count }

  @inline(__always)
  subscript(item: Int) -> UInt32 {
    get { wide.map { $0[item] } ?? UInt32(narrow[item]) }
    set {
      if wide == nil && newValue > UInt32(UInt8.max) { widen() }
      if var codes = wide {
        wide = nil  // keep the array uniquely referenced
        codes[item] = newValue
        wide = codes
      } else {
        narrow[item] = UInt8(newValue)
      }
    }
  }

  /// Adds an item with code 0.
  mutating func append() {
    if var codes = wide {
      wide = nil
      codes.append(0)
      wide = codes
    } else {
      narrow.append(0)
    }
  }

  mutating func reserve(_ items: Int) {
    if wide == nil { narrow.reserveCapacity(items) }
  }

  private mutating func widen() {
    wide = narrow.map(UInt32.init)
    narrow = []
  }
}

extension AttributeCodes: Equatable {
  /// Equal when every item has the same code, however the codes are stored.
  static func == (lhs: AttributeCodes, rhs: AttributeCodes) -> Bool {
    lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs[$0] == rhs[$0] }
  }
}
