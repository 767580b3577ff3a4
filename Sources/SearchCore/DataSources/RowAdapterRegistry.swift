import SearchEngine

/// Chooses each item's row adapter by the item's kind: a table of heterogeneous items (text
/// messages, photos, links) renders each row through the adapter registered for its kind.
///
/// Adding a kind means registering an adapter; nothing switches over kinds. The kind is the
/// value of one attribute of the model (such as "kind"), named when the registry is made.
/// Because a registry is made before it meets a model, that name is checked when the registry
/// is used with a model (every ``adapter(for:in:)`` looks the attribute up by name, which
/// costs a scan of the schema's few attribute names); call ``validate(against:)`` to fail
/// early instead, when the schema is known.
public struct RowAdapterRegistry<Row>: Sendable {
  /// The attribute that holds each item's kind.
  public let kindAttribute: String
  /// The adapter for kinds that have none of their own; nil makes them an error.
  public var fallback: (any RowAdapter<Row>)?
  private var adapters: [String: any RowAdapter<Row>] = [:]

  /// Creates a registry without adapters, reading kinds from `kindAttribute`.
  public init(kindAttribute: String, fallback: (any RowAdapter<Row>)? = nil) {
    self.kindAttribute = kindAttribute
    self.fallback = fallback
  }

  /// Makes `adapter` render the items of kind `kind`.
  ///
  /// Registering a kind again replaces its adapter, so a front can swap one kind's look without
  /// rebuilding the registry.
  public mutating func register(_ adapter: some RowAdapter<Row>, forKind kind: String) {
    adapters[kind] = adapter
  }

  /// Forgets the adapter of a kind (its items then go to the fallback, if any).
  public mutating func unregister(kind: String) {
    adapters[kind] = nil
  }

  /// The kinds that have an adapter, sorted.
  public var kinds: [String] { adapters.keys.sorted() }

  /// Checks that the schema has the kind attribute; throws
  /// ``/SearchEngine/RowAdapterError/unknownKindAttribute(_:attributes:)`` when it does not.
  public func validate(against schema: SearchModel.Schema) throws(RowAdapterError) {
    _ = try kindIndex(in: schema)
  }

  /// The adapter for an item: the one registered for its kind, else the fallback.
  public func adapter(for item: ItemID, in model: SearchModel) throws(RowAdapterError)
    -> any RowAdapter<Row>
  {
    guard model.contains(item) else { throw .unknownItem(item) }
    let kind = model.attribute(try kindIndex(in: model.schema), of: item)
    if let adapter = adapters[kind] ?? fallback { return adapter }
    throw .noAdapter(kind: kind, item: item)
  }

  /// The row for an item, made by the adapter for its kind.
  public func row(for item: ItemID, in model: SearchModel) throws(RowAdapterError) -> Row {
    try adapter(for: item, in: model).row(for: item, in: model)
  }

  /// A render closure bound to one model, for ``PagingWindow``.
  public func renderer(for model: SearchModel) -> @Sendable (ItemID) throws(RowAdapterError) -> Row
  {
    let registry = self
    return { (item: ItemID) throws(RowAdapterError) -> Row in
      try registry.row(for: item, in: model)
    }
  }

  private func kindIndex(in schema: SearchModel.Schema) throws(RowAdapterError) -> Int {
    guard let index = schema.attributeIndex(named: kindAttribute) else {
      throw .unknownKindAttribute(kindAttribute, attributes: schema.attributes)
    }
    return index
  }
}
