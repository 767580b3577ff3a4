/// The items of a table that one batch of model changes touched: what
/// ``SectionedTable/applying(_:model:precedes:)`` needs to edit the table instead of
/// rebuilding it.
///
/// An item is in at most one of the three.
package struct TableEdit: Hashable, Sendable {
  /// Items no longer in the table.
  package var removed: Set<ItemID>
  /// Items new to the table, all in the new model.
  package var inserted: [ItemID]
  /// Items in both tables whose content changed: their section and row may change.
  package var updated: Set<ItemID>
  /// Whether the batch reordered the model (``SearchModel/Change/reorder(_:)``): then any row of a
  /// table in model order may move.
  package var reordered = false

  package init(removed: Set<ItemID> = [], inserted: [ItemID] = [], updated: Set<ItemID> = []) {
    self.removed = removed
    self.inserted = inserted
    self.updated = updated
  }

  /// Whether the batch touched no item and kept the order.
  package var isEmpty: Bool {
    removed.isEmpty && inserted.isEmpty && updated.isEmpty && !reordered
  }
}
