import SearchEngine

// SearchController's stored state, its initialisers and how its tables are laid out. Most of the
// state is held by owned parts, each in its own file with its invariant and tests
// (Tests/SearchCoreTests/Search/ControllerPartsTests.swift):
// - TableStore.swift: the tables, their versions and known change sets, the results shown;
// - UpdateDelivery.swift: the events of a call, their delivery in order, the last update;
// - SearchRuns.swift: searches in flight, finished or discarded, paging, waiting until idle;
// - ModelChangeBatching.swift: batches one at a time, the backend's sync, the change installed;
// - IndexBuilds.swift: the index builds started in the background.
// The controller's behaviour lives in extensions, one concern a file:
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
  /// Where background searches are answered and model changes are made first; nil searches
  /// the corpus in memory.
  public let backend: (any SearchBackend)?

  // The rest of the state is held by parts, each a type with private storage, a small API of
  // mutating methods and an invariant it checks: the part decides, the controller acts (it calls
  // the delegate, starts tasks, sends events). At most 12 stored properties in all
  // (ControllerPartsTests checks it).

  var machine: SearchStateMachine
  var filter = IncrementalFilter()
  let scheduler: any SearchScheduler
  /// The tables, their layouts and versions, and the results shown (TableStore.swift).
  var tables: TableStore
  /// The events of the call under way and the last update (UpdateDelivery.swift).
  var delivery: UpdateDelivery
  /// Searches in flight, finished, discarded, and callers waiting until idle (SearchRuns.swift).
  var runs = SearchRuns()
  /// Batches of model changes and the backend's sync (ModelChangeBatching.swift).
  var batching = ModelChangeBatching()
  /// The corpus's index builds started in the background (IndexBuilds.swift).
  var indexBuilds = IndexBuilds()
  /// Where searches in memory are looked up before they run and kept when they finish, shared
  /// with other controllers over the same corpus (a server's sessions); nil keeps none.
  package var sharedResults: SharedSearchResults?

  /// How the tables are sectioned and ordered.
  public var tableOptions: TableOptions { tables.options }
  /// The table of the whole model.
  public var originalTable: SectionedTable { tables.original }
  /// The table of the current results (empty while none are shown).
  public var resultsTable: SectionedTable { tables.resultsTable }
  /// The results in the results table: nil while none are shown.
  public var results: SearchResult? { tables.results }
  /// With ``SearchConfiguration/completionLimit``: the completions of the text of the
  /// results shown, in their scope and among the items their tokens admit, best first;
  /// empty while no results are shown.
  public var completions: [SearchQuery.Completion] { tables.completions }
  /// How many finished searches were dropped because a newer request came first.
  public var discardedSearches: Int { runs.discarded }
  /// How long the last ``apply(_:)`` held the main actor: capturing the model, installing the
  /// prepared change and delivering its events (what `SearchBenchmarks --suite changes`
  /// reports).
  package var lastApplyMainActorTime: Duration { batching.lastMainActorTime }
  /// How the original table and the results table are built from a list of items.
  var originalLayout: TableLayout { tables.originalLayout }
  var resultsLayout: TableLayout { tables.resultsLayout }

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
    self.scheduler = scheduler
    self.backend = backend
    self.tables = TableStore(tables)
    let machine = SearchStateMachine(
      bar: SearchController.SearchBarState(
        placeholder: placeholder, scopeTitles: corpus.scopeBar.titles),
      configuration: configuration)
    self.machine = machine
    delivery = UpdateDelivery(
      showing: UpdateDelivery.Screen(
        table: .original, version: 0, snapshot: tables.originalTable, state: .hidden,
        request: machine.displayed))
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
