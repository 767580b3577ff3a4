import SearchEngine

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
    await beginApplying()
    defer { endApplying() }
    try await applyInTurn(changes)
  }

  /// Replaces the whole list, as a reload after a sync does, and animates it: items are
  /// matched by `id`; those that are gone are removed, new ones inserted at their place,
  /// and the others updated; of those, the longest run in the same order stays and the rest
  /// move. The changes are worked out off the main actor and applied as one batch
  /// (``apply(_:)``): one update, with one change set per table.
  ///
  /// - Throws: ``ItemSearchError/duplicateID(_:)`` when `items` holds an `id` twice; then
  ///   nothing changes.
  public func replaceAll(_ items: some Sequence<Item>) async throws(ItemSearchError) {
    try await replaceAll(Array(items), same: nil)
  }

  /// Replaces the whole list as ``replaceAll(_:)`` does; an item equal to the one with its
  /// `id` is not updated (its row is not reloaded, its text not folded again).
  public func replaceAll(_ items: some Sequence<Item>) async throws(ItemSearchError)
  where Item: Equatable {
    try await replaceAll(Array(items)) { $0 == $1 }
  }

  private func replaceAll(_ items: [Item], same: (@Sendable (Item, Item) -> Bool)?)
    async throws(ItemSearchError)
  {
    await beginApplying()
    defer { endApplying() }
    let order = controller.corpus.model.ids
    let storage = self.storage
    let replacement = await BackgroundWork.run {
      () -> Result<([ItemChange<Item>], [Item.ID]?), ItemSearchError> in
      let old = storage.items(order)
      do throws(ItemSearchError) {
        let replacement = try ItemReplacement.changes(from: old, to: items, same: same)
        return .success((replacement.changes, replacement.order))
      } catch { return .failure(error) }
    }
    let (batch, newOrder) = try replacement.get()
    if !batch.isEmpty || newOrder != nil { try await applyInTurn(batch, order: newOrder) }
  }

  /// Waits for the changes asked for earlier to be applied: one batch at a time, in order.
  private func beginApplying() async {
    if isApplying { await withCheckedContinuation { applyWaiters.append($0) } }
    isApplying = true
  }

  /// Lets the next batch go, or wakes those waiting for the rows to settle.
  private func endApplying() {
    if let next = applyWaiters.first {
      applyWaiters.removeFirst()
      next.resume()
    } else {
      isApplying = false
      let waiters = settleWaiters
      settleWaiters = []
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Applies a batch, in its turn, and then puts the items in `order` when it is given (each
  /// item after the batch, once).
  private func applyInTurn(_ changes: [ItemChange<Item>], order: [Item.ID]? = nil)
    async throws(ItemSearchError)
  {
    // The engine numbers new items from its identity limit, in order: so a change later in
    // the batch can name an item inserted earlier. The batch is checked against the
    // identities as they are plus its own inserts and removals, so that a small batch does
    // not copy the identities of every item.
    let clock = ContinuousClock()
    var start = clock.now
    var held = Duration.zero
    let model = controller.corpus.model
    var next = model.identityLimit
    var count = model.count
    var added: [Item.ID: ItemID] = [:]
    var gone: Set<Item.ID> = []
    func identity(of id: Item.ID) -> ItemID? {
      if let new = added[id] { return new }
      return gone.contains(id) ? nil : identities[id]
    }
    var planned: [Planned] = []
    planned.reserveCapacity(changes.count)
    var stored: [(ItemID, Item)] = []
    for change in changes {
      switch change {
      case .insert(let item, let position):
        guard identity(of: item.id) == nil else { throw .duplicateID("\(item.id)") }
        if let position, !(0...count).contains(position) {
          throw .positionOutOfRange(position, count: count)
        }
        let id = ItemID(rawValue: Int32(next))
        next += 1
        count += 1
        added[item.id] = id
        stored.append((id, item))
        planned.append(.insert(item, at: position))
      case .update(let item):
        guard let id = identity(of: item.id) else { throw .unknownID("\(item.id)") }
        stored.append((id, item))
        planned.append(.update(id, with: item))
      case .remove(let itemID):
        guard let id = identity(of: itemID) else { throw .unknownID("\(itemID)") }
        if added.removeValue(forKey: itemID) == nil { gone.insert(itemID) }
        count -= 1
        planned.append(.remove(id))
      }
    }
    // Reading a record's texts through the app's key paths costs microseconds an item: a
    // large batch reads them off the main actor.
    let schema = self.schema
    var modelChanges: [ModelChange]
    var pending = PendingIdentities(gone: gone, added: added)
    if planned.count < Self.recordsOnMainActor && order == nil {
      modelChanges = planned.map { $0.modelChange(schema) }
    } else {
      // So are a new order's identities and, for many new or gone items, the table of
      // identities after the batch.
      held += clock.now - start
      let (planned, identities, pendingNow) = (planned, identities, pending)
      let wholeTable = gone.count + added.count > Self.identityEditsOnMainActor
      (modelChanges, pending.whole) = await BackgroundWork.run {
        var changes = planned.map { $0.modelChange(schema) }
        if let order {
          let added = pendingNow.added
          changes.append(.reorder(order.compactMap { added[$0] ?? identities[$0] }))
        }
        return (changes, wholeTable ? pendingNow.applied(to: identities) : nil)
      }
      start = clock.now
    }
    // Values first: the update that installs the change reads them. Should the engine refuse
    // the batch, the values it replaced come back.
    let replaced = stored.map { id, _ in (id, storage.item(id)) }
    for (id, item) in stored { storage.set(item, for: id) }
    let inserted: [ItemID]
    pendingIdentities = pending
    held += clock.now - start
    do { inserted = try await controller.apply(modelChanges) } catch {
      pendingIdentities = nil
      for (id, item) in replaced.reversed() { storage.set(item, for: id) }
      throw .engine(error.description)
    }
    start = clock.now
    // A batch that changed nothing on screen sent no update to install them with.
    installPendingIdentities()
    precondition(
      inserted.count == next - model.identityLimit
        && inserted.first.map { Int($0.rawValue) == model.identityLimit } ?? true
        && inserted.last.map { Int($0.rawValue) == next - 1 } ?? true,
      "the model numbered new items as predicted; change items only through the ItemSearch")
    lastApplyMainActorTime = held + controller.lastApplyMainActorTime + (clock.now - start)
  }

  /// The largest batch whose records are made on the main actor: a task of their own costs
  /// more than a few records.
  private static var recordsOnMainActor: Int { 32 }

  /// The most identities a batch adds and frees one by one on the main actor: past them the
  /// table of identities after the batch is made off it, and swapped in whole.
  private static var identityEditsOnMainActor: Int { 4_096 }

  /// The identities a batch takes and frees, installed with its update: one by one, or as
  /// the whole table after the batch when it was made off the main actor.
  struct PendingIdentities: Sendable {
    var gone: Set<Item.ID>
    var added: [Item.ID: ItemID]
    var whole: [Item.ID: ItemID]?

    /// `identities` after the batch.
    func applied(to identities: [Item.ID: ItemID]) -> [Item.ID: ItemID] {
      var identities = identities
      for id in gone { identities[id] = nil }
      identities.merge(added) { _, new in new }
      return identities
    }
  }

  /// A checked change, waiting for its record.
  private enum Planned: Sendable {
    case insert(Item, at: Int?)
    case update(ItemID, with: Item)
    case remove(ItemID)

    func modelChange(_ schema: ItemSchema<Item, Scope>) -> ModelChange {
      switch self {
      case .insert(let item, let position): .insert(schema.record(of: item), at: position)
      case .update(let id, let item): .update(id, with: schema.record(of: item))
      case .remove(let id): .remove(id)
      }
    }
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
