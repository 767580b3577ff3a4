import SearchEngine

extension ItemSearch {
  /// Applies changes as one: records are made here, then folded, indexed and sectioned off
  /// the main actor, and installed with one change set per table and one update.
  ///
  /// Calls are applied one after another, in order.
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

  /// Replaces the whole list, as a reload after a sync does, and animates it.
  ///
  /// Items are matched by `id`; those that are gone are removed, new ones inserted at their
  /// place, and the others updated; of those, the longest run in the same order stays and the
  /// rest move. The changes are worked out off the main actor and applied as one batch
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
    let clock = ContinuousClock()
    var start = clock.now
    var held = Duration.zero
    // Numbers, not the model: a local copy of the model would keep the one the batch replaces
    // alive until this call ends, and free it here, on the main actor.
    let limit = controller.corpus.model.identityLimit
    let count = controller.corpus.model.count
    let (schema, storage, identities) = (self.schema, self.storage, self.identities)
    let batch: Batch
    if changes.count < Self.recordsOnMainActor && order == nil {
      batch = try Batch(
        changes, order: nil, identities: identities, identityLimit: limit, count: count,
        schema: schema, storage: storage, wholeTable: false)
    } else {
      // Checking, reading a record's texts through the app's key paths and storing the
      // values cost microseconds an item: a large batch does them off the main actor, where
      // the identities (a copy; batches are applied one at a time) are read too.
      held += clock.now - start
      batch = try await BackgroundWork.run { () -> Result<Batch, ItemSearchError> in
        do throws(ItemSearchError) {
          return .success(
            try Batch(
              changes, order: order, identities: identities, identityLimit: limit, count: count,
              schema: schema, storage: storage, wholeTable: true))
        } catch { return .failure(error) }
      }.get()
      start = clock.now
    }
    let inserted: [ItemID]
    pendingIdentities = batch.identities
    held += clock.now - start
    do { inserted = try await controller.apply(batch.modelChanges) } catch {
      pendingIdentities = nil
      batch.restoreValues(in: storage)
      throw .engine(error)
    }
    start = clock.now
    // A batch that changed nothing on screen sent no update to install them with.
    installPendingIdentities()
    precondition(
      inserted.count == batch.nextIdentity - limit
        && inserted.first.map { Int($0.rawValue) == limit } ?? true
        && inserted.last.map { Int($0.rawValue) == batch.nextIdentity - 1 } ?? true,
      "the model numbered new items as predicted; change items only through the ItemSearch")
    lastApplyMainActorTime = held + controller.lastApplyMainActorTime + (clock.now - start)
  }

  /// A batch checked against the identities, with the values stored and the model's changes
  /// made: what ``applyInTurn(_:order:)`` hands the controller.
  private struct Batch: Sendable {
    var modelChanges: [SearchModel.Change] = []
    var identities: PendingIdentities
    /// The identity the engine gives the next new item after the batch.
    var nextIdentity: Int
    /// The values the batch replaced in the storage, to put back if the engine refuses it.
    var replaced: [(ItemID, Item?)] = []

    /// Checks `changes` against `identities` (plus the batch's own inserts and removals, so
    /// that a change later in the batch can name an item inserted earlier: the engine
    /// numbers new items from `identityLimit`, in order), stores the new values and makes the
    /// model's changes, then the reorder to `order`.
    ///
    /// With `wholeTable`, many identities added or freed give the whole table after the batch, to
    /// swap in.
    init(
      _ changes: [ItemChange<Item>], order: [Item.ID]?, identities: [Item.ID: ItemID],
      identityLimit: Int, count: Int, schema: ItemSchema<Item, Scope>, storage: ItemStorage<Item>,
      wholeTable: Bool
    ) throws(ItemSearchError) {
      var next = identityLimit
      var count = count
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
      nextIdentity = next
      modelChanges = planned.map { $0.modelChange(schema) }
      if let order {
        modelChanges.append(.reorder(order.compactMap { added[$0] ?? identities[$0] }))
      }
      self.identities = PendingIdentities(gone: gone, added: added)
      if wholeTable && gone.count + added.count > ItemSearch.identityEditsOnMainActor {
        self.identities.whole = self.identities.applied(to: identities)
      }
      // Values first: the update that installs the change reads them.
      replaced = stored.map { id, _ in (id, storage.item(id)) }
      for (id, item) in stored { storage.set(item, for: id) }
    }

    /// Puts back the values the batch replaced.
    func restoreValues(in storage: ItemStorage<Item>) {
      for (id, item) in replaced.reversed() { storage.set(item, for: id) }
    }
  }

  /// The largest batch checked and recorded on the main actor: a task of its own costs more
  /// than a few records.
  private static var recordsOnMainActor: Int { 32 }

  /// The most identities a batch adds and frees one by one on the main actor: past them the
  /// table of identities after the batch is made off it, and swapped in whole.
  nonisolated fileprivate static var identityEditsOnMainActor: Int { 4_096 }

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

    func modelChange(_ schema: ItemSchema<Item, Scope>) -> SearchModel.Change {
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
