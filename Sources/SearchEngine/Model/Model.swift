/// An ordered collection of items with stable identities, stored column-wise.
///
/// Each item has the text fields and attributes of the model's ``SearchModel/Schema``. Text is kept in one
/// `TextColumn` per field (contiguous bytes plus offsets), attributes as small integer codes,
/// so a model of a million items costs a few bytes per item beyond its text.
///
/// The order of the model is the order items were appended, changed by ``insert(_:at:)`` and
/// ``remove(_:)``. Identities never change: ``update(_:with:)`` keeps the item's ``ItemID``.
public struct SearchModel: Sendable {
  /// What every item holds.
  public let schema: SearchModel.Schema

  /// One column per field, with the values of every item.
  package private(set) var columns: [TextColumn]
  /// For each field, which values belong to which item.
  private(set) var valueMaps: [ValueMap]
  /// The first value of the item being built, for each field.
  private var pendingFirst: [Int] = []
  /// For each attribute, the distinct values and each item's code into them.
  private(set) var attributeValues: [[String]]
  private var attributeCodes: [[String: UInt32]]
  private(set) var attributeOfItem: [AttributeCodes]
  /// The identities in model order.
  private(set) var order: [ItemID] = []
  /// Whether an item (by identity) is in the model.
  private(set) var isAlive: [Bool] = []
  /// Each item's position in the model's order, by identity (-1 for identities no longer in
  /// the model); empty while the model is in identity order, where identities sort as
  /// positions do.
  private(set) var positions: [Int32] = []
  /// The schema's display template, parsed once.
  let displayParts: ParsedTemplate?
  /// Counts every change, so that caches built on the model can tell they are stale.
  public private(set) var version = 0

  /// Creates an empty model.
  public init(schema: SearchModel.Schema) {
    self.schema = schema
    displayParts = schema.displayTemplate.map { ParsedTemplate(lenient: $0, schema: schema) }
    columns = Array(repeating: TextColumn(), count: schema.fields.count)
    valueMaps = Array(repeating: ValueMap(), count: schema.fields.count)
    pendingFirst = Array(repeating: 0, count: schema.fields.count)
    attributeValues = Array(repeating: [], count: schema.attributes.count)
    attributeCodes = Array(repeating: [:], count: schema.attributes.count)
    attributeOfItem = Array(repeating: AttributeCodes(), count: schema.attributes.count)
  }

  /// A model of stored parts, checked by the caller (see `Model+Saving.swift`); the
  /// attributes' code tables are rebuilt from their values.
  init(
    schema: SearchModel.Schema, columns: [TextColumn], valueMaps: [ValueMap],
    attributeValues: [[String]],
    attributeOfItem: [AttributeCodes], order: [ItemID], isAlive: [Bool], positions: [Int32],
    isInIdentityOrder: Bool, version: Int
  ) {
    self.init(schema: schema)
    self.columns = columns
    self.valueMaps = valueMaps
    self.attributeValues = attributeValues
    attributeCodes = attributeValues.map { values in
      Dictionary(values.enumerated().map { ($1, UInt32($0)) }) { first, _ in first }
    }
    self.attributeOfItem = attributeOfItem
    self.order = order
    self.isAlive = isAlive
    self.positions = positions
    self.isInIdentityOrder = isInIdentityOrder
    self.version = version
  }

  /// The number of items.
  public var count: Int { order.count }

  /// Whether the model has no items.
  public var isEmpty: Bool { order.isEmpty }

  /// The identity of the item at a position of the model's order.
  public func id(at position: Int) -> ItemID { order[position] }

  /// The identities of all items, in model order.
  public var ids: [ItemID] { order }

  /// One more than the largest identity ever given: identities are below it.
  public var identityLimit: Int { isAlive.count }

  /// Whether `id` names an item of the model.
  public func contains(_ id: ItemID) -> Bool {
    Int(id.rawValue) < isAlive.count && id.rawValue >= 0 && isAlive[Int(id.rawValue)]
  }

  /// Whether the model's order is the order of identities (no item was ever inserted before
  /// one added earlier), so that sorting identities sorts by position.
  public private(set) var isInIdentityOrder = true

  /// The values of a field of an item.
  public func values(of id: ItemID, field: Int) -> [String] {
    let column = columns[field]
    return valueMaps[field].range(of: Int(id.rawValue)).map { column.string($0) }
  }

  /// The value of an attribute of an item.
  public func attribute(_ attribute: Int, of id: ItemID) -> String {
    attributeValues[attribute][Int(attributeOfItem[attribute][Int(id.rawValue)])]
  }

  /// The distinct values an attribute has had, in the order first seen: a value stays after
  /// the last item that held it is removed.
  package func distinctValues(ofAttribute attribute: Int) -> [String] {
    attributeValues[attribute]
  }

  /// The whole content of an item.
  public func record(of id: ItemID) -> SearchModel.Record {
    SearchModel.Record(
      fields: schema.fields.indices.map { values(of: id, field: $0) },
      attributes: schema.attributes.indices.map { attribute($0, of: id) })
  }

  /// The item as the schema's display template shows it (the first value of the first field
  /// when there is no template).
  ///
  /// In the template, `{name}` is a field's values joined with ", " or an attribute's value.
  /// Brackets enclose an optional group, left out entirely when every placeholder inside it
  /// renders empty: `{name}[ ({company})]` shows "Fox Mulder (FBI)", or "Fox Mulder" when the
  /// company is empty. Text outside groups always shows. `[[` is a literal `[` and `]]` a
  /// literal `]`, read from left to right. Groups do not nest. What the template cannot fill
  /// shows as written: an unknown `{name}`, an unclosed `{` with the rest, and brackets that
  /// make no group (an unclosed `[`, a `]` that closes nothing, a `[` inside a group, a group
  /// without a placeholder) stay text.
  public func display(_ id: ItemID) -> String {
    guard let displayParts else {
      return schema.fields.isEmpty ? "" : values(of: id, field: 0).first ?? ""
    }
    return displayParts.render(id, in: self) { $0 }
  }

  // MARK: Building item by item
  // A fast way to fill a model from raw UTF-8, value by value, without a record per item:
  // what the loaders use for files of a million lines.

  /// Starts a new item at the end of the model; add its values with `appendValue(utf8:field:)`
  /// and `setAttribute(_:utf8:)`, then call `endItem()`.
  package mutating func beginItem() -> ItemID {
    let id = ItemID(rawValue: Int32(isAlive.count))
    isAlive.append(true)
    for field in columns.indices { pendingFirst[field] = columns[field].valueCount }
    for attribute in schema.attributes.indices { attributeOfItem[attribute].append() }
    if !isInIdentityOrder { positions.append(Int32(order.count)) }
    order.append(id)
    return id
  }

  /// Adds a value (valid UTF-8) to a field of the item being built; false (and nothing added)
  /// when the field's text would pass 2 GiB.
  @discardableResult
  package mutating func appendValue<C: Collection<UInt8>>(utf8 value: C, field: Int) -> Bool {
    if columns[field].bytes.count + value.count + 1 >= Int(Int32.max) { return false }
    columns[field].append(utf8: value)
    return true
  }

  /// Sets an attribute (valid UTF-8) of the item being built.
  package mutating func setAttribute<C: Collection<UInt8>>(_ attribute: Int, utf8 value: C) {
    let text = String(decoding: value, as: UTF8.self)
    attributeOfItem[attribute][isAlive.count - 1] = code(of: text, attribute: attribute)
  }

  /// Finishes the item being built.
  package mutating func endItem() {
    for field in columns.indices {
      valueMaps[field].appendItem(
        first: pendingFirst[field], count: columns[field].valueCount - pendingFirst[field])
    }
    version += 1
  }

  /// Adds an item at the end of the model, as ``append(_:)`` does, without a batch's
  /// bookkeeping (a check, an order edit and a table edit per call): what a build of many
  /// records uses.
  ///
  /// - Throws: ``SearchModel/Error/wrongShape(expected:got:what:)`` for a record of the wrong shape,
  ///   with the model unchanged; ``SearchModel/Error/tooLarge(field:)`` when a field's text would
  ///   pass 2 GiB, with the item half added: drop the model then.
  @discardableResult
  package mutating func appendBuilding(_ record: SearchModel.Record) throws(SearchModel.Error)
    -> ItemID
  {
    guard record.fields.count == schema.fields.count else {
      throw .wrongShape(expected: schema.fields.count, got: record.fields.count, what: "fields")
    }
    guard record.attributes.count == schema.attributes.count else {
      throw .wrongShape(
        expected: schema.attributes.count, got: record.attributes.count, what: "attributes")
    }
    let id = beginItem()
    for (field, values) in record.fields.enumerated() {
      for value in values {
        guard columns[field].bytes.count + value.utf8.count + 1 < Int(Int32.max) else {
          throw .tooLarge(field: schema.fields[field].name)
        }
        columns[field].append(value)
      }
    }
    storeAttributes(record, for: id)
    endItem()
    return id
  }

  /// Reserves room for about `items` items with `bytes` bytes of text in `field`.
  package mutating func reserve(items: Int, bytes: Int, field: Int) {
    columns[field].reserve(values: items, bytes: bytes + items)
    valueMaps[field].reserve(items: items)
    order.reserveCapacity(items)
    isAlive.reserveCapacity(items)
    for attribute in attributeOfItem.indices { attributeOfItem[attribute].reserve(items) }
  }

  // MARK: Changes

  /// Adds an item at the end of the model.
  @discardableResult
  public mutating func append(_ record: SearchModel.Record) throws(SearchModel.Error) -> ItemID {
    try insert(record, at: count)
  }

  /// Adds an item at a position of the model's order.
  ///
  /// - Complexity: O(*n*) for *n* items after the position (a copy, no comparison).
  @discardableResult
  public mutating func insert(_ record: SearchModel.Record, at position: Int) throws(SearchModel
    .Error)
    -> ItemID
  {
    let id = ItemID(rawValue: Int32(identityLimit))
    try apply([.insert(record, at: position)])
    return id
  }

  /// Replaces an item's content; its identity and position stay.
  public mutating func update(_ id: ItemID, with record: SearchModel.Record) throws(SearchModel
    .Error)
  {
    try apply([.update(id, with: record)])
  }

  /// Removes an item.
  ///
  /// - Complexity: O(*n*) for *n* items after it (a copy, no search).
  public mutating func remove(_ id: ItemID) throws(SearchModel.Error) {
    try apply([.remove(id)])
  }

  /// Applies a batch of changes in order, each to the model as the ones before it left it,
  /// and tells which items of the model before the batch went or changed and which are new.
  ///
  /// Either every change is made or, when one cannot be, none: the whole batch is checked
  /// before the model changes.
  ///
  /// - Complexity: O(*k*²) for *k* changes, plus one copy of the order from the first
  ///   position the batch changed; a reorder, O(*n*) for the *n* items, and each change after
  ///   it O(*n*), while the changes before it cost nothing in order.
  @discardableResult
  package mutating func apply(_ changes: [SearchModel.Change]) throws(SearchModel.Error)
    -> TableEdit
  {
    try check(changes)
    var orderEdit = OrderEdit(count: order.count)
    var inserted: [ItemID] = []
    var isNew = Set<ItemID>()
    var edit = TableEdit()
    // The last reorder gives the whole order: the order changes before it need no edit.
    let lastReorder = changes.lastIndex { if case .reorder = $0 { true } else { false } }
    for (index, change) in changes.enumerated() {
      let edited = lastReorder.map { index > $0 } ?? true
      switch change {
      case .insert(let record, let position):
        let id = ItemID(rawValue: Int32(isAlive.count))
        isAlive.append(true)
        for attribute in schema.attributes.indices { attributeOfItem[attribute].append() }
        for (field, values) in record.fields.enumerated() {
          let first = columns[field].valueCount
          for value in values { columns[field].append(value) }
          valueMaps[field].appendItem(first: first, count: values.count)
        }
        storeAttributes(record, for: id)
        if edited { orderEdit.insert(id, at: position ?? orderEdit.count) }
        inserted.append(id)
        isNew.insert(id)
      case .update(let id, let record):
        for (field, values) in record.fields.enumerated() {
          let first = columns[field].valueCount
          for value in values { columns[field].append(value) }
          valueMaps[field].replaceValues(of: Int(id.rawValue), first: first, count: values.count)
        }
        storeAttributes(record, for: id)
        if !isNew.contains(id) { edit.updated.insert(id) }
      case .remove(let id):
        if isNew.remove(id) != nil {
          if edited { orderEdit.remove(inserted: id) }
        } else if let position = position(of: id) {
          // The order and positions are still those before the batch.
          if edited { orderEdit.remove(id, keptPosition: position) }
          edit.updated.remove(id)
          edit.removed.insert(id)
        }
        isAlive[Int(id.rawValue)] = false
        for field in schema.fields.indices { valueMaps[field].removeItem(Int(id.rawValue)) }
      case .reorder(let ids):
        if index == lastReorder { orderEdit.reorder(ids) }
        edit.reordered = true
      }
    }
    edit.inserted = inserted.filter { isNew.contains($0) }
    writeOrder(orderEdit, removed: edit.removed)
    version += changes.count
    return edit
  }

  /// Throws the error of the first change of a batch that cannot be made.
  private func check(_ changes: [SearchModel.Change]) throws(SearchModel.Error) {
    var count = order.count
    var addedBytes = [Int](repeating: 0, count: columns.count)
    var isAliveAfter: [ItemID: Bool] = [:]
    var next = isAlive.count
    for change in changes {
      switch change {
      case .insert(let record, let position):
        try validate(record, adding: &addedBytes)
        if let position, !(0...count).contains(position) {
          throw .positionOutOfRange(position, count: count)
        }
        isAliveAfter[ItemID(rawValue: Int32(next))] = true
        next += 1
        count += 1
      case .update(let id, let record):
        guard isAliveAfter[id] ?? contains(id) else { throw .unknownItem(id) }
        try validate(record, adding: &addedBytes)
      case .remove(let id):
        guard isAliveAfter[id] ?? contains(id) else { throw .unknownItem(id) }
        isAliveAfter[id] = false
        count -= 1
      case .reorder(let ids):
        guard ids.count == count else { throw .orderCount(expected: count, got: ids.count) }
        var seen = [Bool](repeating: false, count: next)
        for id in ids {
          guard id.rawValue >= 0, Int(id.rawValue) < next, isAliveAfter[id] ?? contains(id) else {
            throw .unknownItem(id)
          }
          guard !seen[Int(id.rawValue)] else { throw .repeatedItem(id) }
          seen[Int(id.rawValue)] = true
        }
      }
    }
  }

  /// Writes the order after a batch, from the first position it changed, and the positions.
  private mutating func writeOrder(_ edit: OrderEdit, removed: Set<ItemID>) {
    if !isInIdentityOrder {
      positions.append(contentsOf: repeatElement(-1, count: identityLimit - positions.count))
      for id in removed { positions[Int(id.rawValue)] = -1 }
    }
    let start = edit.unchangedPrefix
    if start == order.count && edit.count == order.count { return }
    order.replaceSubrange(start..., with: edit.tail(of: order))
    if isInIdentityOrder {
      if order.indices.dropFirst(max(start, 1)).allSatisfy({ order[$0 - 1] < order[$0] }) {
        return
      }
      isInIdentityOrder = false
      positions = [Int32](repeating: -1, count: identityLimit)
      for (position, id) in order.enumerated() { positions[Int(id.rawValue)] = Int32(position) }
      return
    }
    for position in start..<order.count {
      positions[Int(order[position].rawValue)] = Int32(position)
    }
  }

  // MARK: Positions

  /// The position of an item in the model's order, or nil when it is not in the model.
  ///
  /// - Complexity: O(1); O(log *n*) while the model is in identity order.
  package func position(of id: ItemID) -> Int? {
    guard contains(id) else { return nil }
    if !isInIdentityOrder { return Int(positions[Int(id.rawValue)]) }
    var low = 0
    var high = order.count
    while low < high {
      let middle = (low + high) / 2
      if order[middle] < id { low = middle + 1 } else { high = middle }
    }
    return low < order.count && order[low] == id ? low : nil
  }

  /// Whether item `a` comes before item `b` in the model's order; both must be in the model.
  ///
  /// - Complexity: O(1).
  package func precedes(_ a: ItemID, _ b: ItemID) -> Bool {
    if isInIdentityOrder { return a < b }
    return positions[Int(a.rawValue)] < positions[Int(b.rawValue)]
  }

  /// Checks a record against the schema and the room left in the columns, counting its text
  /// into `addedBytes` (by field) for the records before it in a batch.
  private func validate(_ record: SearchModel.Record, adding addedBytes: inout [Int])
    throws(SearchModel
    .Error)
  {
    guard record.fields.count == schema.fields.count else {
      throw .wrongShape(expected: schema.fields.count, got: record.fields.count, what: "fields")
    }
    guard record.attributes.count == schema.attributes.count else {
      throw .wrongShape(
        expected: schema.attributes.count, got: record.attributes.count, what: "attributes")
    }
    for (field, values) in record.fields.enumerated() {
      addedBytes[field] += values.reduce(0) { $0 + $1.utf8.count + 1 }
      if columns[field].bytes.count + addedBytes[field] >= Int(Int32.max) {
        throw .tooLarge(field: schema.fields[field].name)
      }
    }
  }

  private mutating func storeAttributes(_ record: SearchModel.Record, for id: ItemID) {
    for (attribute, value) in record.attributes.enumerated() {
      attributeOfItem[attribute][Int(id.rawValue)] = code(of: value, attribute: attribute)
    }
  }

  private mutating func code(of value: String, attribute: Int) -> UInt32 {
    if let code = attributeCodes[attribute][value] { return code }
    let code = UInt32(attributeValues[attribute].count)
    attributeValues[attribute].append(value)
    attributeCodes[attribute][value] = code
    return code
  }
}

extension SearchModel {
  /// A change to a model that cannot be made.
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// The record has the wrong number of fields or attributes for the schema.
      public static let wrongShape = Code(name: "wrongShape")
      /// No item has this identity.
      public static let unknownItem = Code(name: "unknownItem")
      /// The position is outside the model.
      public static let positionOutOfRange = Code(name: "positionOutOfRange")
      /// A field's text would pass 2 GiB.
      public static let tooLarge = Code(name: "tooLarge")
      /// A reorder names another number of items than the model holds.
      public static let orderCount = Code(name: "orderCount")
      /// A reorder names an item twice.
      public static let repeatedItem = Code(name: "repeatedItem")

      /// The code's name, such as "unknownItem".
      public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The item the change names (``Code/unknownItem``, ``Code/repeatedItem``).
    public let item: ItemID?
    /// The position the change names (``Code/positionOutOfRange``).
    public let position: Int?
    /// The field whose text is too large (``Code/tooLarge``).
    public let field: String?
    /// The error as one line of text.
    public let description: String

    private init(
      _ code: Code, _ description: String, item: ItemID? = nil, position: Int? = nil,
      field: String? = nil
    ) {
      self.code = code
      self.description = description
      self.item = item
      self.position = position
      self.field = field
    }

    /// The record has the wrong number of fields or attributes for the schema.
    public static func wrongShape(expected: Int, got: Int, what: String) -> Self {
      Self(.wrongShape, "the schema has \(expected) \(what), the record \(got)")
    }
    /// No item has this identity.
    public static func unknownItem(_ id: ItemID) -> Self {
      Self(.unknownItem, "no item \(id) in the model", item: id)
    }
    /// The position is outside the model.
    public static func positionOutOfRange(_ position: Int, count: Int) -> Self {
      Self(
        .positionOutOfRange, "position \(position) is outside the model's 0...\(count)",
        position: position)
    }
    /// A field's text would pass 2 GiB.
    public static func tooLarge(field: String) -> Self {
      Self(.tooLarge, "the text of field \"\(field)\" would pass 2 GiB", field: field)
    }
    /// A reorder names another number of items than the model holds.
    public static func orderCount(expected: Int, got: Int) -> Self {
      Self(
        .orderCount,
        "a reorder must name each of the model's \(expected) items once; it names \(got)")
    }
    /// A reorder names an item twice.
    public static func repeatedItem(_ id: ItemID) -> Self {
      Self(.repeatedItem, "a reorder names item \(id) more than once", item: id)
    }
  }

  /// The `limit` texts of `length` characters that most items' first value of the first field
  /// starts with, as written, the commonest first (equal counts in the order of the texts):
  /// what a server searches before its first session.
  package func commonestPrefixes(length: Int, limit: Int) -> [String] {
    var counts: [String: Int] = [:]
    for id in ids {
      guard let first = values(of: id, field: 0).first, first.count >= length else { continue }
      counts[String(first.prefix(length)), default: 0] += 1
    }
    return counts.sorted { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }
      .prefix(limit).map(\.key)
  }
}
