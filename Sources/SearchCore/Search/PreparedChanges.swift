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

  /// Applies `batch` to `corpus` and edits `table` to match (see
  /// ``SectionedTable/applying(_:model:precedes:)``): the cost follows the batch, not the
  /// model, but for the one pass that resolves the scopes.
  static func prepare(_ batch: [ModelChange], corpus: SearchCorpus, table: SectionedTable)
    throws(CorpusError) -> PreparedChanges
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
      inserted: events.compactMap { if case .didInsert(let id) = $0 { id } else { nil } })
  }
}
