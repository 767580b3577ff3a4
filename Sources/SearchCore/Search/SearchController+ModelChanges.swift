import SearchEngine

// Model changes: insert, update, remove and batches, prepared off the main actor and installed
// at once, and the results on screen brought up to date by checking only the changed items.

extension SearchController {
  // MARK: Model changes

  /// Adds an item at a position of the model (the end when nil).
  ///
  /// The change is made inside the call, on the main actor: its cost grows with the model.
  /// For large models, or many changes, use ``apply(_:)``.
  @discardableResult
  public func insert(_ record: SearchModel.Record, at position: Int? = nil) throws(SearchCorpus
    .Error)
    -> ItemID
  {
    try install(prepare([.insert(record, at: position)])).inserted[0]
  }

  /// Replaces an item's content.
  public func update(_ id: ItemID, with record: SearchModel.Record) throws(SearchCorpus.Error) {
    try install(prepare([.update(id, with: record)]))
  }

  /// Removes an item from the model and from both tables.
  public func remove(_ id: ItemID) throws(SearchCorpus.Error) {
    try install(prepare([.remove(id)]))
  }

  /// Applies a batch of changes as one: they are prepared (folded, indexed, sectioned) off the
  /// main actor, then installed at once with one change set per table and one update.
  ///
  /// Batches are applied one after another, in the order of their calls.
  ///
  /// - Returns: The identities of the inserted items, in the order of their changes.
  /// - Throws: ``/SearchEngine/SearchCorpus/Error`` when a change cannot be made (an unknown item, a record of the
  ///   wrong shape); then no change of the batch is made.
  @discardableResult
  public func apply(_ changes: [SearchModel.Change]) async throws(SearchCorpus.Error) -> [ItemID] {
    if !batching.beginBatch() {
      await withCheckedContinuation { batching.waitForTurn($0) }
    }
    defer { batching.endBatch()?.resume() }
    let clock = ContinuousClock()
    let start = clock.now
    // No local keeps the old model: the last reference to it must go off the main actor
    // (see `install`), and a local would drop it here when the call returns.
    let baseVersion = corpus.model.version
    let onMainActor = clock.now - start
    let shown = results.map {
      Shown(
        result: $0, table: resultsTable, version: tables.resultsVersion,
        ranks: machine.configuration.ranksResults, layout: resultsLayout,
        layoutIsOriginal: tables.resultsTakeOriginalLayout)
    }
    if backend != nil, changes.contains(where: { if case .reorder = $0 { true } else { false } }) {
      throw .backend(Self.reorderOnBackend)
    }
    let outcome = await Self.prepareInBackground(
      changes, corpus: corpus, table: originalTable, shown: shown)
    var (prepared, refreshed) = try outcome.get()
    if let backend {
      // The backend first: a change it refuses is made nowhere.
      let sent = prepared.backendChanges(of: changes)
      batching.sendingToBackend()
      do { try await backend.apply(sent) } catch {
        if let held = batching.backendRefused() { perform(startInBackground(held)) }
        throw .backend(SearchBackendError.wrapping(error))
      }
    }
    defer {
      // The install restarts a held search, since the model it read has changed.
      batching.backendCaughtUp()
    }
    let installing = clock.now
    if corpus.model.version != baseVersion {
      // A change made on the main actor while this batch was prepared: prepare it again on
      // the model as it is now.
      prepared = try prepare(changes)
      refreshed = nil
    }
    defer { batching.recordMainActorTime(onMainActor + (clock.now - installing)) }
    batching.prepared(refreshed)
    defer { batching.prepared(nil) }
    return install(prepared).inserted
  }

  /// The results on screen when a change is sent off to be prepared.
  private struct Shown: Sendable {
    var result: SearchResult
    var table: SectionedTable
    var version: Int
    var ranks: Bool
    var layout: TableLayout
    /// Whether the results take the original table's layout (its sections and order).
    var layoutIsOriginal: Bool
  }

  private nonisolated static func prepareInBackground(
    _ changes: [SearchModel.Change], corpus: SearchCorpus, table: SectionedTable, shown: Shown?
  ) async -> Result<(PreparedChanges, RefreshedResults?), SearchCorpus.Error> {
    await BackgroundWork.run {
      do throws(SearchCorpus.Error) {
        let prepared = try PreparedChanges.prepare(changes, corpus: corpus, table: table)
        // The results on screen, refreshed here too: if they are still on screen when the
        // change is installed, the main actor only installs them.
        let refreshed = shown.map {
          RefreshedResults(
            shown: $0.result, table: $0.table, resultsVersion: $0.version,
            corpus: prepared.corpus, changed: prepared.changedItems, ranks: $0.ranks,
            layout: $0.layout, original: $0.layoutIsOriginal ? prepared.table : nil)
        }
        return .success((prepared, refreshed))
      } catch { return .failure(error) }
    }
  }

  private func prepare(_ changes: [SearchModel.Change]) throws(SearchCorpus.Error)
    -> PreparedChanges
  {
    if backend != nil { throw .backend(Self.needsApply) }
    return try PreparedChanges.prepare(changes, corpus: corpus, table: originalTable)
  }

  private static let reorderOnBackend = SearchBackendError(
    .rejected, "a backend keeps the order its rows were inserted in: it cannot be reordered",
    advice: "remove the items that moved and insert them at their new places")

  private static let needsApply = SearchBackendError(
    .rejected, "a change to a controller with a backend must reach the backend first",
    advice: "use apply(_:), which waits for it")

  /// Installs prepared changes: every table is brought up to date before any event of the
  /// change is delivered, so that observers see one consistent world.
  @discardableResult
  private func install(_ prepared: PreparedChanges) -> PreparedChanges {
    // What the change replaces is freed off the main actor: a model's worth of columns and
    // tables takes milliseconds to give back.
    let retired = (corpus, originalTable, resultsTable, delivery.published.snapshot)
    defer { BackgroundWork.start(.utility) { withExtendedLifetime(retired) {} } }
    corpus = prepared.corpus
    tables.replaceOriginal(with: prepared.table, changes: prepared.changes)
    delivery.noteOriginalChanges(prepared.changes)
    for event in prepared.events { emit(event) }
    emit(.originalDidChange(prepared.changes))
    batching.beginInstall(touching: prepared.changedItems)
    send(.modelChanged, cause: .modelChanged)
    batching.endInstall()
    // A corpus changed before its word index was built has none: build it for this one.
    buildWordIndexInBackground()
    return prepared
  }

  // MARK: Refreshing the results

  /// Brings the displayed results up to date after a model change by checking only the
  /// changed items; returns the new row count and leaves the table's changes for the event.
  ///
  /// The work was done off the main actor with the change, unless the results on screen
  /// changed meanwhile.
  func refreshResults() -> Int {
    guard let shown = results else { return 0 }
    let refreshed: RefreshedResults
    if let prepared = batching.preparedRefresh(ofResultsVersion: tables.resultsVersion) {
      refreshed = prepared
    } else {
      refreshed = RefreshedResults(
        shown: shown, table: resultsTable, resultsVersion: tables.resultsVersion, corpus: corpus,
        changed: batching.modelChange, ranks: machine.configuration.ranksResults,
        layout: resultsLayout, original: tables.resultsTakeOriginalLayout ? originalTable : nil)
    }
    if let error = refreshed.error { emit(.error(error)) }
    tables.refreshResults(refreshed.result, table: refreshed.table, changes: refreshed.changes)
    filter.record(refreshed.result, itemBudget: IncrementalFilter.itemBudget(of: corpus))
    delivery.noteResultsChanges(refreshed.changes)
    return resultsTable.numberOfRows
  }
}

/// The results on screen brought up to date after a model change, by checking only the
/// changed items: worked out where the change is prepared, off the main actor, for the
/// results table of one version.
struct RefreshedResults: Sendable {
  /// The version of the results table this refreshes.
  var resultsVersion: Int
  var result: SearchResult
  /// The new results table; nil when it could not be laid out (then `error` says why).
  var table: SectionedTable?
  var changes: TableChanges
  var error: String?

  /// `original` is the original table after the change when the results take its layout:
  /// a table rebuilt (ranked, or with typos) keeps its rows instead of sorting again.
  init(
    shown: SearchResult, table old: SectionedTable, resultsVersion: Int, corpus: SearchCorpus,
    changed change: ChangedItems, ranks: Bool, layout: TableLayout,
    original: SectionedTable? = nil
  ) {
    self.resultsVersion = resultsVersion
    let changedItems = change.touched
    let insertedItems = change.inserted
    let changed = Set(changedItems)
    // After a reorder the untouched results keep their set, not their order: put them in the
    // new model order before the changed items are merged in.
    func inModelOrder(_ items: [ItemID]) -> [ItemID] {
      guard change.reordered else { return items }
      var sorted = items.filter { corpus.model.contains($0) }
      corpus.sortedByPosition(&sorted)
      return sorted
    }
    // The filter compiled for the shown results: the schema, which names the attributes,
    // never changes, so it compiles again.
    let filter = (try? corpus.compile(shown.filter)) ?? nil
    let evaluator = QueryEvaluator(
      corpus: corpus, query: shown.query, scope: shown.scope, filter: filter)
    // Only items that were in the model may have been shown: a change that only inserts
    // needs no lookup in the table.
    let wasShown = Set(
      changedItems.filter { !insertedItems.contains($0) && old.indexPath(of: $0) != nil })
    var admitted = changedItems.filter { corpus.model.contains($0) && evaluator.admits($0) }
      .sorted(by: corpus.precedes)
    var admittedSet = Set(admitted)
    var items = Self.merging(
      admitted, into: inModelOrder(shown.items), changed: changedItems, changedSet: changed,
      corpus: corpus)
    // The results in "All" the scope counts come from, brought up to date the same way.
    var unscoped: [ItemID]?
    var scopeCounts: [Int?]?
    if let basis = shown.unscopedItems {
      let all = QueryEvaluator(corpus: corpus, query: shown.query, scope: 0, filter: filter)
      let admittedInAll = changedItems.filter { corpus.model.contains($0) && all.admits($0) }
        .sorted(by: corpus.precedes)
      let refreshed = Self.merging(
        admittedInAll, into: inModelOrder(basis), changed: changedItems, changedSet: changed,
        corpus: corpus)
      unscoped = refreshed
      scopeCounts = corpus.scopeCounts(
        of: refreshed, selected: shown.scope, selectedCount: items.count)
    }
    var partialCount: ResultCount?
    if !shown.isComplete {
      (items, partialCount) = Self.keepingPrefix(
        items, of: shown, wasShown: wasShown, admitted: admittedSet, inserted: insertedItems,
        changed: changed, corpus: corpus)
      // Matches after the prefix wait for the next page.
      let kept = Set(items)
      admitted = admitted.filter { kept.contains($0) }
      admittedSet = Set(admitted)
    }
    result = SearchResult(
      query: shown.query, scope: shown.scope, filter: shown.filter, items: items,
      path: .refreshed, modelVersion: corpus.model.version, partialCount: partialCount,
      scopeCounts: scopeCounts, unscopedItems: unscoped)
    changes = TableChanges()
    do throws(SectionedTable.Error) {
      if ranks || result.query.mayMatchWithTypos {
        // A change can move any ranked row, or an item between the exact matches and those
        // with typos: rebuild, then compare.
        let table = try layout.resultsTable(
          result, corpus: corpus, ranks: ranks, original: original)
        self.table = table
        changes = TableChanges(from: old, to: table, updated: wasShown.intersection(admittedSet))
      } else {
        var edit = TableEdit(
          removed: wasShown.subtracting(admittedSet),
          inserted: admitted.filter { !wasShown.contains($0) },
          updated: wasShown.intersection(admittedSet))
        edit.reordered = change.reordered
        let (table, changes) = try old.applying(
          edit, model: corpus.model, precedes: corpus.precedes)
        self.table = table
        self.changes = changes
      }
    } catch {
      table = nil
      self.error = error.description
    }
  }

  /// `items` (in model order) without the changed items, and `admitted` (the changed items
  /// that match now, in model order) merged in: the untouched results keep their order.
  private static func merging(
    _ admitted: [ItemID], into items: [ItemID], changed: [ItemID], changedSet: Set<ItemID>,
    corpus: SearchCorpus
  ) -> [ItemID] {
    var merged: [ItemID] = []
    merged.reserveCapacity(items.count + admitted.count)
    var next = 0
    // A change touches a few items of many results: a short list beats hashing every row.
    let few = changed.count <= 16
    for id in items where few ? !changed.contains(id) : !changedSet.contains(id) {
      while next < admitted.count && corpus.precedes(admitted[next], id) {
        merged.append(admitted[next])
        next += 1
      }
      merged.append(id)
    }
    merged += admitted[next...]
    return merged
  }

  /// A backend's first rows after a change: every match up to the last row still shown from
  /// before, none after it (they come with the next page), and the count brought up to date;
  /// a nil count when the rows are now every match.
  ///
  /// The rows shown were every match up to a last one, `boundary`. After the change that
  /// holds up to the last row still shown from before: a match inserted or changed after it
  /// is left to the next page. Each change moves the count by what is known of it: a shown
  /// item matched before, an inserted one did not, an item before the boundary that was not
  /// shown did not. An item changed or removed after the boundary may or may not have
  /// matched: the count becomes an estimate.
  private static func keepingPrefix(
    _ merged: [ItemID], of shown: SearchResult, wasShown: Set<ItemID>, admitted: Set<ItemID>,
    inserted: Set<ItemID>, changed: Set<ItemID>, corpus: SearchCorpus
  ) -> ([ItemID], ResultCount?) {
    let end =
      merged.lastIndex { !changed.contains($0) || wasShown.contains($0) }.map { $0 + 1 } ?? 0
    let kept = Array(merged[..<end])
    let boundary = shown.items.last.flatMap { corpus.model.contains($0) ? $0 : nil }
    var count = shown.count.value - wasShown.count + admitted.count
    var exact = shown.count.isExact
    for id in changed where !wasShown.contains(id) && !inserted.contains(id) {
      guard let boundary, corpus.model.contains(id), corpus.precedes(id, boundary) else {
        exact = false
        continue
      }
    }
    if exact && count <= kept.count { return (kept, nil) }
    count = max(count, kept.count + 1)
    return (kept, exact ? .exact(count) : .estimate(count))
  }
}
