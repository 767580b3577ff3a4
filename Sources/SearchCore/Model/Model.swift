/// An ordered collection of items with stable identities, stored column-wise.
///
/// Each item has the text fields and attributes of the model's ``Schema``. Text is kept in one
/// ``TextColumn`` per field (contiguous bytes plus offsets), attributes as small integer codes,
/// so a model of a million items costs a few bytes per item beyond its text.
///
/// The order of the model is the order items were appended, changed by ``insert(_:at:)`` and
/// ``remove(_:)``. Identities never change: ``update(_:with:)`` keeps the item's ``ItemID``.
public struct Model: Sendable {
  /// What every item holds.
  public let schema: Schema

  /// One column per field, with the values of every item.
  private(set) var columns: [TextColumn]
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
  /// The schema's display template, parsed once.
  let displayParts: ParsedTemplate?
  /// Counts every change, so that caches built on the model can tell they are stale.
  public private(set) var version = 0

  /// Creates an empty model.
  public init(schema: Schema) {
    self.schema = schema
    displayParts = schema.displayTemplate.map { ParsedTemplate(lenient: $0, schema: schema) }
    columns = Array(repeating: TextColumn(), count: schema.fields.count)
    valueMaps = Array(repeating: ValueMap(), count: schema.fields.count)
    pendingFirst = Array(repeating: 0, count: schema.fields.count)
    attributeValues = Array(repeating: [], count: schema.attributes.count)
    attributeCodes = Array(repeating: [:], count: schema.attributes.count)
    attributeOfItem = Array(repeating: AttributeCodes(), count: schema.attributes.count)
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

  /// Whether the model's order is the order of identities (no insert in the middle, no
  /// removal), so that sorting identities sorts by position.
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

  /// The whole content of an item.
  public func record(of id: ItemID) -> ItemRecord {
    ItemRecord(
      fields: schema.fields.indices.map { values(of: id, field: $0) },
      attributes: schema.attributes.indices.map { attribute($0, of: id) })
  }

  /// The item as the schema's display template shows it (the first value of the first field
  /// when there is no template).
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
  mutating func beginItem() -> ItemID {
    let id = ItemID(rawValue: Int32(isAlive.count))
    isAlive.append(true)
    for field in columns.indices { pendingFirst[field] = columns[field].valueCount }
    for attribute in schema.attributes.indices { attributeOfItem[attribute].append() }
    order.append(id)
    return id
  }

  /// Adds a value (valid UTF-8) to a field of the item being built; false (and nothing added)
  /// when the field's text would pass 2 GiB.
  @discardableResult
  mutating func appendValue<C: Collection<UInt8>>(utf8 value: C, field: Int) -> Bool {
    if columns[field].bytes.count + value.count + 1 >= Int(Int32.max) { return false }
    columns[field].append(utf8: value)
    return true
  }

  /// Sets an attribute (valid UTF-8) of the item being built.
  mutating func setAttribute<C: Collection<UInt8>>(_ attribute: Int, utf8 value: C) {
    let text = String(decoding: value, as: UTF8.self)
    attributeOfItem[attribute][isAlive.count - 1] = code(of: text, attribute: attribute)
  }

  /// Finishes the item being built.
  mutating func endItem() {
    for field in columns.indices {
      valueMaps[field].appendItem(
        first: pendingFirst[field], count: columns[field].valueCount - pendingFirst[field])
    }
    version += 1
  }

  /// Reserves room for about `items` items with `bytes` bytes of text in `field`.
  mutating func reserve(items: Int, bytes: Int, field: Int) {
    columns[field].reserve(values: items, bytes: bytes + items)
    valueMaps[field].reserve(items: items)
    order.reserveCapacity(items)
    isAlive.reserveCapacity(items)
    for attribute in attributeOfItem.indices { attributeOfItem[attribute].reserve(items) }
  }

  // MARK: Changes

  /// Adds an item at the end of the model.
  @discardableResult
  public mutating func append(_ record: ItemRecord) throws(ModelError) -> ItemID {
    try insert(record, at: count)
  }

  /// Adds an item at a position of the model's order.
  @discardableResult
  public mutating func insert(_ record: ItemRecord, at position: Int) throws(ModelError)
    -> ItemID
  {
    try validate(record)
    guard (0...count).contains(position) else { throw .positionOutOfRange(position, count: count) }
    let id = ItemID(rawValue: Int32(isAlive.count))
    isAlive.append(true)
    for attribute in schema.attributes.indices { attributeOfItem[attribute].append() }
    for (field, values) in record.fields.enumerated() {
      let first = columns[field].valueCount
      for value in values { columns[field].append(value) }
      valueMaps[field].appendItem(first: first, count: values.count)
    }
    storeAttributes(record, for: id)
    if position == count {
      order.append(id)
    } else {
      order.insert(id, at: position)
      isInIdentityOrder = false
    }
    version += 1
    return id
  }

  /// Replaces an item's content; its identity and position stay.
  public mutating func update(_ id: ItemID, with record: ItemRecord) throws(ModelError) {
    guard contains(id) else { throw .unknownItem(id) }
    try validate(record)
    for (field, values) in record.fields.enumerated() {
      let first = columns[field].valueCount
      for value in values { columns[field].append(value) }
      valueMaps[field].replaceValues(of: Int(id.rawValue), first: first, count: values.count)
    }
    storeAttributes(record, for: id)
    version += 1
  }

  /// Removes an item.
  public mutating func remove(_ id: ItemID) throws(ModelError) {
    guard contains(id) else { throw .unknownItem(id) }
    guard let position = order.firstIndex(of: id) else { throw .unknownItem(id) }
    order.remove(at: position)
    isAlive[Int(id.rawValue)] = false
    for field in schema.fields.indices { valueMaps[field].removeItem(Int(id.rawValue)) }
    if position != order.count { isInIdentityOrder = false }
    version += 1
  }

  private func validate(_ record: ItemRecord) throws(ModelError) {
    guard record.fields.count == schema.fields.count else {
      throw .wrongShape(expected: schema.fields.count, got: record.fields.count, what: "fields")
    }
    guard record.attributes.count == schema.attributes.count else {
      throw .wrongShape(
        expected: schema.attributes.count, got: record.attributes.count, what: "attributes")
    }
    for (field, values) in record.fields.enumerated() {
      let size = values.reduce(0) { $0 + $1.utf8.count + 1 }
      if columns[field].bytes.count + size >= Int(Int32.max) {
        throw .tooLarge(field: schema.fields[field].name)
      }
    }
  }

  private mutating func storeAttributes(_ record: ItemRecord, for id: ItemID) {
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

/// A change to a model that cannot be made.
public enum ModelError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The record has the wrong number of fields or attributes for the schema.
  case wrongShape(expected: Int, got: Int, what: String)
  /// No item has this identity.
  case unknownItem(ItemID)
  /// The position is outside the model.
  case positionOutOfRange(Int, count: Int)
  /// A field's text would pass 2 GiB.
  case tooLarge(field: String)

  /// The error as one line of text.
  public var description: String {
    switch self {
    case .wrongShape(let expected, let got, let what):
      return "the schema has \(expected) \(what), the record \(got)"
    case .unknownItem(let id): return "no item \(id) in the model"
    case .positionOutOfRange(let position, let count):
      return "position \(position) is outside the model's 0...\(count)"
    case .tooLarge(let field): return "the text of field \"\(field)\" would pass 2 GiB"
    }
  }
}
