extension ItemSearch {
  /// Applies changes as one: records are made here, then folded, indexed and sectioned off
  /// the main actor, and installed with one change set per table and one update. Calls are
  /// applied one after another, in order.
  ///
  /// A change may refer to an item inserted earlier in the same batch.
  ///
  /// - Throws: ``ItemSearchError/duplicateID(_:)`` for an insert whose `id` is taken,
  ///   ``ItemSearchError/unknownID(_:)`` for an update or removal of an `id` that is not
  ///   there, ``ItemSearchError/positionOutOfRange(_:count:)``; then nothing of the batch
  ///   is applied.
  public func apply(_ changes: [ItemChange<Item>]) async throws(ItemSearchError) {
    if isApplying { await withCheckedContinuation { applyWaiters.append($0) } }
    isApplying = true
    defer {
      if applyWaiters.isEmpty { isApplying = false } else { applyWaiters.removeFirst().resume() }
    }
    // The engine numbers new items from its identity limit, in order: so a change later in
    // the batch can name an item inserted earlier.
    let model = controller.corpus.model
    var next = model.identityLimit
    var count = model.count
    var ids = identities
    var modelChanges: [ModelChange] = []
    var stored: [(ItemID, Item)] = []
    var removed: [Item.ID] = []
    for change in changes {
      switch change {
      case .insert(let item, let position):
        guard ids[item.id] == nil else { throw .duplicateID("\(item.id)") }
        if let position, !(0...count).contains(position) {
          throw .positionOutOfRange(position, count: count)
        }
        let id = ItemID(rawValue: Int32(next))
        next += 1
        count += 1
        ids[item.id] = id
        stored.append((id, item))
        modelChanges.append(.insert(schema.record(of: item), at: position))
      case .update(let item):
        guard let id = ids[item.id] else { throw .unknownID("\(item.id)") }
        stored.append((id, item))
        modelChanges.append(.update(id, with: schema.record(of: item)))
      case .remove(let itemID):
        guard let id = ids.removeValue(forKey: itemID) else { throw .unknownID("\(itemID)") }
        count -= 1
        removed.append(itemID)
        modelChanges.append(.remove(id))
      }
    }
    // Values first: the update that installs the change reads them. Should the engine refuse
    // the batch, the values it replaced come back.
    let replaced = stored.map { id, _ in (id, storage.item(id)) }
    for (id, item) in stored { storage.set(item, for: id) }
    let inserted: [ItemID]
    do { inserted = try await controller.apply(modelChanges) } catch {
      for (id, item) in replaced.reversed() { storage.set(item, for: id) }
      throw .engine(error.description)
    }
    let expected = stored.map(\.0).filter { $0.rawValue >= Int32(model.identityLimit) }
    precondition(
      inserted == Array(Set(expected)).sorted(),
      "the model numbered new items as predicted; change items only through the ItemSearch")
    identities = ids
  }

  /// Inserts an item at a position of the list (the end when nil).
  public func insert(_ item: Item, at position: Int? = nil) async throws(ItemSearchError) {
    try await apply([.insert(item, at: position)])
  }

  /// Replaces the item with the same `id`.
  public func update(_ item: Item) async throws(ItemSearchError) {
    try await apply([.update(item)])
  }

  /// Removes the item with this `id`.
  public func remove(_ id: Item.ID) async throws(ItemSearchError) {
    try await apply([.remove(id)])
  }
}
