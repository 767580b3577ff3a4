import SearchEngine

/// The changes that turn one list into another, matched by `id`, for
/// ``ItemSearch/replaceAll(_:)``: items only in the old list are removed, items only in the
/// new one inserted, and items in both updated where they changed.
///
/// A kept item keeps its identity in the engine even when it moves: it is never removed and
/// inserted again.
///
/// When the kept items keep their order and few items are removed or inserted between kept
/// ones, the insertions say where they go. Otherwise (a list sorted anew, reversed, shuffled,
/// or with many changes throughout) new items are appended and the new order is given whole,
/// which the model takes in one pass: no sync costs more than linear work in the lists'
/// length, whatever order it comes in, and the tables find the fewest rows that move.
enum ItemReplacement {
  /// The most position edits (insertions between kept items, removals) made one by one: each
  /// walks the batch's edits so far, so past this a whole new order is cheaper.
  static let positionEditLimit = 2_048

  /// The changes from the list `old` to `new`, in an order ``ItemSearch/apply(_:)`` carries
  /// out (removals, insertions, updates), and the new order as identities when it is given
  /// whole (nil when the changes place every item).
  ///
  /// `same`, when given, says of the old and new item of an id whether they are equal, which needs
  /// no update. `positionEditLimit` chooses between the two ways (tests set it).
  ///
  /// - Throws: ``ItemSearchError/duplicateID(_:)`` when `new` holds an `id` twice.
  /// - Complexity: O(*n*) for lists of *n* items.
  static func changes<Item: Identifiable & Sendable>(
    from old: [Item], to new: [Item], positionEditLimit: Int = positionEditLimit,
    same: ((Item, Item) -> Bool)? = nil
  ) throws(ItemSearchError) -> (changes: [ItemChange<Item>], order: [Item.ID]?)
  where Item.ID: Sendable {
    var position: [Item.ID: Int] = [:]
    position.reserveCapacity(new.count)
    for (index, item) in new.enumerated() {
      guard position.updateValue(index, forKey: item.id) == nil else {
        throw .duplicateID("\(item.id)")
      }
    }
    var removals: [ItemChange<Item>] = []
    // The new positions of the kept items, in their old order, and their old values.
    var kept: [Int] = []
    kept.reserveCapacity(min(old.count, new.count))
    var before: [Int: Item] = [:]
    for item in old {
      guard let index = position[item.id] else {
        removals.append(.remove(item.id))
        continue
      }
      kept.append(index)
      if same != nil { before[index] = item }
    }
    var isOld = [Bool](repeating: false, count: new.count)
    for index in kept { isOld[index] = true }
    /// The update of the item at `index` of `new`, unless it is the same as before.
    func update(_ index: Int) -> ItemChange<Item>? {
      if let same, let old = before[index], same(old, new[index]) { return nil }
      return .update(new[index])
    }

    var changes = removals
    if zip(kept, kept.dropFirst()).allSatisfy({ $0 < $1 }) {
      // Insertions after the last kept item are appends, which cost no walk.
      let placed = new.indices.filter { !isOld[$0] && $0 < kept.last ?? -1 }.count
      if placed + removals.count <= positionEditLimit {
        for (index, item) in new.enumerated() where !isOld[index] {
          changes.append(.insert(item, at: index))
        }
        changes += new.indices.filter { isOld[$0] }.compactMap(update)
        return (changes, nil)
      }
    }
    for (index, item) in new.enumerated() where !isOld[index] { changes.append(.insert(item)) }
    changes += new.indices.filter { isOld[$0] }.compactMap(update)
    // A closure, not `\.id`: a key path into a generic type is made anew at run time.
    return (changes, new.map { $0.id })
  }
}
