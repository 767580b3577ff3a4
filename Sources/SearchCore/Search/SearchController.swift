import SearchEngine

// SearchController's stored state, its initialisers and how its tables are laid out. The rest
// lives in extensions, one concern a file:
// - SearchController+State.swift: what a front reads (the bar, configuration, state, tables);
// - SearchController+SearchBar.swift: the bar's inputs and the delegate's reload decisions;
// - SearchController+Rows.swift: selecting and deleting a row;
// - SearchController+ModelChanges.swift: model changes, batches, refreshing the results;
// - SearchController+Searching.swift: search jobs, in the call or in the background;
// - SearchController+Driver.swift: the state machine's actions, performed in order;
// - SearchController+Updates.swift: updates and the delivery of events;
// - SearchController+Observation.swift: observers, the event stream, waiting until idle.
// The errors are SearchController.Error.swift's.

/// UIKit's `UISearchDisplayController` without UIKit: a search bar, two tables over one model
/// (the original and the results), a delegate that decides when to reload, and background
/// search whose stale results are never shown.
///
/// The decisions are made by a pure state machine (`SearchStateMachine`); this class is its
/// driver: it asks the delegate, runs searches (inside the call or through the
/// ``SearchScheduler``), keeps the tables, and tells observers (``observe(_:)``, ``events()``) and the delegate what happened.
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
    public var sectioning: SectionedTable.Sectioning
    /// How rows are ordered inside each section of the original table.
    public var rowOrder: SectionedTable.RowOrder
    /// Whether the results table has the original's sections; false gives one flat section
    /// in the results' order, as UIKit's results table does by default.
    public var resultsUseOriginalSections: Bool
    /// The locale whose collation orders sections and rows ("es", "sv", "de"; "" for the
    /// root collation).
    public var locale: String

    /// Creates table options; the defaults are one flat section in model order.
    public init(
      sectioning: SectionedTable.Sectioning = .none, rowOrder: SectionedTable.RowOrder = .given,
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
  public internal(set) var corpus: SearchCorpus
  /// The table of the whole model.
  public internal(set) var originalTable: SectionedTable {
    didSet { versions.original += 1 }
  }
  /// The table of the current results (empty while none are shown).
  public internal(set) var resultsTable: SectionedTable {
    didSet { versions.results += 1 }
  }
  /// The results in the results table: nil while none are shown.
  public internal(set) var results: SearchResult?
  /// With ``SearchConfiguration/completionLimit``: the completions of the text of the
  /// results shown, in their scope and among the items their tokens admit, best first;
  /// empty while no results are shown.
  public internal(set) var completions: [SearchQuery.Completion] = []
  /// How the tables are sectioned and ordered.
  public let tableOptions: TableOptions
  /// Where background searches are answered and model changes are made first; nil searches
  /// the corpus in memory.
  public let backend: (any SearchBackend)?

  /// How many finished searches were dropped because a newer request came first.
  public internal(set) var discardedSearches = 0

  // The state below is internal, not private, only because the extensions in the
  // SearchController+*.swift files read and change it; nothing outside this type uses it. The
  // same goes for the setters above: internal(set) so that those extensions can set them.

  var machine: SearchStateMachine
  var filter = IncrementalFilter()
  let scheduler: any SearchScheduler
  /// How the original table and the results table are built from a list of items.
  let originalLayout: TableLayout
  let resultsLayout: TableLayout
  let observers = EventObservers()
  /// The newest generation, readable by background searches so that a superseded one stops
  /// between chunks.
  let newestGeneration = GenerationCounter()
  /// Finished searches waiting for the machine to install or discard them.
  var finished: [Int: Outcome] = [:]
  /// The model version whose completion index a background task builds.
  var completionBuild: Int?
  /// The model version whose word index (for typos) a background task builds.
  var wordIndexBuild: Int?
  /// What the model change being installed touched, for re-evaluating the displayed results.
  var modelChange = ChangedItems()
  var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// Background searches started and not yet back, superseded ones included.
  var searchesInFlight = 0
  /// The backend searches under way, to cancel when they are superseded.
  let backendSearches = BackendSearches()
  /// Whether the backend may hold a batch that the model has not installed yet: from the
  /// moment ``apply(_:)`` sends it until it is installed or refused.
  var backendIsAhead = false
  /// The newest background search, answered while the backend was ahead of the model: its
  /// items may not be in the list yet.
  ///
  /// The batch's install runs it again on the new model; a refused batch runs it again on the old
  /// one.
  var heldSearch: SearchStateMachine.Request?
  /// The search ``loadMoreResults()`` started, and how many rows it asks for.
  var loadingMore: (generation: Int, limit: Int)?

  // MARK: Delivery state
  /// Events of the call under way, delivered when its changes are complete.
  var pendingEvents: [SearchEvent] = []
  var isDelivering = false
  /// What started the call under way, for its update.
  var cause: SearchController.Update.Cause?
  /// Counts the replacements of each table.
  var versions = (original: 0, results: 0)
  /// The last replacement of each table whose change set is known: from which version to
  /// which, and the changes.
  var knownOriginalStep: (from: Int, to: Int, changes: TableChanges)?
  var knownResultsStep: (from: Int, to: Int, changes: TableChanges)?
  /// The original table's changes from the model change under way.
  var originalChangesOfCall: TableChanges?
  /// The results table's changes from the refresh under way, for its event.
  var pendingResultsChanges: TableChanges?
  /// What was on screen at the last update.
  var published: Published
  struct Published {
    var table: SearchController.TableKind
    var version: Int
    var snapshot: SectionedTable
    var state: SearchController.ResultsTableState
    /// The request the rows answered, whose text and scope the update reported.
    var request: SearchStateMachine.Request
  }

  // MARK: Batch state

  /// The refreshed results of the change being installed, worked out with it.
  var preparedRefresh: RefreshedResults?

  /// How long the last ``apply(_:)`` held the main actor: capturing the model, installing the
  /// prepared change and delivering its events (what `SearchBenchmarks --suite changes` reports).
  package internal(set) var lastApplyMainActorTime = Duration.zero

  var isApplyingBatch = false
  var batchWaiters: [CheckedContinuation<Void, Never>] = []

  /// Creates a controller over a corpus.
  ///
  /// With a `backend`, searches that run in the background (``SearchConfiguration/Mode-swift.enum/background``,
  /// or any mode with a quiet interval) are answered by it, and model changes are made there
  /// before they are made in `corpus`, which must hold the same items under the same
  /// identities (the data set the backend was loaded from). Searches inside the call stay in
  /// memory.
  ///
  /// - Throws: ``SectionedTable/Error`` when the table options name a field or attribute the model does
  ///   not have, or ICU cannot open the locale's collation.
  public convenience init(
    corpus: SearchCorpus, placeholder: String = "",
    configuration: SearchConfiguration = SearchConfiguration(),
    tableOptions: TableOptions = TableOptions(),
    scheduler: any SearchScheduler = TaskSearchScheduler(),
    backend: (any SearchBackend)? = nil
  ) throws(SectionedTable.Error) {
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
      bar: SearchController.SearchBarState(
        placeholder: placeholder, scopeTitles: corpus.scopeBar.titles),
      configuration: configuration)
    published = Published(
      table: .original, version: 0, snapshot: originalTable, state: .hidden,
      request: machine.displayed)
    buildWordIndexInBackground()
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
    /// - Throws: ``SectionedTable/Error`` when the options name a field or attribute the model does
    ///   not have, or ICU cannot open the locale's collation.
    init(corpus: SearchCorpus, options: TableOptions) throws(SectionedTable.Error) {
      try self.init(model: corpus.model, options: options)
    }

    /// Lays out the whole model and an empty results table: what ``init(corpus:options:)``
    /// does, without waiting for the corpus.
    init(model: SearchModel, options: TableOptions) throws(SectionedTable.Error) {
      let collation: SectionedTable.Collation
      do { collation = try SectionedTable.Collation(locale: options.locale) } catch {
        throw .icu(error)
      }
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
}

/// How a table is built from a list of items: its sectioning, row order and collation.
struct TableLayout: Hashable, Sendable {
  var sectioning: SectionedTable.Sectioning
  var rowOrder: SectionedTable.RowOrder
  var collation: SectionedTable.Collation

  /// The table of `items`, which must be distinct items of `model` (the model's own list, or a
  /// search result).
  func table(_ items: [ItemID], of model: SearchModel) throws(SectionedTable.Error)
    -> SectionedTable
  {
    try SectionedTable(
      checkedItems: items, model: model, sectioning: sectioning, rowOrder: rowOrder,
      collation: collation)
  }
}
