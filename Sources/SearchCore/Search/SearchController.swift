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
  public private(set) var originalTable: SectionedTable {
    didSet { versions.original += 1 }
  }
  /// The table of the current results (empty while none are shown).
  public private(set) var resultsTable: SectionedTable {
    didSet { versions.results += 1 }
  }
  /// The results in the results table: nil while none are shown.
  public private(set) var results: SearchResult?
  /// How the tables are sectioned and ordered.
  public let tableOptions: TableOptions
  /// Where background searches are answered and model changes are made first; nil searches
  /// the corpus in memory.
  public let backend: (any SearchBackend)?

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
  /// Those of them that are new: no table showed them before.
  private var insertedItems: Set<ItemID> = []
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Background searches started and not yet back, superseded ones included.
  private var searchesInFlight = 0
  /// The backend searches under way, to cancel when they are superseded.
  private let backendSearches = BackendSearches()
  /// Whether the backend may hold a batch that the model has not installed yet: from the
  /// moment ``apply(_:)`` sends it until it is installed or refused.
  private var backendIsAhead = false
  /// The newest background search, answered while the backend was ahead of the model: its
  /// items may not be in the list yet. The batch's install runs it again on the new model; a
  /// refused batch runs it again on the old one.
  private var heldSearch: SearchStateMachine.Request?

  // MARK: Delivery state
  /// Events of the call under way, delivered when its changes are complete.
  private var pendingEvents: [SearchEvent] = []
  private var isDelivering = false
  /// What started the call under way, for its update.
  private var cause: SearchUpdate.Cause?
  /// Counts the replacements of each table.
  private var versions = (original: 0, results: 0)
  /// The last replacement of each table whose change set is known: from which version to
  /// which, and the changes.
  private var knownOriginalStep: (from: Int, to: Int, changes: TableChanges)?
  private var knownResultsStep: (from: Int, to: Int, changes: TableChanges)?
  /// The original table's changes from the model change under way.
  private var originalChangesOfCall: TableChanges?
  /// What was on screen at the last update.
  private var published: Published
  private struct Published {
    var table: TableKind
    var version: Int
    var snapshot: SectionedTable
    var state: ResultsTableState
    /// The request the rows answered, whose text and scope the update reported.
    var request: SearchStateMachine.Request
  }

  /// Creates a controller over a corpus.
  ///
  /// With a `backend`, searches that run in the background (``SearchConfiguration/Mode-swift.enum/background``,
  /// or any mode with a quiet interval) are answered by it, and model changes are made there
  /// before they are made in `corpus`, which must hold the same items under the same
  /// identities (the data set the backend was loaded from). Searches inside the call stay in
  /// memory.
  ///
  /// - Throws: ``TableError`` when the table options name a field or attribute the model does
  ///   not have, or ICU cannot open the locale's collation.
  public convenience init(
    corpus: SearchCorpus, placeholder: String = "",
    configuration: SearchConfiguration = SearchConfiguration(),
    tableOptions: TableOptions = TableOptions(),
    scheduler: any SearchScheduler = TaskSearchScheduler(),
    backend: (any SearchBackend)? = nil
  ) throws(TableError) {
    self.init(
      corpus: corpus, tables: try Tables(corpus: corpus, options: tableOptions),
      placeholder: placeholder, configuration: configuration, scheduler: scheduler,
      backend: backend)
  }

  /// Creates a controller over a corpus whose tables were built beforehand, off the main
  /// actor for a large model: this only installs them.
  init(
    corpus: SearchCorpus, tables: Tables, placeholder: String,
    configuration: SearchConfiguration, scheduler: any SearchScheduler,
    backend: (any SearchBackend)?
  ) {
    self.corpus = corpus
    self.tableOptions = tables.options
    self.scheduler = scheduler
    self.backend = backend
    originalLayout = tables.originalLayout
    resultsLayout = tables.resultsLayout
    originalTable = tables.originalTable
    resultsTable = tables.resultsTable
    machine = SearchStateMachine(
      bar: SearchBarState(placeholder: placeholder, scopeTitles: corpus.scopeBar.titles),
      configuration: configuration)
    published = Published(
      table: .original, version: 0, snapshot: originalTable, state: .hidden,
      request: machine.displayed)
  }

  /// A controller's two tables and how they are laid out: the costly part of making one
  /// (sorting and sectioning every item), so it can be done anywhere.
  struct Tables: Sendable {
    var options: TableOptions
    var originalLayout: TableLayout
    var resultsLayout: TableLayout
    var originalTable: SectionedTable
    var resultsTable: SectionedTable

    /// Lays out the whole model of `corpus` and an empty results table.
    ///
    /// - Throws: ``TableError`` when the options name a field or attribute the model does
    ///   not have, or ICU cannot open the locale's collation.
    init(corpus: SearchCorpus, options: TableOptions) throws(TableError) {
      try self.init(model: corpus.model, options: options)
    }

    /// Lays out the whole model and an empty results table: what ``init(corpus:options:)``
    /// does, without waiting for the corpus.
    init(model: Model, options: TableOptions) throws(TableError) {
      let collation: TableCollation
      do { collation = try TableCollation(locale: options.locale) } catch { throw .icu(error) }
      self.options = options
      originalLayout = TableLayout(
        sectioning: options.sectioning, rowOrder: options.rowOrder, collation: collation)
      resultsLayout =
        options.resultsUseOriginalSections
        ? originalLayout : TableLayout(sectioning: .none, rowOrder: .given, collation: collation)
      originalTable = try originalLayout.table(model.ids, of: model)
      resultsTable = try resultsLayout.table([], of: model)
    }
  }

  // MARK: State

  /// The search bar's hint while its text is empty ("Search 34,006 cities"): a front that
  /// shows a count sets it again when the count changes. It changes no state and fires no
  /// event.
  public var placeholder: String {
    get { machine.bar.placeholder }
    set { machine.bar.placeholder = newValue }
  }

  /// The search bar: text, placeholder, scope titles, selected scope, active.
  public var searchBar: SearchBarState { machine.bar }

  /// When searches run; changes apply from the next request.
  /// A change of ``SearchConfiguration/ranksResults`` re-orders the results on screen at once
  /// (an update with the cause ``SearchUpdate/Cause/orderChanged``); other changes apply
  /// from the next request.
  public var configuration: SearchConfiguration {
    get { machine.configuration }
    set {
      let reorders = newValue.ranksResults != machine.configuration.ranksResults
      machine.configuration = newValue
      if reorders { reorderResults() }
    }
  }

  /// Lays the displayed results out again in the order the configuration asks for.
  private func reorderResults() {
    guard let shown = results else { return }
    let items = machine.configuration.ranksResults ? corpus.ranked(shown) : shown.items
    // The same items as the table on screen, which was laid out with the same layout: it
    // cannot fail; if it did, the old order would stay.
    guard let table = try? resultsLayout.table(items, of: corpus.model) else { return }
    resultsTable = table
    cause = .orderChanged
    perform([])
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
  public func begin() { send(.begin, cause: .began) }

  /// Sets the text (a keystroke, a paste or code): text-did-change, then the reload decision.
  public func setText(_ text: String) { send(.setText(text), cause: .textChanged) }

  /// Selects a scope button: scope-did-change, then the reload decision.
  ///
  /// - Throws: ``SearchControllerError/noSuchScope(_:titles:)`` for an index outside the bar.
  public func selectScope(_ scope: Int) throws(SearchControllerError) {
    guard machine.bar.scopeTitles.indices.contains(scope) else {
      throw .noSuchScope(String(scope), titles: machine.bar.scopeTitles)
    }
    send(.selectScope(scope), cause: .scopeChanged)
  }

  /// Presses the search button; in the search-button-only mode this runs the search.
  public func clickSearchButton() { send(.searchButton, cause: .searchButton) }

  /// Presses cancel: the search ends, its running search is dropped, the text is cleared.
  public func cancel() { send(.cancel, cause: .ended) }

  /// Ends the search without the cancel button; the text stays.
  public func end() { send(.end, cause: .ended) }

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
    deliver()
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
  ///
  /// The change is made inside the call, on the main actor: its cost grows with the model.
  /// For large models, or many changes, use ``apply(_:)``.
  @discardableResult
  public func insert(_ record: ItemRecord, at position: Int? = nil) throws(CorpusError) -> ItemID {
    try install(prepare([.insert(record, at: position)])).inserted[0]
  }

  /// Replaces an item's content.
  public func update(_ id: ItemID, with record: ItemRecord) throws(CorpusError) {
    try install(prepare([.update(id, with: record)]))
  }

  /// Removes an item from the model and from both tables.
  public func remove(_ id: ItemID) throws(CorpusError) {
    try install(prepare([.remove(id)]))
  }

  /// Applies a batch of changes as one: they are prepared (folded, indexed, sectioned) off the
  /// main actor, then installed at once with one change set per table and one update. Batches
  /// are applied one after another, in the order of their calls.
  ///
  /// - Returns: The identities of the inserted items, in the order of their changes.
  /// - Throws: ``CorpusError`` when a change cannot be made (an unknown item, a record of the
  ///   wrong shape); then no change of the batch is made.
  @discardableResult
  public func apply(_ changes: [ModelChange]) async throws(CorpusError) -> [ItemID] {
    if isApplyingBatch {
      await withCheckedContinuation { batchWaiters.append($0) }
    }
    isApplyingBatch = true
    defer {
      if batchWaiters.isEmpty {
        isApplyingBatch = false
      } else {
        batchWaiters.removeFirst().resume()
      }
    }
    let clock = ContinuousClock()
    let start = clock.now
    // No local keeps the old model: the last reference to it must go off the main actor
    // (see `install`), and a local would drop it here when the call returns.
    let baseVersion = corpus.model.version
    let onMainActor = clock.now - start
    let shown = results.map {
      Shown(
        result: $0, table: resultsTable, version: versions.results,
        ranks: machine.configuration.ranksResults, layout: resultsLayout)
    }
    let outcome = await Self.prepareInBackground(
      changes, corpus: corpus, table: originalTable, shown: shown)
    var (prepared, refreshed) = try outcome.get()
    if let backend {
      // The backend first: a change it refuses is made nowhere.
      let sent = prepared.backendChanges(of: changes)
      backendIsAhead = true
      do { try await backend.apply(sent) } catch {
        backendIsAhead = false
        if let held = heldSearch.take() { perform(startInBackground(held)) }
        throw .backend(Self.backendError(error))
      }
    }
    defer {
      // The install restarts a held search, since the model it read has changed.
      backendIsAhead = false
      heldSearch = nil
    }
    let installing = clock.now
    if corpus.model.version != baseVersion {
      // A change made on the main actor while this batch was prepared: prepare it again on
      // the model as it is now.
      prepared = try prepare(changes)
      refreshed = nil
    }
    defer { lastApplyMainActorTime = onMainActor + (clock.now - installing) }
    preparedRefresh = refreshed
    defer { preparedRefresh = nil }
    return install(prepared).inserted
  }

  /// The results on screen when a change is sent off to be prepared.
  private struct Shown: Sendable {
    var result: SearchResult
    var table: SectionedTable
    var version: Int
    var ranks: Bool
    var layout: TableLayout
  }

  private nonisolated static func prepareInBackground(
    _ changes: [ModelChange], corpus: SearchCorpus, table: SectionedTable, shown: Shown?
  ) async -> Result<(PreparedChanges, RefreshedResults?), CorpusError> {
    await Task.detached {
      do throws(CorpusError) {
        let prepared = try PreparedChanges.prepare(changes, corpus: corpus, table: table)
        // The results on screen, refreshed here too: if they are still on screen when the
        // change is installed, the main actor only installs them.
        let refreshed = shown.map {
          RefreshedResults(
            shown: $0.result, table: $0.table, resultsVersion: $0.version,
            corpus: prepared.corpus, changed: prepared.touched, inserted: Set(prepared.inserted),
            ranks: $0.ranks, layout: $0.layout)
        }
        return .success((prepared, refreshed))
      } catch { return .failure(error) }
    }.value
  }

  /// The refreshed results of the change being installed, worked out with it.
  private var preparedRefresh: RefreshedResults?

  /// How long the last ``apply(_:)`` held the main actor: capturing the model, installing the
  /// prepared change and delivering its events (what `bench --suite changes` reports).
  package private(set) var lastApplyMainActorTime = Duration.zero

  private var isApplyingBatch = false
  private var batchWaiters: [CheckedContinuation<Void, Never>] = []

  private func prepare(_ changes: [ModelChange]) throws(CorpusError) -> PreparedChanges {
    if backend != nil { throw .backend(Self.needsApply) }
    return try PreparedChanges.prepare(changes, corpus: corpus, table: originalTable)
  }

  private static let needsApply = SearchBackendError(
    .rejected, "a change to a controller with a backend must reach the backend first",
    advice: "use apply(_:), which waits for it")

  nonisolated static func backendError(_ error: any Error) -> SearchBackendError {
    if let error = error as? SearchBackendError { return error }
    return SearchBackendError(
      .rejected, "the backend failed: \(error)", advice: "see its documentation")
  }

  /// Installs prepared changes: every table is brought up to date before any event of the
  /// change is delivered, so that observers see one consistent world.
  @discardableResult
  private func install(_ prepared: PreparedChanges) -> PreparedChanges {
    // What the change replaces is freed off the main actor: a model's worth of columns and
    // tables takes milliseconds to give back.
    let retired = (corpus, originalTable, resultsTable, published.snapshot)
    defer { Task.detached { withExtendedLifetime(retired) {} } }
    corpus = prepared.corpus
    let oldVersion = versions.original
    originalTable = prepared.table
    knownOriginalStep = (oldVersion, versions.original, prepared.changes)
    originalChangesOfCall = prepared.changes
    for event in prepared.events { emit(event) }
    emit(.originalDidChange(prepared.changes))
    changedItems = prepared.touched
    insertedItems = Set(prepared.inserted)
    send(.modelChanged, cause: .modelChanged)
    changedItems = []
    insertedItems = []
    return prepared
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

  /// The driver's state in one line, for a test that reports a controller which never comes
  /// to rest.
  package var diagnosticDescription: String {
    "pending \(machine.pending.map { "\($0)" } ?? "none"), generation \(machine.generation), "
      + "searches in flight \(searchesInFlight), held \(heldSearch.map { "#\($0.generation)" } ?? "none"), "
      + "backend ahead \(backendIsAhead), applying a batch \(isApplyingBatch), "
      + "active \(machine.bar.isActive)"
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

  private func send(_ input: SearchStateMachine.Input, cause: SearchUpdate.Cause) {
    self.cause = cause
    perform(machine.handle(input))
  }

  /// Performs actions in order; an action that feeds an input back performs the resulting
  /// actions before the rest. Events wait until the actions are done (or the delegate is
  /// asked a question), then go out with the update they make, if any.
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
        deliver()  // the delegate hears of the change before it is asked about it
        next = machine.handle(.delegateAnswered(answer(trigger)))
      case .searchNow(let request):
        let outcome = search(request, isCancelled: { false })
        next = finish(request.generation, outcome)
      case .searchInBackground(let request):
        next = startInBackground(request)
      case .cancelSearch(let generation):
        // The newest generation moved: an in-memory search stops at its next chunk, a
        // backend's request is cancelled.
        backendSearches.cancel(generation)
        if heldSearch?.generation == generation { heldSearch = nil }
      case .scheduleQuietInterval(let generation, let delay):
        scheduler.schedule(after: delay) { [weak self] in
          self?.send(.quietIntervalElapsed(generation: generation), cause: .searchFinished)
        }
      case .install(let generation):
        if let outcome = finished.removeValue(forKey: generation) {
          results = outcome.result
          let oldVersion = versions.results
          resultsTable = outcome.table
          if let known = outcome.changes, known.from == oldVersion {
            knownResultsStep = (oldVersion, versions.results, known.changes)
          }
          filter.record(outcome.result, itemBudget: IncrementalFilter.itemBudget(of: corpus))
        }
      case .discard(let generation):
        finished[generation] = nil
        discardedSearches += 1
      case .clearResults:
        results = nil
        if resultsTable.numberOfRows > 0 || resultsTable.numberOfSections != 1 {
          let old = resultsTable
          let oldVersion = versions.results
          resultsTable = emptyResultsTable()
          knownResultsStep = (oldVersion, versions.results, TableChanges.emptying(old))
        }
      case .refreshResults(let generation):
        let rows = refreshResults()
        next = machine.handle(.resultsRefreshed(generation: generation, rows: rows))
        if let changes = pendingResultsChanges {
          pendingResultsChanges = nil
          emit(.resultsDidChange(changes, generation: generation))
        }
      }
      newestGeneration.store(machine.generation)
      queue.insert(contentsOf: next, at: 0)
    }
    publish()
    deliver()
    if isIdle && !idleWaiters.isEmpty {
      let waiters = idleWaiters
      idleWaiters = []
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Adds an update to the events of the call when what is on screen changed since the last
  /// one: the rows, the state, or the text or scope they answer (below the minimum length,
  /// "a" then "b" leaves the rows and the hint as they were, but not the text).
  private func publish() {
    defer {
      cause = nil
      originalChangesOfCall = nil
    }
    let kind = visibleTable
    let version = kind == .original ? versions.original : versions.results
    let state = machine.state
    let request = machine.displayed
    guard
      kind != published.table || version != published.version || state != published.state
        || request.text != published.request.text || request.scope != published.request.scope
    else { return }
    let table = self.table(kind)
    let diff: SearchUpdate.Diff
    let known = kind == .original ? knownOriginalStep : knownResultsStep
    if kind == published.table && version == published.version {
      diff = SearchUpdate.Diff(TableChanges())
    } else if kind == published.table, let known, known.from == published.version,
      known.to == version
    {
      diff = SearchUpdate.Diff(known.changes)
    } else {
      diff = SearchUpdate.Diff(from: published.snapshot, to: table)
    }
    // The machine's displayed request names the rows: a generation labels one set of rows.
    let update = SearchUpdate(
      cause: cause ?? .searchFinished, generation: request.generation, text: request.text,
      scope: request.scope, state: state, table: kind, previousTable: published.table,
      originalChanges: originalChangesOfCall, changes: diff)
    published = Published(
      table: kind, version: version, snapshot: table, state: state, request: request)
    emit(.update(update))
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

  /// Queues an event of the call under way; ``deliver()`` sends it.
  private func emit(_ event: SearchEvent) {
    pendingEvents.append(event)
  }

  /// Sends the queued events in order. An observer that changes the controller while it
  /// hears of an event queues that call's events behind the rest, so the order holds.
  private func deliver() {
    guard !isDelivering else { return }
    isDelivering = true
    defer { isDelivering = false }
    var next = 0
    while next < pendingEvents.count {
      let event = pendingEvents[next]
      next += 1
      delegate?.receive(event, from: self)
      observers.send(event)
    }
    pendingEvents.removeAll()
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
      // A superseded search's failure is dropped with it: the newest one reports its own.
      if generation == machine.generation { emit(.error(failure.message)) }
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
    /// The changes from the results table of version `from` to ``table``, worked out where
    /// the search ran, so that the main actor does not diff the tables when it installs them.
    var changes: (from: Int, changes: TableChanges)?
  }

  struct SearchFailure: Error {
    var message: String
  }

  /// What a search needs, captured on the main actor so that it can run anywhere.
  struct Job: Sendable {
    var request: SearchStateMachine.Request
    var query: Query
    var plan: IncrementalFilter.Plan
    var corpus: SearchCorpus
    var ranks: Bool
    var layout: TableLayout
    /// The original table of the same model when the results take its layout and order:
    /// the results table is then the original with only the results' rows, which costs a
    /// pass over the rows instead of sorting the results again.
    var original: SectionedTable?
    /// The results table the search replaces and its version, for a search that runs in the
    /// background: the change set is worked out there too.
    var replaces: (version: Int, table: SectionedTable)?

    func run(isCancelled: @Sendable () -> Bool) -> Result<Outcome, SearchFailure>? {
      guard
        let result = IncrementalFilter.run(
          plan, query: query, scope: request.scope, in: corpus, isCancelled: isCancelled)
      else { return nil }
      return outcome(result)
    }

    /// The outcome of a backend's answer: its items, checked against the corpus and put in
    /// model order.
    func outcome(backendItems: [ItemID]) -> Result<Outcome, SearchFailure> {
      var items = backendItems
      if let unknown = items.first(where: { !corpus.model.contains($0) }) {
        return .failure(
          SearchFailure(
            message: SearchBackendError(
              .mismatch,
              "the backend answered with item \(unknown.rawValue), which the list does not have",
              advice: "load the same data set into the backend again"
            ).description))
      }
      corpus.sortedByPosition(&items)
      let result = SearchResult(
        query: query, scope: request.scope, items: items, path: .backend,
        modelVersion: corpus.model.version)
      return outcome(result)
    }

    private func outcome(_ result: SearchResult) -> Result<Outcome, SearchFailure> {
      let items = ranks ? corpus.ranked(result) : result.items
      let table: SectionedTable
      // Sorting costs a collation key per row; filtering the original costs a look at each of
      // its rows: worth it unless the results are a small part of the model.
      if let original, !ranks, items.count * 256 > corpus.model.count {
        table = original.keeping(items, identityLimit: corpus.model.identityLimit)
      } else {
        do { table = try layout.table(items, of: corpus.model) } catch {
          return .failure(SearchFailure(message: error.description))
        }
      }
      let changes = replaces.map { ($0.version, TableChanges(from: $0.table, to: table)) }
      return .success(Outcome(result: result, table: table, changes: changes))
    }
  }

  private func job(for request: SearchStateMachine.Request) -> Result<Job, SearchFailure> {
    let query: Query
    do { query = try configuration.query(request.text, normalizer: corpus.normalizer) } catch {
      return .failure(SearchFailure(message: error.description))
    }
    return .success(
      Job(
        request: request, query: query,
        plan: filter.plan(query, scope: request.scope, corpus: corpus), corpus: corpus,
        ranks: machine.configuration.ranksResults, layout: resultsLayout,
        original: resultsLayout == originalLayout ? originalTable : nil))
  }

  private func search(_ request: SearchStateMachine.Request, isCancelled: @Sendable () -> Bool)
    -> Result<Outcome, SearchFailure>?
  {
    switch job(for: request) {
    case .success(let job): return job.run(isCancelled: isCancelled)
    case .failure(let failure): return .failure(failure)
    }
  }

  /// Starts a background search; returns the actions of its end when it cannot start.
  private func startInBackground(_ request: SearchStateMachine.Request)
    -> [SearchStateMachine.Action]
  {
    var prepared: Job
    switch self.job(for: request) {
    case .success(let value): prepared = value
    case .failure(let failure): return finish(request.generation, .failure(failure))
    }
    prepared.replaces = (versions.results, resultsTable)
    let job = prepared
    let newest = newestGeneration
    let generation = request.generation
    searchesInFlight += 1
    if let backend {
      let searches = backendSearches
      scheduler.runTask {
        await searches.run(job, generation: generation, newest: newest, backend: backend)
      } then: { [weak self] outcome in
        guard let self else { return }
        self.searchesInFlight -= 1
        if self.backendIsAhead, outcome != nil, generation == self.machine.generation {
          // The server may already hold the batch being applied: its answer can name items
          // the list does not have yet. Wait for the batch.
          self.heldSearch = request
          return
        }
        self.cause = .searchFinished
        self.perform(self.finish(generation, outcome))
      }
      return []
    }
    scheduler.runInBackground {
      job.run { newest.load() != generation }
    } then: { [weak self] outcome in
      guard let self else { return }
      self.searchesInFlight -= 1
      self.cause = .searchFinished
      self.perform(self.finish(generation, outcome))
    }
    return []
  }

  private func emptyResultsTable() -> SectionedTable {
    // An empty flat table needs no name and no collator: it cannot fail.
    (try? resultsLayout.table([], of: corpus.model)) ?? resultsTable
  }

  /// Brings the displayed results up to date after a model change by checking only the
  /// changed items; returns the new row count and leaves the table's changes for the event.
  /// The work was done off the main actor with the change, unless the results on screen
  /// changed meanwhile.
  private func refreshResults() -> Int {
    guard let shown = results else { return 0 }
    let refreshed: RefreshedResults
    if let prepared = preparedRefresh, prepared.resultsVersion == versions.results {
      refreshed = prepared
    } else {
      refreshed = RefreshedResults(
        shown: shown, table: resultsTable, resultsVersion: versions.results, corpus: corpus,
        changed: changedItems, inserted: insertedItems,
        ranks: machine.configuration.ranksResults, layout: resultsLayout)
    }
    if let error = refreshed.error { emit(.error(error)) }
    let oldVersion = versions.results
    if let table = refreshed.table { resultsTable = table }
    results = refreshed.result
    filter.record(refreshed.result, itemBudget: IncrementalFilter.itemBudget(of: corpus))
    knownResultsStep = (oldVersion, versions.results, refreshed.changes)
    pendingResultsChanges = refreshed.changes
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

  init(
    shown: SearchResult, table old: SectionedTable, resultsVersion: Int, corpus: SearchCorpus,
    changed changedItems: [ItemID], inserted insertedItems: Set<ItemID>, ranks: Bool,
    layout: TableLayout
  ) {
    self.resultsVersion = resultsVersion
    let changed = Set(changedItems)
    let evaluator = QueryEvaluator(corpus: corpus, query: shown.query, scope: shown.scope)
    // Only items that were in the model may have been shown: a change that only inserts
    // needs no lookup in the table.
    let wasShown = Set(
      changedItems.filter { !insertedItems.contains($0) && old.indexPath(of: $0) != nil })
    let admitted = changedItems.filter { corpus.model.contains($0) && evaluator.admits($0) }
      .sorted(by: corpus.precedes)
    let admittedSet = Set(admitted)
    // Model order: the untouched results keep theirs, the admitted items merge in.
    var items: [ItemID] = []
    items.reserveCapacity(shown.items.count + admitted.count)
    var next = 0
    // A change touches a few items of many results: a short list beats hashing every row.
    let few = changedItems.count <= 16
    for id in shown.items where few ? !changedItems.contains(id) : !changed.contains(id) {
      while next < admitted.count && corpus.precedes(admitted[next], id) {
        items.append(admitted[next])
        next += 1
      }
      items.append(id)
    }
    items += admitted[next...]
    result = SearchResult(
      query: shown.query, scope: shown.scope, items: items, path: .refreshed,
      modelVersion: corpus.model.version)
    changes = TableChanges()
    do throws(TableError) {
      if ranks {
        // A change can move any ranked row: rebuild, then compare.
        let table = try layout.table(corpus.ranked(result), of: corpus.model)
        self.table = table
        changes = TableChanges(from: old, to: table, updated: wasShown.intersection(admittedSet))
      } else {
        let edit = TableEdit(
          removed: wasShown.subtracting(admittedSet),
          inserted: admitted.filter { !wasShown.contains($0) },
          updated: wasShown.intersection(admittedSet))
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
}

/// How a table is built from a list of items: its sectioning, row order and collation.
struct TableLayout: Hashable, Sendable {
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

/// The backend searches under way, by generation: a superseded one is cancelled, so that its
/// request stops on the server too.
final class BackendSearches: Sendable {
  /// The tasks by generation, kept by an actor: a lock the thread sanitizer can see.
  private actor Registry {
    var tasks: [Int: Task<[ItemID], any Error>] = [:]
    func add(_ generation: Int, _ task: Task<[ItemID], any Error>) { tasks[generation] = task }
    func remove(_ generation: Int) { tasks[generation] = nil }
    func cancel(_ generation: Int) { tasks[generation]?.cancel() }
  }

  private let registry = Registry()

  /// Runs a job's search on the backend; nil when it was superseded or cancelled.
  func run(
    _ job: SearchController.Job, generation: Int, newest: GenerationCounter,
    backend: any SearchBackend
  ) async -> Result<SearchController.Outcome, SearchController.SearchFailure>? {
    guard newest.load() == generation else { return nil }
    let query = job.query
    let scope = job.request.scope
    let task = Task { try await backend.items(matching: query, scope: scope) }
    await registry.add(generation, task)
    // A cancellation that came before the task was registered.
    if newest.load() != generation { task.cancel() }
    let outcome: Result<[ItemID], any Error>
    do { outcome = .success(try await task.value) } catch { outcome = .failure(error) }
    await registry.remove(generation)
    let items: [ItemID]
    switch outcome {
    case .success(let value): items = value
    case .failure(let error):
      if newest.load() != generation || error is CancellationError { return nil }
      return .failure(
        SearchController.SearchFailure(
          message: SearchController.backendError(error).description))
    }
    guard newest.load() == generation else { return nil }
    return job.outcome(backendItems: items)
  }

  /// Cancels the search of a generation, if it runs.
  func cancel(_ generation: Int) {
    let registry = self.registry
    Task { await registry.cancel(generation) }
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
