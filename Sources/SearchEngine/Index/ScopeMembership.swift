/// For each scope of a model's scope bar, the items it admits, the fields it searches and the
/// values a scan of it reads: resolved from a model and its index, and kept up to date through
/// the model's changes.
///
/// A value that only its own methods change: its owner, the corpus, calls
/// ``update(since:model:index:)`` after each batch of changes, so that it always equals the
/// membership resolved from scratch.
struct ScopeMembership: Sendable, Equatable {
  /// For each scope, the items it admits (nil: all of them).
  private(set) var members: [Bitset?]
  /// For each scope, the fields it searches (indexed fields only).
  private(set) var fields: [[Int]]
  /// For each scope and field, the values whose owner is alive and one of the scope's items:
  /// what a scan of the scope reads, run by run (``Values/forEachRun(in:_:)``).
  ///
  /// A bit a value, not a range a run: a scope of an attribute is spread over the whole list,
  /// so its runs are about as many as its items (16 bytes each, 12 MB for 200,000 contacts in
  /// three scopes), where its bits take an eighth of a byte a value.
  private(set) var values: [[Values]]

  /// The values of a field that a scan of a scope reads: a bit a value, and how many of each
  /// block of 4,096 are in, so that a scan counts them and cuts them into pieces for the
  /// cores without a popcount of every word (two passes over the 18,000 words of cities500's
  /// 1.1 million alternate names on each keystroke that scans, which Swift compiles without
  /// the processor's popcount instruction on x86-64: slower by a tenth of a millisecond).
  struct Values: Sendable, Equatable {
    static let blockShift = 12

    private(set) var bits: Bitset
    private var blockCounts: [UInt16]

    /// None of `0..<capacity`.
    init(capacity: Int) {
      bits = Bitset(capacity: capacity)
      blockCounts = Array(repeating: 0, count: Self.blocks(capacity))
    }

    /// The blocks of values below `capacity`.
    private static func blocks(_ capacity: Int) -> Int {
      (capacity + (1 << blockShift) - 1) >> blockShift
    }

    /// The number of values the set can hold: `0..<capacity`.
    var capacity: Int { bits.capacity }

    /// The number of values in.
    var count: Int { blockCounts.reduce(0) { $0 + Int($1) } }

    func contains(_ value: Int) -> Bool { bits.contains(value) }

    /// Puts `value` in or out.
    mutating func set(_ value: Int, in inside: Bool) {
      guard bits.contains(value) != inside else { return }
      if inside {
        bits.insert(value)
        blockCounts[value >> Self.blockShift] += 1
      } else {
        bits.remove(value)
        blockCounts[value >> Self.blockShift] -= 1
      }
    }

    /// Raises the capacity to `capacity` (when larger), the new values out.
    mutating func grow(to capacity: Int) {
      bits.grow(to: capacity)
      blockCounts.append(
        contentsOf: repeatElement(0, count: Self.blocks(bits.capacity) - blockCounts.count))
    }

    /// Calls `body` with each maximal run of values in, within `range`, ascending.
    @inline(__always)
    func forEachRun(in range: Range<Int>, _ body: (Range<Int>) -> Void) {
      bits.forEachRun(in: range, body)
    }

    /// `0..<capacity` cut into at most `count` consecutive ranges holding about as many values
    /// in each (cut between blocks); none when no value is in.
    func split(into count: Int) -> [Range<Int>] {
      let total = self.count
      guard total > 0 else { return [] }
      let size = max((total + count - 1) / max(count, 1), 1)
      var pieces: [Range<Int>] = []
      var start = 0
      var taken = 0
      for (block, held) in blockCounts.enumerated() {
        taken += Int(held)
        if taken >= size && pieces.count < count - 1 {
          let end = min((block + 1) << Self.blockShift, capacity)
          pieces.append(start..<end)
          start = end
          taken = 0
        }
      }
      if start < capacity { pieces.append(start..<capacity) }
      return pieces
    }
  }

  /// A scope that names a field or attribute the schema does not have.
  struct UnknownName: Error {
    /// "field" or "attribute".
    var kind: String
    /// The name the schema does not have.
    var name: String
    /// The scope's title.
    var scope: String
  }

  /// The largest batch, as a share of the model's items, whose scopes are updated in place
  /// rather than resolved again: above it, sorting the killed values and testing the touched
  /// items costs about what one walk over every value does.
  static let incrementalShare = 0.125

  /// Whether a batch of `changes` changes to a model of `count` items is above
  /// ``incrementalShare``: derived structures are built again rather than updated.
  static func rebuilds(changes: Int, count: Int) -> Bool {
    Double(changes) > incrementalShare * Double(max(count, 1))
  }

  /// The scopes of `model`'s scope bar, resolved from every item and value.
  init(model: SearchModel, index: SearchIndex) throws(UnknownName) {
    let schema = model.schema
    var members: [Bitset?] = []
    var fields: [[Int]] = []
    for scope in schema.scopeBar.scopes {
      var searched: [Int] = []
      if let names = scope.fields {
        for name in names {
          guard let field = schema.fieldIndex(named: name) else {
            throw UnknownName(kind: "field", name: name, scope: scope.title)
          }
          if index.isIndexed(field: field) { searched.append(field) }
        }
      } else {
        searched = schema.fields.indices.filter { index.isIndexed(field: $0) }
      }
      fields.append(searched)
      guard let name = scope.attribute else {
        members.append(nil)
        continue
      }
      guard let attribute = schema.attributeIndex(named: name) else {
        throw UnknownName(kind: "attribute", name: name, scope: scope.title)
      }
      // Whether each code is one of the scope's values: a table read per item, rather than a
      // search of the scope's codes (a third of a start from a saved index went there).
      let admits = model.attributeValues[attribute].map { scope.values.contains($0) }
      var set = Bitset(capacity: model.identityLimit)
      let ofItem = model.attributeOfItem[attribute]
      for id in model.ids where admits[Int(ofItem[Int(id.rawValue)])] {
        set.insert(Int(id.rawValue))
      }
      members.append(set)
    }
    self.members = members
    self.fields = fields
    values = members.map { members in
      model.schema.fields.indices.map { field in
        let map = model.valueMaps[field]
        let count = model.columns[field].valueCount
        var inside = Values(capacity: count)
        for value in 0..<count where Self.isInside(value, map: map, members: members) {
          inside.set(value, in: true)
        }
        return inside
      }
    }
  }

  /// Whether a value belongs to a scope's values: its owner is alive and a member.
  @inline(__always)
  private static func isInside(_ value: Int, map: ValueMap, members: Bitset?) -> Bool {
    let owner = map.owner(of: value)
    return owner >= 0 && (members?.contains(Int(owner)) ?? true)
  }

  // MARK: Keeping the scopes up to date

  /// What the scopes' upkeep needs to know of the model before a batch: the sizes of its
  /// tables, and the values the batch may kill (those of the items it updates or removes).
  struct Baseline {
    var identityLimit: Int
    /// The number of values of each field.
    var valueCounts: [Int]
    /// The identities the batch updates or removes.
    var touched: [Int]
    /// For each field, the values of the touched items that were in the model.
    var killed: [[Range<Int>]]
    /// The number of changes in the batch.
    var changeCount: Int

    /// The baseline of `model` before `changes`.
    init(of model: SearchModel, changes: [SearchModel.Change]) {
      identityLimit = model.identityLimit
      valueCounts = model.columns.map(\.valueCount)
      touched = []
      killed = Array(repeating: [], count: model.columns.count)
      changeCount = changes.count
      for change in changes {
        let id: ItemID
        switch change {
        case .insert, .reorder: continue
        case .update(let item, _), .remove(let item): id = item
        }
        touched.append(Int(id.rawValue))
        guard model.contains(id) else { continue }  // new in the batch, or an error
        for field in killed.indices {
          let values = model.valueMaps[field].range(of: Int(id.rawValue))
          if !values.isEmpty { killed[field].append(values) }
        }
      }
    }
  }

  /// Brings the scopes up to date after a batch, from what the model was before it:
  /// `model` and `index` are the model and its index after the batch.
  ///
  /// A batch above ``incrementalShare`` of the model's items resolves the scopes again from
  /// every item and value. Otherwise only the batch's items may change scope (an update may
  /// change their attribute) and only their values may change state: an update or removal
  /// takes the old values from their owner, and every new value is appended at the end of its
  /// column. So each scope's set is tested again for those items alone, and each scope's
  /// values for the values killed and those after the old end of the column.
  mutating func update(since before: Baseline, model: SearchModel, index: SearchIndex)
    throws(UnknownName)
  {
    if Self.rebuilds(changes: before.changeCount, count: model.count) {
      self = try Self(model: model, index: index)
      return
    }
    let schema = model.schema
    let items = before.touched + Array(before.identityLimit..<model.identityLimit)
    for (scope, definition) in schema.scopeBar.scopes.enumerated() {
      guard var members = members[scope], let name = definition.attribute,
        let attribute = schema.attributeIndex(named: name)
      else { continue }
      self.members[scope] = nil  // one owner, so that the set changes in place
      members.grow(to: model.identityLimit)
      let values = model.attributeValues[attribute]
      let ofItem = model.attributeOfItem[attribute]
      for item in items {
        if model.isAlive[item] && definition.values.contains(values[Int(ofItem[item])]) {
          members.insert(item)
        } else {
          members.remove(item)
        }
      }
      self.members[scope] = members
    }
    for field in schema.fields.indices {
      let count = model.columns[field].valueCount
      let changed = before.killed[field] + [before.valueCounts[field]..<count]
      let map = model.valueMaps[field]
      for scope in values.indices {
        let members = members[scope]
        var inside = values[scope][field]
        values[scope][field] = Values(capacity: 0)  // one owner, so that the set changes in place
        inside.grow(to: count)
        for value in changed.joined() {
          inside.set(value, in: Self.isInside(value, map: map, members: members))
        }
        values[scope][field] = inside
      }
    }
  }
}
