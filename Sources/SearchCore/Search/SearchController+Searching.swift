// Searching: a search's job, run inside the call or in the background (in memory or on the
// backend), and its outcome handed back to the state machine.

import SearchEngine
import Synchronization

extension SearchController {
  // MARK: Searching

  /// A finished search: its result and the results table made of it.
  struct Outcome: Sendable {
    var result: SearchResult
    var table: SectionedTable
    /// The completions of the request's text, when asked for and the index was ready.
    var completions: [SearchQuery.Completion] = []
    /// The changes from the results table of version `from` to ``table``, worked out where
    /// the search ran, so that the main actor does not diff the tables when it installs them.
    var changes: (from: Int, changes: TableChanges)?
    /// Whether ``table`` is ranked: a search that started before
    /// ``SearchConfiguration/ranksResults`` changed has the old order.
    var ranks = false
  }

  struct SearchFailure: Swift.Error {
    var message: String
  }

  /// What a search needs, captured on the main actor so that it can run anywhere.
  struct Job: Sendable {
    var request: SearchStateMachine.Request
    var query: SearchQuery
    var plan: IncrementalFilter.Plan
    var corpus: SearchCorpus
    var ranks: Bool
    /// Whether the search counts every scope's results too.
    var countsScopes: Bool
    /// How many completions to offer (0: none); asked only of a built completion index.
    var completionLimit = 0
    var layout: TableLayout
    /// The original table of the same model when the results take its layout and order:
    /// the results table is then the original with only the results' rows, which costs a
    /// pass over the rows instead of sorting the results again.
    var original: SectionedTable?
    /// The results table the search replaces and its version, for a search that runs in the
    /// background: the change set is worked out there too.
    var replaces: (version: Int, table: SectionedTable)?
    /// For a backend: how many rows to ask for (its first page and the rows loaded since);
    /// nil asks for every result.
    var backendLimit: Int?
    /// Where finished searches in memory are shared with other controllers, and this one's
    /// name there.
    var shared: (results: SharedSearchResults, key: SharedSearchResults.Key)?

    /// Runs the search where it is called (the main actor's search "now"): a search another
    /// controller runs is run here too, as the main actor waits for no other thread.
    func run(isCancelled: @Sendable () -> Bool) -> Result<Outcome, SearchFailure>? {
      guard let shared else { return search(isCancelled: isCancelled) }
      switch shared.results.take(shared.key) {
      case .kept(let outcome): return .success(adopting(outcome))
      case .wait: return search(isCancelled: isCancelled)
      case .run(let flight): return run(owning: flight, in: shared, isCancelled: isCancelled)
      }
    }

    /// Runs the search in the background, sharing it: a search another controller runs is
    /// waited for holding no thread, and the search itself runs on a Dispatch thread.
    func runSharing(isCancelled: @escaping @Sendable () -> Bool) async
      -> Result<Outcome, SearchFailure>?
    {
      guard let shared else { return await BackgroundWork.run { search(isCancelled: isCancelled) } }
      while true {
        switch shared.results.take(shared.key) {
        case .kept(let outcome):
          guard replaces != nil else { return .success(adopting(outcome)) }
          return await BackgroundWork.run { .success(adopting(outcome)) }
        case .run(let flight):
          return await BackgroundWork.run {
            run(owning: flight, in: shared, isCancelled: isCancelled)
          }
        case .wait(let flight):
          guard !isCancelled() else { return nil }
          await flight.ended()
          // Kept by now, or not (cancelled, or not to keep): looked up again.
          guard !isCancelled() else { return nil }
        }
      }
    }

    /// A search kept by another controller, with this one's change set.
    private func adopting(_ kept: Outcome) -> Outcome {
      var outcome = kept
      outcome.changes = replaces.map {
        ($0.version, TableChanges(from: $0.table, to: outcome.table))
      }
      return outcome
    }

    /// Runs the search that ``SharedSearchResults/take(_:)`` gave this controller, keeping its
    /// outcome when it offers every completion it can (an index still being built offers
    /// none).
    private func run(
      owning flight: SharedSearchResults.Flight,
      in shared: (results: SharedSearchResults, key: SharedSearchResults.Key),
      isCancelled: @Sendable () -> Bool
    ) -> Result<Outcome, SearchFailure>? {
      let outcome = search(isCancelled: isCancelled)
      var kept: Outcome?
      if case .success(let finished) = outcome,
        completionLimit == 0 || corpus.completionsAreBuilt
      {
        kept = finished
      }
      shared.results.finish(flight, for: shared.key, with: kept)
      return outcome
    }

    private func search(isCancelled: @Sendable () -> Bool) -> Result<Outcome, SearchFailure>? {
      let found: SearchResult?
      do {
        found = try IncrementalFilter.run(
          plan, query: query, scope: request.scope, filter: request.filter,
          countingScopes: countsScopes, in: corpus, isCancelled: isCancelled)
      } catch { return .failure(SearchFailure(message: error.description)) }
      guard let result = found else { return nil }
      return outcome(result)
    }

    /// The outcome of a backend's answer: its items, checked against the corpus and put in
    /// model order.
    func outcome(backendItems: [ItemID], partialCount: ResultCount? = nil)
      -> Result<Outcome, SearchFailure>
    {
      var items = backendItems
      if let unknown = items.first(where: { !corpus.model.contains($0) }) {
        return .failure(SearchFailure(message: SearchBackendError.unknownItem(unknown).description))
      }
      corpus.sortedByPosition(&items)
      let result = SearchResult(
        query: query, scope: request.scope, items: items, path: .backend,
        modelVersion: corpus.model.version,
        partialCount: partialCount.map { .init(atLeast: items.count + 1, $0) })
      return outcome(result)
    }

    private func outcome(_ result: SearchResult) -> Result<Outcome, SearchFailure> {
      let table: SectionedTable
      do {
        table = try layout.resultsTable(result, corpus: corpus, ranks: ranks, original: original)
      } catch { return .failure(SearchFailure(message: error.description)) }
      let changes = replaces.map { ($0.version, TableChanges(from: $0.table, to: table)) }
      return .success(
        Outcome(
          result: result, table: table, completions: completions(), changes: changes, ranks: ranks))
    }

    /// The completions of the text in the scope and among the items the tokens admit.
    private func completions() -> [SearchQuery.Completion] {
      guard completionLimit > 0, corpus.completionsAreBuilt else { return [] }
      let filter = (try? corpus.compile(request.filter)) ?? nil
      return corpus.completions(
        for: request.text, admitted: corpus.admittedItems(scope: request.scope, filter: filter),
        limit: completionLimit)
    }
  }

  private func job(for request: SearchStateMachine.Request) -> Result<Job, SearchFailure> {
    let query: SearchQuery
    do {
      query = try configuration.query(
        request.text, normalizer: corpus.normalizer, onBackend: backend != nil)
    } catch {
      return .failure(SearchFailure(message: error.description))
    }
    if backend != nil && !request.filter.isEmpty {
      return .failure(SearchFailure(message: Self.filterOnBackend.description))
    }
    let counts = machine.configuration.countsScopes && backend == nil
    let completionLimit = backend == nil ? machine.configuration.completionLimit : 0
    if completionLimit > 0 { buildCompletionsInBackground() }
    var job = Job(
      request: request, query: query,
      plan: filter.plan(
        query, scope: request.scope, filter: request.filter, countingScopes: counts,
        corpus: corpus),
      corpus: corpus, ranks: machine.configuration.ranksResults, countsScopes: counts,
      completionLimit: completionLimit, layout: resultsLayout,
      original: tables.resultsTakeOriginalLayout ? originalTable : nil)
    if let sharedResults, backend == nil {
      job.shared = (
        sharedResults,
        SharedSearchResults.Key(
          text: request.text, scope: request.scope, filter: request.filter,
          configuration: machine.configuration, countsScopes: counts,
          completionLimit: completionLimit, layout: resultsLayout,
          modelVersion: corpus.model.version)
      )
    }
    return .success(job)
  }

  /// Builds the corpus's completion index off the main actor, once for each corpus that
  /// lacks one: searches offer completions once it is ready.
  private func buildCompletionsInBackground() {
    guard !corpus.completionsAreBuilt,
      indexBuilds.startCompletions(forModelVersion: corpus.model.version)
    else { return }
    let corpus = self.corpus
    BackgroundWork.start(.utility) { corpus.buildCompletions() }
  }

  /// Builds the corpus's word index off the main actor when searches may match with typos, so
  /// that the first word long enough for a typo does not wait for it: once for each corpus
  /// that lacks one (a corpus changed since keeps the index up to date).
  func buildWordIndexInBackground() {
    let configuration = machine.configuration
    guard backend == nil, configuration.querySyntax == .words, configuration.typos.isOn,
      !corpus.wordIndexIsBuilt, indexBuilds.startWordIndex(forModelVersion: corpus.model.version)
    else { return }
    let corpus = self.corpus
    BackgroundWork.start(.utility) { corpus.prepareWordIndex() }
  }

  private static let filterOnBackend = SearchBackendError(
    .rejected, "a search on a backend takes no tokens (attribute conditions) yet",
    advice: "search with tokens in memory, or remove the tokens")

  func search(_ request: SearchStateMachine.Request, isCancelled: @Sendable () -> Bool)
    -> Result<Outcome, SearchFailure>?
  {
    switch job(for: request) {
    case .success(let job): return job.run(isCancelled: isCancelled)
    case .failure(let failure): return .failure(failure)
    }
  }

  /// Starts a background search; returns the actions of its end when it cannot start.
  func startInBackground(_ request: SearchStateMachine.Request)
    -> [SearchStateMachine.Action]
  {
    var prepared: Job
    switch self.job(for: request) {
    case .success(let value): prepared = value
    case .failure(let failure): return finish(request.generation, .failure(failure))
    }
    if machine.configuration.precomputesChanges {
      prepared.replaces = (tables.resultsVersion, resultsTable)
    }
    prepared.backendLimit = backendLimit(for: request)
    let job = prepared
    let newest = runs.newestGeneration
    let generation = request.generation
    runs.started()
    if let backend {
      let searches = runs.backendSearches
      scheduler.runTask {
        await searches.run(job, generation: generation, newest: newest, backend: backend)
      } then: { [weak self] outcome in
        guard let self else { return }
        self.runs.returned()
        // The server may already hold the batch being applied: its answer can name items
        // the list does not have yet. Wait for the batch.
        if outcome != nil, generation == self.machine.generation,
          self.batching.holdIfBackendIsAhead(request)
        {
          return
        }
        self.delivery.noteCause(.searchFinished)
        self.perform(self.finish(generation, outcome))
      }
      return []
    }
    let finished: @MainActor @Sendable (Result<Outcome, SearchFailure>?) -> Void = {
      [weak self] outcome in
      guard let self else { return }
      self.runs.returned()
      self.delivery.noteCause(.searchFinished)
      self.perform(self.finish(generation, outcome))
    }
    let isCancelled: @Sendable () -> Bool = { newest.load() != generation }
    if job.shared != nil {
      // A search shared with other controllers may wait for theirs: in a task, not on a thread.
      scheduler.runTask({ await job.runSharing(isCancelled: isCancelled) }, then: finished)
    } else {
      scheduler.runInBackground({ job.run(isCancelled: isCancelled) }, then: finished)
    }
    return []
  }

  /// How many rows a background search on the backend asks for: nil (all) without a page
  /// size or when ranking; a page, or as many as the displayed results of the same query
  /// already show (a search restarted by a model change), or one page more than they show
  /// (``loadMoreResults()``).
  private func backendLimit(for request: SearchStateMachine.Request) -> Int? {
    guard backend != nil, let page = machine.configuration.backendPageSize,
      !machine.configuration.ranksResults
    else { return nil }
    if let more = runs.moreRows(for: request.generation) { return more }
    let displayed = machine.displayed
    if let shown = results, !shown.isComplete, displayed.text == request.text,
      displayed.scope == request.scope
    {
      return max(page, shown.items.count)
    }
    return page
  }

  // MARK: Finished searches

  func finish(_ generation: Int, _ outcome: Result<Outcome, SearchFailure>?)
    -> [SearchStateMachine.Action]
  {
    var rows: Int?
    switch outcome {
    case .success(let value)?:
      runs.keep(value, of: generation)
      rows = value.table.numberOfRows
    case .failure(let failure)?:
      // A superseded search's failure is dropped with it: the newest one reports its own.
      if generation == machine.generation { emit(.error(failure.message)) }
    case nil:
      break
    }
    return machine.handle(.searchFinished(generation: generation, rows: rows))
  }
}

/// The backend searches under way, by generation: a superseded one is cancelled, so that its
/// request stops on the server too.
final class BackendSearches: Sendable {
  /// The tasks by generation, kept by an actor: a lock the thread sanitizer can see.
  private actor Registry {
    var tasks: [Int: Task<BackendPrefix, any Swift.Error>] = [:]
    func add(_ generation: Int, _ task: Task<BackendPrefix, any Swift.Error>) {
      tasks[generation] = task
    }
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
    let limit = job.backendLimit
    let task = Task { () async throws -> BackendPrefix in
      if let limit { return try await backend.prefix(matching: query, scope: scope, limit: limit) }
      let items = try await backend.items(matching: query, scope: scope)
      return BackendPrefix(items: items, isComplete: true, count: .exact(items.count))
    }
    await registry.add(generation, task)
    // A cancellation that came before the task was registered.
    if newest.load() != generation { task.cancel() }
    let outcome: Result<BackendPrefix, any Swift.Error>
    do { outcome = .success(try await task.value) } catch { outcome = .failure(error) }
    await registry.remove(generation)
    let answer: BackendPrefix
    switch outcome {
    case .success(let value): answer = value
    case .failure(let error):
      if newest.load() != generation || error is CancellationError { return nil }
      return .failure(
        SearchController.SearchFailure(
          message: SearchBackendError.wrapping(error).description))
    }
    guard newest.load() == generation else { return nil }
    return job.outcome(
      backendItems: answer.items, partialCount: answer.isComplete ? nil : answer.count)
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

extension TableLayout {
  /// The results table of `result`: its items ranked, or in model order with, in each
  /// section, the items found with typos after those that contain every word exactly.
  ///
  /// `original` is the table of the whole model with this layout, when there is one:
  /// keeping its rows costs a look at each of them, sorting the results a collation key per
  /// row, so it serves unless the results are a small part of the model.
  func resultsTable(
    _ result: SearchResult, corpus: SearchCorpus, ranks: Bool, original: SectionedTable? = nil
  ) throws(SectionedTable.Error) -> SectionedTable {
    if ranks { return try table(corpus.ranked(result), of: corpus.model) }
    let table: SectionedTable
    if let original, result.items.count * 256 > corpus.model.count {
      table = original.keeping(result.items, identityLimit: corpus.model.identityLimit)
    } else {
      table = try self.table(result.items, of: corpus.model)
    }
    return table.exactFirst(
      typos: corpus.typoCounts(of: result), identityLimit: corpus.model.identityLimit)
  }
}
