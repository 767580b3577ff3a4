/// The candidates of completions of a corpus's searched fields, with the items that hold
/// each, ranked for a prefix lookup.
///
/// Every value of a searched field gives keys (``CompletionKeys``): the whole folded value
/// and each folded word in it. A candidate is a distinct key; its weight is the number of
/// distinct live items whose searched fields hold it, as a value or as a word. A key is
/// referred to by its place in the index's folded bytes (field, offset, length): the text is
/// never copied. Folded bytes are only ever appended to, so a place stays valid.
///
/// The candidates of the last build ("base" candidates) are sorted by their folded bytes, so
/// that the candidates a typed prefix completes form one range, and a tree over their
/// weights gives the best of any range (`CompletionTree`). Candidates that changes brought
/// after the build ("new" candidates) are appended after them, with their own sorted order;
/// past ``newShare`` of the base, the next change builds the index again.
///
/// The ranking rule: weight descending (weights counted over the admitted items only when a
/// set is given), then the candidate's folded bytes in binary order. Binary order stands in
/// for the locale's collation: an ICU sort key for every candidate took 0.6 to 1.1 times the
/// rest of the index's build on one thread (cities500 and W1, in the completions benchmark),
/// on top of a build that already costs more than the corpus's.
struct CompletionIndex: Sendable {
  /// The schema field of each candidate's key, by handle (base candidates first).
  var keyField: [UInt16] = []
  /// The offset of each candidate's key in its field's folded bytes.
  var keyStart: [Int32] = []
  /// The length of each candidate's key, in bytes.
  var keyLength: [Int32] = []
  /// The number of live items holding each candidate.
  var weights: [Int32] = []
  /// The number of base candidates: handles below it are sorted by key.
  var baseCount = 0
  /// The items holding each base candidate as built, ascending: candidate `c`'s are
  /// `listItems[listStart[c]..<listStart[c + 1]]`, unless `overridden` holds `c`.
  var listStart: [Int32] = [0]
  var listItems: [Int32] = []
  /// The candidates whose items changed since the build, and every new one.
  var overridden = Bitset(capacity: 0)
  /// Their items, ascending.
  var overrides: [Int32: [Int32]] = [:]
  /// The new candidates' handles, sorted by key.
  var newOrder: [Int32] = []
  /// The best weights of ranges of base candidates.
  var tree = CompletionTree()

  /// The largest number of new candidates, as a share of the base ones, that changes add
  /// before the index is built again: a lookup scans the new candidates of its range
  /// rather than a tree, which stays cheap while they are few.
  static let newShare = 0.125
  /// Below this many base candidates, the share above is this many instead.
  static let newFloor = 1_024

  /// The number of candidates, base and new.
  var count: Int { keyField.count }

  /// Whether changes added so many new candidates that building again is due.
  var needsRebuild: Bool {
    Double(newOrder.count) > max(Double(Self.newFloor), Self.newShare * Double(baseCount))
  }

  /// The bytes the index holds, for the benchmark's report.
  var memoryBytes: Int {
    count * (2 + 4 + 4 + 4) + listStart.count * 4 + listItems.count * 4 + tree.memoryBytes
      + overrides.values.reduce(0) { $0 + 16 + 4 * $1.count } + newOrder.count * 4
  }

  /// The items holding candidate `handle`, ascending.
  @inline(__always)
  func items(of handle: Int) -> ArraySlice<Int32> {
    if overridden.contains(handle) { return overrides[Int32(handle)]?[...] ?? [] }
    return listItems[Int(listStart[handle])..<Int(listStart[handle + 1])]
  }

  /// An empty index.
  init() {}

  /// Builds the index of the searched fields of `model`, whose folded text `index` holds.
  ///
  /// - Complexity: O(*e* log *e*) for *e* keys of the live items' values.
  init(model: SearchModel, index: SearchIndex) {
    let fields = index.fields
    self = Self.withBuffers(fields) { buffers in
      var entries = Self.entries(model: model, fields: fields, buffers: buffers)
      Self.sort(&entries, buffers: buffers)
      return CompletionIndex(sorted: entries, buffers: buffers)
    }
  }

  /// One key of one item, before the keys are grouped into candidates.
  struct Entry {
    /// The key's first eight bytes, big-endian, zeros after a shorter key.
    var prefix: UInt64
    var start: Int32
    var length: Int32
    var item: Int32
    var field: UInt16
  }

  /// The keys of every live item's values, item by item.
  private static func entries(
    model: SearchModel, fields: [FoldedValues?], buffers: [UnsafeBufferPointer<UInt8>]
  ) -> [Entry] {
    var entries: [Entry] = []
    entries.reserveCapacity(fields.reduce(0) { $0 + ($1?.count ?? 0) } * 2)
    let searched = fields.indices.filter { fields[$0] != nil }
    for item in 0..<model.identityLimit where model.isAlive[item] {
      for field in searched {
        guard let folded = fields[field] else { continue }
        let bytes = buffers[field]
        for value in model.valueMaps[field].range(of: item) {
          CompletionKeys.forEach(in: bytes, range: folded.range(of: value)) { start, length in
            entries.append(
              Entry(
                prefix: prefix(bytes, start: start, length: length), start: Int32(start),
                length: Int32(length), item: Int32(item), field: UInt16(field)))
          }
        }
      }
    }
    return entries
  }

  /// Sorts entries by key, then item.
  private static func sort(_ entries: inout [Entry], buffers: [UnsafeBufferPointer<UInt8>]) {
    entries.sort { a, b in
      if a.prefix != b.prefix { return a.prefix < b.prefix }
      if a.length > 8 && b.length > 8 {
        let order = compareTails(a, b, buffers: buffers)
        if order != 0 { return order < 0 }
      }
      if a.length != b.length { return a.length < b.length }
      return a.item < b.item
    }
  }

  /// The candidates of sorted entries: one per run of equal keys, with its distinct items.
  private init(sorted entries: [Entry], buffers: [UnsafeBufferPointer<UInt8>]) {
    var i = 0
    listItems.reserveCapacity(entries.count)
    while i < entries.count {
      let first = entries[i]
      keyField.append(first.field)
      keyStart.append(first.start)
      keyLength.append(first.length)
      var last: Int32 = -1
      var j = i
      while j < entries.count, j == i || Self.sameKey(first, entries[j], buffers: buffers) {
        if entries[j].item != last {
          listItems.append(entries[j].item)
          last = entries[j].item
        }
        j += 1
      }
      listStart.append(Int32(listItems.count))
      weights.append(listStart[listStart.count - 1] - listStart[listStart.count - 2])
      i = j
    }
    baseCount = keyField.count
    overridden = Bitset(capacity: baseCount)
    tree = CompletionTree(weights: weights)
  }

  @inline(__always)
  private static func sameKey(_ a: Entry, _ b: Entry, buffers: [UnsafeBufferPointer<UInt8>])
    -> Bool
  {
    a.prefix == b.prefix && a.length == b.length
      && (a.length <= 8 || compareTails(a, b, buffers: buffers) == 0)
  }

  /// Compares the bytes of two keys after their first eight, up to the shorter's end.
  @inline(__always)
  private static func compareTails(
    _ a: Entry, _ b: Entry, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> Int {
    compare(
      buffers[Int(a.field)], Int(a.start) + 8, Int(a.length) - 8, buffers[Int(b.field)],
      Int(b.start) + 8, Int(b.length) - 8)
  }

  /// Compares two byte strings: negative, zero or positive as the first sorts before, with or
  /// after the second (a prefix before the longer string).
  @inline(__always)
  static func compare(
    _ x: UnsafeBufferPointer<UInt8>, _ xStart: Int, _ xLength: Int,
    _ y: UnsafeBufferPointer<UInt8>, _ yStart: Int, _ yLength: Int
  ) -> Int {
    guard let xBase = x.baseAddress, let yBase = y.baseAddress else { return xLength - yLength }
    let n = min(xLength, yLength)
    var k = 0
    while k < n {
      let a = xBase[xStart + k]
      let b = yBase[yStart + k]
      if a != b { return a < b ? -1 : 1 }
      k += 1
    }
    return xLength - yLength
  }

  /// The first eight bytes of a key, big-endian, zeros after a shorter key.
  @inline(__always)
  static func prefix(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, length: Int) -> UInt64 {
    var value: UInt64 = 0
    for k in 0..<8 {
      value <<= 8
      if k < length { value |= UInt64(bytes[start + k]) }
    }
    return value
  }

  /// Calls `body` with the folded bytes of every field (empty for fields not searched).
  static func withBuffers<R>(
    _ fields: [FoldedValues?], _ body: ([UnsafeBufferPointer<UInt8>]) -> R
  ) -> R {
    func next(_ field: Int, _ buffers: [UnsafeBufferPointer<UInt8>]) -> R {
      if field == fields.count { return body(buffers) }
      guard let folded = fields[field] else {
        return next(field + 1, buffers + [UnsafeBufferPointer(start: nil, count: 0)])
      }
      return folded.bytes.withUnsafeBufferPointer { next(field + 1, buffers + [$0]) }
    }
    return next(0, [])
  }

  /// Compares candidate `handle`'s key with `bytes`.
  @inline(__always)
  func compare(
    _ handle: Int, with bytes: UnsafeBufferPointer<UInt8>, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> Int {
    Self.compare(
      buffers[Int(keyField[handle])], Int(keyStart[handle]), Int(keyLength[handle]), bytes, 0,
      bytes.count)
  }

  /// Whether candidate `a`'s key sorts before candidate `b`'s.
  @inline(__always)
  func keyPrecedes(_ a: Int, _ b: Int, buffers: [UnsafeBufferPointer<UInt8>]) -> Bool {
    if a < baseCount && b < baseCount { return a < b }
    return Self.compare(
      buffers[Int(keyField[a])], Int(keyStart[a]), Int(keyLength[a]), buffers[Int(keyField[b])],
      Int(keyStart[b]), Int(keyLength[b])) < 0
  }

  /// Whether candidate `handle`'s key starts with `prefix`.
  @inline(__always)
  func hasPrefix(
    _ handle: Int, _ prefix: UnsafeBufferPointer<UInt8>, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> Bool {
    let length = Int(keyLength[handle])
    guard length >= prefix.count else { return false }
    return Self.compare(
      buffers[Int(keyField[handle])], Int(keyStart[handle]), prefix.count, prefix, 0,
      prefix.count) == 0
  }

  /// The range of sorted positions (of `count` ones, each mapped to a handle by `handle`)
  /// whose keys start with `prefix`.
  func prefixRange(
    _ prefix: UnsafeBufferPointer<UInt8>, count: Int, buffers: [UnsafeBufferPointer<UInt8>],
    handle: (Int) -> Int
  ) -> Range<Int> {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if compare(handle(middle), with: prefix, buffers: buffers) < 0 {
        low = middle + 1
      } else {
        high = middle
      }
    }
    let lower = low
    high = count
    while low < high {
      let middle = (low + high) / 2
      if hasPrefix(handle(middle), prefix, buffers: buffers) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return lower..<low
  }

  /// The handle of the candidate whose key is `bytes`, or nil.
  func handle(of bytes: UnsafeBufferPointer<UInt8>, buffers: [UnsafeBufferPointer<UInt8>])
    -> Int?
  {
    let base = prefixRange(bytes, count: baseCount, buffers: buffers) { $0 }
    if let first = base.first, keyLength[first] == bytes.count { return first }
    let new = prefixRange(bytes, count: newOrder.count, buffers: buffers) { Int(newOrder[$0]) }
    if let first = new.first, keyLength[Int(newOrder[first])] == bytes.count {
      return Int(newOrder[first])
    }
    return nil
  }
}

extension Array {
  /// The first index whose element satisfies `belongs`, for a predicate false then true
  /// along the array.
  func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
