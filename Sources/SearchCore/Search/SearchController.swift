import Synchronization

/// UIKit's `UISearchDisplayController` without UIKit: a search bar, two tables over one model
/// (the original and the results), a delegate that decides when to reload, and background
/// search whose stale results are never shown.
///
/// The decisions are made by a pure ``SearchStateMachine``; this class is its driver: it asks
/// the delegate, runs searches (inside the call or through the ``SearchScheduler``), keeps the
/// tables, and tells observers (``observe(_:)``, ``events()``) and the delegate what happened.
///
/// ```swift
/// let controller = try SearchController(corpus: corpus, placeholder: "Search cities")
/// controller.begin()
/// controller.setText("zur")            // reload now: the results table has the rows
/// let first = controller.resultsTable.item(at: TableIndexPath(section: 0, row: 0))
/// ```
@MainActor
public final class SearchController {
  /// How the two tables are sectioned and ordered.
  public struct TableOptions: Hashable, Sendable {
    /// How the original table groups its rows.
    public var sectioning: Sectioning
    /// How rows are ordered inside each section of the original table.
    public var rowOrder: RowOrder
    /// Whether the results table has the original's sections; false gives one flat section
    /// in the results' order, as UIKit's results table does by default.
    public var resultsUseOriginalSections: Bool
    /// The locale whose collation orders sections and rows ("es", "sv", "de"; "" for the
    /// root collation).
    public var locale: String

    /// Creates table options; the defaults are one flat section in model order.
    public init(
      sectioning: Sectioning = .none, rowOrder: RowOrder = .given,
      resultsUseOriginalSections: Bool = false, locale: String = ""
    ) {
      self.sectioning = sectioning
      self.rowOrder = rowOrder
      self.resultsUseOriginalSections = resultsUseOriginalSections
      self.locale = locale
    }
  }

  /// The delegate; it is not retained.
  public weak var delegate: (any SearchControllerDelegate)?

  /// The items, their index and scopes.
  public private(set) var corpus: SearchCorpus
  /// The table of the whole model.
  public private(set) var originalTable: SectionedTable
  /// The table of the current results (empty while none are shown).
  public private(set) var resultsTable: SectionedTable
  /// The results in the results table: nil while none are shown.
  public private(set) var results: SearchResult?
  /// How the tables are sectioned and ordered.
  public let tableOptions: TableOptions

  /// How many finished searches were dropped because a newer request came first.
  public private(set) var discardedSearches = 0

  private var machine: SearchStateMachine
  private var filter = IncrementalFilter()
  private let scheduler: any SearchScheduler
  /// How the original table and the results table are built from a list of items.
  private let originalLayout: TableLayout
  private let resultsLayout: TableLayout
  private let observers = EventObservers()
  /// The newest generation, readable by background searches so that a superseded one stops
  /// between chunks.
  private let newestGeneration = GenerationCounter()
  /// Finished searches waiting for the machine to install or discard them.
  private var finished: [Int: Outcome] = [:]
  /// The items of the last model change, for re-evaluating the displayed results.
  private var changedItems: [ItemID] = []
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Background searches started and not yet back, superseded ones included.
  private var searchesInFlight = 0

  /// Creates a controller over a corpus.
  ///
  /// - Throws: ``TableError`` when the table options name a field or attribute the model does
  ///   not have, or ICU cannot open the locale's collation.
  public init(
    corpus: SearchCorpus, placeholder: String = "",
    configuration: SearchConfiguration = SearchConfiguration(),
    tableOptions: TableOptions = TableOptions(),
    scheduler: any SearchScheduler = TaskSearchScheduler()
  ) throws(TableError) {
    self.corpus = corpus
    self.tableOptions = tableOptions
    self.scheduler = scheduler
    let collation: TableCollation
    do { collation = try TableCollation(locale: tableOptions.locale) } catch { throw .icu(error) }
    originalLayout = TableLayout(
      sectioning: tableOptions.sectioning, rowOrder: tableOptions.rowOrder, collation: collation)
    resultsLayout =
      tableOptions.resultsUseOriginalSections
      ? originalLayout : TableLayout(sectioning: .none, rowOrder: .given, collation: collation)
    originalTable = try originalLayout.table(corpus.model.ids, of: corpus.model)
    resultsTable = try resultsLayout.table([], of: corpus.model)
    machine = SearchStateMachine(
      bar: SearchBarState(placeholder: placeholder, scopeTitles: corpus.scopeBar.titles),
      configuration: configuration)
  }

  // MARK: State

  /// The search bar: text, placeholder, scope titles, selected scope, active.
  public var searchBar: SearchBarState { machine.bar }

  /// When searches run; changes apply from the next request.
  public var configuration: SearchConfiguration {
    get { machine.configuration }
    set { machine.configuration = newValue }
  }

  /// What the results table shows.
  public var resultsState: ResultsTableState { machine.state }

  /// The newest request's generation.
  public var generation: Int { machine.generation }

  /// Whether a search runs or waits for its quiet interval.
  public var isSearchPending: Bool { machine.isSearchPending }

  /// The table a front shows now: the results table while it is on screen, else the original.
  public var visibleTable: TableKind { machine.state.showsResultsTable ? .results : .original }

  /// One of the two tables.
  public func table(_ kind: TableKind) -> SectionedTable {
    kind == .original ? originalTable : resultsTable
  }

  // MARK: The search bar

  /// The bar gets focus: will-begin, active, did-begin.
  public func begin() { send(.begin) }

  /// Sets the text (a keystroke, a paste or code): text-did-change, then the reload decision.
  public func setText(_ text: String) { send(.setText(text)) }

  /// Selects a scope button: scope-did-change, then the reload decision.
  ///
  /// - Throws: ``SearchControllerError/noSuchScope(_:titles:)`` for an index outside the bar.
  public func selectScope(_ scope: Int) throws(SearchControllerError) {
    guard machine.bar.scopeTitles.indices.contains(scope) else {
      throw .noSuchScope(String(scope), titles: machine.bar.scopeTitles)
    }
    send(.selectScope(scope))
  }

  /// Presses the search button; in the search-button-only mode this runs the search.
  public func clickSearchButton() { send(.searchButton) }

  /// Presses cancel: the search ends, its running search is dropped, the text is cleared.
  public func cancel() { send(.cancel) }

  /// Ends the search without the cancel button; the text stays.
  public func end() { send(.end) }

  // MARK: Rows

  /// The model item of a row, telling observers it was selected.
  ///
  /// - Throws: ``SearchControllerError/noSuchRow(_:table:)`` when the table has no such row.
  @discardableResult
  public func selectRow(at indexPath: TableIndexPath, in table: TableKind)
    throws(SearchControllerError) -> ItemID
  {
    guard let item = self.table(table).item(at: indexPath) else {
      throw .noSuchRow(indexPath, table: table)
    }
    emit(.didSelect(item: item, table: table))
    return item
  }

  /// Deletes the item of a row from the model, and so from both tables.
  ///
  /// - Throws: ``SearchControllerError/noSuchRow(_:table:)`` when the table has no such row,
  ///   ``SearchControllerError/notEditable(_:table:)`` when it cannot be edited.
  @discardableResult
  public func deleteRow(at indexPath: TableIndexPath, in table: TableKind)
    throws(SearchControllerError) -> ItemID
  {
    let source = self.table(table)
    guard let item = source.item(at: indexPath) else { throw .noSuchRow(indexPath, table: table) }
    guard source.canEditRow(at: indexPath) else { throw .notEditable(indexPath, table: table) }
    do { try remove(item) } catch { throw .corpus(error) }
    return item
  }

  // MARK: Model changes

  /// Adds an item at a position of the model (the end when nil).
  @discardableResult
  public func insert(_ record: ItemRecord, at position: Int? = nil) throws(CorpusError) -> ItemID {
    var corpus = self.corpus
    let id = try corpus.insert(record, at: position ?? corpus.model.count)
    modelChanged(corpus, items: [id], event: .didInsert(id))
    return id
  }

  /// Replaces an item's content.
  public func update(_ id: ItemID, with record: ItemRecord) throws(CorpusError) {
    var corpus = self.corpus
    try corpus.update(id, with: record)
    modelChanged(corpus, items: [id], event: .didUpdate(id))
  }

  /// Removes an item from the model and from both tables.
  public func remove(_ id: ItemID) throws(CorpusError) {
    var corpus = self.corpus
    try corpus.remove(id)
    modelChanged(corpus, items: [id], event: .didDelete(id))
  }

  private func modelChanged(_ corpus: SearchCorpus, items: [ItemID], event: SearchEvent) {
    self.corpus = corpus
    emit(event)
    let old = originalTable
    do { originalTable = try originalLayout.table(corpus.model.ids, of: corpus.model) } catch {
      emit(.error(error.description))
    }
    let updated: Set<ItemID> = if case .didUpdate = event { Set(items) } else { [] }
    emit(.originalDidChange(TableChanges(from: old, to: originalTable, updated: updated)))
    changedItems = items
    send(.modelChanged)
    changedItems = []
  }

  // MARK: Observation

  /// Calls `handler` with every event from now on, until the token is released.
  public func observe(_ handler: @escaping @MainActor @Sendable (SearchEvent) -> Void)
    -> ObservationToken
  {
    observers.add(handler)
  }

  /// The events from now on, as an asynchronous sequence; it ends when the consumer stops
  /// iterating. Events are buffered without limit, so none is lost to a slow consumer.
  public func events() -> AsyncStream<SearchEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: SearchEvent.self)
    let token = observers.add { continuation.yield($0) }
    continuation.onTermination = { _ in token.cancel() }
    return stream
  }

  /// Whether no search runs or waits, and no superseded background search is still winding
  /// down.
  public var isIdle: Bool { !machine.isSearchPending && searchesInFlight == 0 }

  /// Returns when the controller is idle (for scripts: "wait"): every search started so far
  /// has been delivered or dropped.
  public func waitUntilIdle() async {
    guard !isIdle else { return }
    await withCheckedContinuation { idleWaiters.append($0) }
  }

  // MARK: The driver

  private func send(_ input: SearchStateMachine.Input) {
    perform(machine.handle(input))
  }

  /// Performs actions in order; an action that feeds an input back performs the resulting
  /// actions before the rest.
  private func perform(_ actions: [SearchStateMachine.Action]) {
    var queue = actions
    newestGeneration.store(machine.generation)
    while !queue.isEmpty {
      let action = queue.removeFirst()
      var next: [SearchStateMachine.Action] = []
      switch action {
      case .emit(let event):
        emit(event)
      case .askDelegate(let trigger):
        next = machine.handle(.delegateAnswered(answer(trigger)))
      case .searchNow(let request):
        let outcome = search(request, isCancelled: { false })
        next = finish(request.generation, outcome)
      case .searchInBackground(let request):
        startInBackground(request)
      case .cancelSearch:
        break  // the newest generation moved: the search stops at its next chunk
      case .scheduleQuietInterval(let generation, let delay):
        scheduler.schedule(after: delay) { [weak self] in
          self?.send(.quietIntervalElapsed(generation: generation))
        }
      case .install(let generation):
        if let outcome = finished.removeValue(forKey: generation) {
          results = outcome.result
          resultsTable = outcome.table
          filter.record(outcome.result, itemBudget: corpus.model.count)
        }
      case .discard(let generation):
        finished[generation] = nil
        discardedSearches += 1
      case .clearResults:
        results = nil
        resultsTable = emptyResultsTable()
      case .refreshResults(let generation):
        next = machine.handle(.resultsRefreshed(generation: generation, rows: refreshResults()))
        if let changes = pendingResultsChanges {
          pendingResultsChanges = nil
          emit(.resultsDidChange(changes, generation: generation))
        }
      }
      newestGeneration.store(machine.generation)
      queue.insert(contentsOf: next, at: 0)
    }
    if isIdle && !idleWaiters.isEmpty {
      let waiters = idleWaiters
      idleWaiters = []
      for waiter in waiters { waiter.resume() }
    }
  }

  private var pendingResultsChanges: TableChanges?

  private func answer(_ trigger: SearchTrigger) -> Reload? {
    guard let delegate else { return nil }
    switch trigger {
    case .searchString(let text):
      return delegate.searchController(self, shouldReloadForSearchString: text)
    case .searchScope(let scope):
      return delegate.searchController(self, shouldReloadForSearchScope: scope)
    case .begin:
      return delegate.searchController(self, shouldReloadForSearchString: machine.bar.text)
    case .searchButton:
      return nil
    }
  }

  private func emit(_ event: SearchEvent) {
    delegate?.receive(event, from: self)
    observers.send(event)
  }

  private func finish(_ generation: Int, _ outcome: Result<Outcome, SearchFailure>?)
    -> [SearchStateMachine.Action]
  {
    var rows: Int?
    switch outcome {
    case .success(let value)?:
      finished[generation] = value
      rows = value.table.numberOfRows
    case .failure(let failure)?:
      emit(.error(failure.message))
    case nil:
      break
    }
    return machine.handle(.searchFinished(generation: generation, rows: rows))
  }

  // MARK: Searching

  /// A finished search: its result and the results table made of it.
  struct Outcome: Sendable {
    var result: SearchResult
    var table: SectionedTable
  }

  struct SearchFailure: Error {
    var message: String
  }

  /// What a search needs, captured on the main actor so that it can run anywhere.
  private struct Job: Sendable {
    var request: SearchStateMachine.Request
    var query: Query
    var plan: IncrementalFilter.Plan
    var corpus: SearchCorpus
    var ranks: Bool
    var layout: TableLayout

    func run(isCancelled: @Sendable () -> Bool) -> Result<Outcome, SearchFailure>? {
      guard
        let result = IncrementalFilter.run(
          plan, query: query, scope: request.scope, in: corpus, isCancelled: isCancelled)
      else { return nil }
      let items = ranks ? corpus.ranked(result) : result.items
      do {
        let table = try layout.table(items, of: corpus.model)
        return .success(Outcome(result: result, table: table))
      } catch {
        return .failure(SearchFailure(message: error.description))
      }
    }
  }

  private func job(for request: SearchStateMachine.Request) -> Result<Job, SearchFailure> {
    let query: Query
    do { query = try Query(request.text, normalizer: corpus.normalizer) } catch {
      return .failure(SearchFailure(message: error.description))
    }
    return .success(
      Job(
        request: request, query: query,
        plan: filter.plan(query, scope: request.scope, corpus: corpus), corpus: corpus,
        ranks: machine.configuration.ranksResults, layout: resultsLayout))
  }

  private func search(_ request: SearchStateMachine.Request, isCancelled: @Sendable () -> Bool)
    -> Result<Outcome, SearchFailure>?
  {
    switch job(for: request) {
    case .success(let job): return job.run(isCancelled: isCancelled)
    case .failure(let failure): return .failure(failure)
    }
  }

  private func startInBackground(_ request: SearchStateMachine.Request) {
    let job: Job
    switch self.job(for: request) {
    case .success(let value): job = value
    case .failure(let failure):
      perform(finish(request.generation, .failure(failure)))
      return
    }
    let newest = newestGeneration
    let generation = request.generation
    searchesInFlight += 1
    scheduler.runInBackground {
      job.run { newest.load() != generation }
    } then: { [weak self] outcome in
      guard let self else { return }
      self.searchesInFlight -= 1
      self.perform(self.finish(generation, outcome))
    }
  }

  private func emptyResultsTable() -> SectionedTable {
    // An empty flat table needs no name and no collator: it cannot fail.
    (try? resultsLayout.table([], of: corpus.model)) ?? resultsTable
  }

  /// Brings the displayed results up to date after a model change by checking only the
  /// changed items; returns the new row count and leaves the table's changes for the event.
  private func refreshResults() -> Int {
    guard let shown = results else { return 0 }
    let changed = Set(changedItems)
    let evaluator = QueryEvaluator(corpus: corpus, query: shown.query, scope: shown.scope)
    var items = shown.items.filter { !changed.contains($0) && corpus.model.contains($0) }
    items += changedItems.filter { evaluator.admits($0) }
    corpus.sortedByPosition(&items)
    let result = SearchResult(
      query: shown.query, scope: shown.scope, items: items, path: .refreshed,
      modelVersion: corpus.model.version)
    let old = resultsTable
    let ordered = machine.configuration.ranksResults ? corpus.ranked(result) : result.items
    do { resultsTable = try resultsLayout.table(ordered, of: corpus.model) } catch {
      emit(.error(error.description))
    }
    results = result
    filter.record(result, itemBudget: corpus.model.count)
    let updated = changed.filter { shown.items.contains($0) && items.contains($0) }
    pendingResultsChanges = TableChanges(from: old, to: resultsTable, updated: updated)
    return resultsTable.numberOfRows
  }
}

/// How a table is built from a list of items: its sectioning, row order and collation.
struct TableLayout: Sendable {
  var sectioning: Sectioning
  var rowOrder: RowOrder
  var collation: TableCollation

  /// The table of `items`, which must be distinct items of `model` (the model's own list, or a
  /// search result).
  func table(_ items: [ItemID], of model: Model) throws(TableError) -> SectionedTable {
    try SectionedTable(
      checkedItems: items, model: model, sectioning: sectioning, rowOrder: rowOrder,
      collation: collation)
  }
}

/// The newest generation, shared with background searches.
final class GenerationCounter: Sendable {
  private let value = Atomic<Int>(0)

  func load() -> Int { value.load(ordering: .acquiring) }
  func store(_ generation: Int) { value.store(generation, ordering: .releasing) }
}

/// A request the controller cannot carry out, with what to do instead.
public enum SearchControllerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The scope bar has no such scope.
  case noSuchScope(String, titles: [String])
  /// The table has no row at that index path.
  case noSuchRow(TableIndexPath, table: TableKind)
  /// The row cannot be edited.
  case notEditable(TableIndexPath, table: TableKind)
  /// The corpus refused the change.
  case corpus(CorpusError)

  /// The error as one line of text.
  public var description: String {
    switch self {
    case .noSuchScope(let scope, let titles):
      let list = titles.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")
      return "no scope \"\(scope)\"; the scopes are \(list)"
    case .noSuchRow(let path, let table):
      return "the \(table.rawValue) table has no row \(path); rows are SECTION.ROW from 0.0"
    case .notEditable(let path, let table):
      return "row \(path) of the \(table.rawValue) table cannot be deleted"
    case .corpus(let error):
      return error.description
    }
  }
}
