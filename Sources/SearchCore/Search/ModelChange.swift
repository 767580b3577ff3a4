/// One change to a search controller's model, for ``SearchController/apply(_:)``.
public enum ModelChange: Hashable, Sendable {
  /// Adds an item at a position of the model's order (nil: the end).
  case insert(ItemRecord, at: Int? = nil)
  /// Replaces an item's content; its identity and position stay.
  case update(ItemID, ItemRecord)
  /// Removes an item.
  case remove(ItemID)
}

/// A batch of model changes applied to a corpus and the original table, ready to install:
/// everything that costs in proportion to the model is done here, off the main actor.
struct PreparedChanges: Sendable {
  /// The corpus after the changes.
  var corpus: SearchCorpus
  /// The original table after the changes, and what changed in it.
  var table: SectionedTable
  var changes: TableChanges
  /// One event per change, in order.
  var events: [SearchEvent]
  /// Every item touched, for re-checking the displayed results.
  var touched: [ItemID]
  /// The identities of the inserted items, in the order of their changes.
  var inserted: [ItemID]

  /// Applies `batch` to `corpus` and `table` (built with `layout`).
  static func prepare(
    _ batch: [ModelChange], corpus: SearchCorpus, table: SectionedTable, layout: TableLayout
  ) throws(CorpusError) -> PreparedChanges {
    var corpus = corpus
    var events: [SearchEvent] = []
    var touched: [ItemID] = []
    var inserted: [ItemID] = []
    var updated: Set<ItemID> = []
    for change in batch {
      switch change {
      case .insert(let record, let position):
        let id = try corpus.insert(record, at: position ?? corpus.model.count)
        events.append(.didInsert(id))
        touched.append(id)
        inserted.append(id)
      case .update(let id, let record):
        try corpus.update(id, with: record)
        events.append(.didUpdate(id))
        touched.append(id)
        updated.insert(id)
      case .remove(let id):
        try corpus.remove(id)
        events.append(.didDelete(id))
        touched.append(id)
      }
    }
    var seen: Set<ItemID> = []
    touched = touched.filter { seen.insert($0).inserted }
    var newTable = table
    var failure: TableError?
    do { newTable = try layout.table(corpus.model.ids, of: corpus.model) } catch {
      failure = error
    }
    if let failure { events.append(.error(failure.description)) }
    let changes = TableChanges(from: table, to: newTable, updated: updated)
    return PreparedChanges(
      corpus: corpus, table: newTable, changes: changes, events: events, touched: touched,
      inserted: inserted)
  }
}
