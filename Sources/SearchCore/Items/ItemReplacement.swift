import SearchEngine

/// The changes that turn one list into another, matched by `id`, for
/// ``ItemSearch/replaceAll(_:)``: items only in the old list are removed, items only in the
/// new one inserted at their place, and items in both updated where they changed. Of the items
/// in both, the longest run that keeps its order stays where it is; each of the others moves
/// (a removal, then an insertion at its new place), so a list sorted anew or synced moves as
/// few rows as can be. O(n log n) in the lists' length.
enum ItemReplacement {
  /// The changes from the list `old` to `new`, in an order ``ItemSearch/apply(_:)`` carries
  /// out: removals, insertions by ascending position, updates. `same`, when given, says of
  /// the old and new item of an id whether they are equal, which needs no update.
  ///
  /// - Throws: ``ItemSearchError/duplicateID(_:)`` when `new` holds an `id` twice.
  static func changes<Item: Identifiable & Sendable>(
    from old: [Item], to new: [Item], same: ((Item, Item) -> Bool)? = nil
  ) throws(ItemSearchError) -> [ItemChange<Item>] where Item.ID: Sendable {
    var position: [Item.ID: Int] = [:]
    position.reserveCapacity(new.count)
    for (index, item) in new.enumerated() {
      guard position.updateValue(index, forKey: item.id) == nil else {
        throw .duplicateID("\(item.id)")
      }
    }
    var changes: [ItemChange<Item>] = []
    // The new positions of the kept items, in their old order, and their old values.
    var kept: [Int] = []
    kept.reserveCapacity(min(old.count, new.count))
    var before: [Int: Item] = [:]
    for item in old {
      guard let index = position[item.id] else {
        changes.append(.remove(item.id))
        continue
      }
      kept.append(index)
      if same != nil { before[index] = item }
    }
    var stays = [Bool](repeating: false, count: new.count)
    for (index, keeps) in TableChanges.increasingRun(kept).enumerated() where keeps {
      stays[kept[index]] = true
    }
    var isOld = [Bool](repeating: false, count: new.count)
    for index in kept { isOld[index] = true }
    for (index, item) in new.enumerated() where isOld[index] && !stays[index] {
      changes.append(.remove(item.id))
    }
    for (index, item) in new.enumerated() where !stays[index] {
      changes.append(.insert(item, at: index))
    }
    for (index, item) in new.enumerated() where stays[index] {
      if let same, let old = before[index], same(old, item) { continue }
      changes.append(.update(item))
    }
    return changes
  }
}
