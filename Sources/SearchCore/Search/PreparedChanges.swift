import SearchEngine

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
  /// Whether the batch reordered the model.
  var reordered: Bool

  /// What the batch touched, as the displayed results are refreshed from it.
  var changedItems: ChangedItems {
    ChangedItems(touched: touched, inserted: Set(inserted), reordered: reordered)
  }

  /// Applies `batch` to `corpus` and edits `table` to match (see
  /// ``SectionedTable/applying(_:model:precedes:)``): the cost follows the batch, not the
  /// model, but for the one pass that resolves the scopes.
  static func prepare(_ batch: [SearchModel.Change], corpus: SearchCorpus, table: SectionedTable)
    throws(SearchCorpus.Error) -> PreparedChanges
  {
    var corpus = corpus
    var next = Int32(corpus.model.identityLimit)
    let edit = try corpus.apply(batch)
    var events: [SearchEvent] = []
    var touched: [ItemID] = []
    for change in batch {
      switch change {
      case .insert:
        let id = ItemID(rawValue: next)
        next += 1
        events.append(.didInsert(id))
        touched.append(id)
      case .update(let id, _):
        events.append(.didUpdate(id))
        touched.append(id)
      case .remove(let id):
        events.append(.didDelete(id))
        touched.append(id)
      case .reorder:
        // No item changes: the table's change set moves the rows.
        break
      }
    }
    var seen: Set<ItemID> = []
    touched = touched.filter { seen.insert($0).inserted }
    var newTable = table
    var changes = TableChanges()
    do {
      (newTable, changes) = try table.applying(edit, model: corpus.model, precedes: corpus.precedes)
    } catch {
      events.append(.error(error.description))
    }
    return PreparedChanges(
      corpus: corpus, table: newTable, changes: changes, events: events, touched: touched,
      inserted: events.compactMap { if case .didInsert(let id) = $0 { id } else { nil } },
      reordered: edit.reordered)
  }
}

extension PreparedChanges {
  /// The batch as a backend makes it: what it comes to, item by item (an item inserted and
  /// removed in the same batch is no change).
  ///
  /// Removals first, then updates, then insertions in model order, so that the item each insertion
  /// follows is already there.
  func backendChanges(of batch: [SearchModel.Change]) -> [BackendChange] {
    let model = corpus.model
    let new = Set(inserted)
    var removals: [BackendChange] = []
    var updates: [BackendChange] = []
    var insertions: [(position: Int, change: BackendChange)] = []
    for id in touched {
      guard let position = model.position(of: id) else {
        if !new.contains(id) { removals.append(.remove(id)) }
        continue
      }
      let record = model.record(of: id)
      if new.contains(id) {
        let after = position > 0 ? model.id(at: position - 1) : nil
        insertions.append((position, .insert(id, record, after: after)))
      } else {
        updates.append(.update(id, record))
      }
    }
    return removals + updates + insertions.sorted { $0.position < $1.position }.map(\.change)
  }
}

/// The items a batch of model changes touched: what the displayed results are refreshed from.
struct ChangedItems: Sendable {
  /// Every item inserted, updated or removed, once.
  var touched: [ItemID] = []
  /// Those of them that are new: no table showed them before.
  var inserted: Set<ItemID> = []
  /// Whether the batch reordered the model, so that any row in model order may move.
  var reordered = false
}
