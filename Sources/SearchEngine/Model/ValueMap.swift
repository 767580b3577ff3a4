/// Which values of a field's `TextColumn` belong to which item.
///
/// While every item has exactly one value and none was replaced, item `i` owns value `i` and
/// the map stores nothing: a million single-valued items cost no bytes here. The first item
/// with another number of values, update or removal makes the map explicit.
struct ValueMap: Sendable {
  /// The first value of each item, one past its last, and the owner of each value (-1 for a
  /// value nobody owns any more); nil while the map is the identity.
  private(set) var explicit: Explicit?
  /// The number of items the map knows.
  private(set) var itemCount = 0

  /// The identity map of no item.
  init() {}

  /// A map of stored parts, checked by the caller (see `ValueMap+Saving.swift`).
  init(itemCount: Int, explicit: Explicit?) {
    self.itemCount = itemCount
    self.explicit = explicit
  }

  struct Explicit: Sendable {
    var start: [Int32]
    var end: [Int32]
    var owner: [Int32]
  }

  /// The values of item `item`.
  @inline(__always)
  func range(of item: Int) -> Range<Int> {
    guard let explicit else { return item..<(item + 1) }
    return Int(explicit.start[item])..<Int(explicit.end[item])
  }

  /// The owner of value `value`, or -1.
  @inline(__always)
  func owner(of value: Int) -> Int32 { explicit?.owner[value] ?? Int32(value) }

  /// Records a new item whose `count` values start at value `first`.
  mutating func appendItem(first: Int, count: Int) {
    if explicit == nil && (count != 1 || first != itemCount) { materialize() }
    if var map = explicit {
      explicit = nil  // keep the arrays uniquely referenced while they grow
      map.start.append(Int32(first))
      map.end.append(Int32(first + count))
      for _ in 0..<count { map.owner.append(Int32(itemCount)) }
      explicit = map
    }
    itemCount += 1
  }

  /// Gives item `item` the `count` values starting at `first`; its old values lose their owner.
  mutating func replaceValues(of item: Int, first: Int, count: Int) {
    materialize()
    guard var map = explicit else { return }
    explicit = nil
    for value in Int(map.start[item])..<Int(map.end[item]) { map.owner[value] = -1 }
    map.start[item] = Int32(first)
    map.end[item] = Int32(first + count)
    for _ in 0..<count { map.owner.append(Int32(item)) }
    explicit = map
  }

  /// Takes the values of item `item` away from it.
  mutating func removeItem(_ item: Int) {
    materialize()
    guard var map = explicit else { return }
    explicit = nil
    for value in Int(map.start[item])..<Int(map.end[item]) { map.owner[value] = -1 }
    map.end[item] = map.start[item]
    explicit = map
  }

  /// Reserves room for about `items` items.
  mutating func reserve(items: Int) {
    guard var map = explicit else { return }
    explicit = nil
    map.start.reserveCapacity(items)
    map.end.reserveCapacity(items)
    map.owner.reserveCapacity(items)
    explicit = map
  }

  private mutating func materialize() {
    guard explicit == nil else { return }
    let identity = (0..<itemCount).map { Int32($0) }
    explicit = Explicit(start: identity, end: identity.map { $0 + 1 }, owner: identity)
  }
}
