import Observation
import SearchEngine

/// A search bar over a list of the app's own items: the typed front door of the library.
///
/// Give it your `Identifiable` values and key paths to their text; read back your own values,
/// in sections, with highlights; bind ``text``, ``scope`` and ``isActive`` to a search field
/// (the class is `@Observable`, so SwiftUI's `.searchable(text:)` binds to it directly); follow
/// one ordered stream of updates (``updates()`` or ``observe(_:)``) to animate a table.
///
/// ```swift
/// let search = try await ItemSearch(
///   contacts, searching: \.name, \.company, \.emails,
///   scopes: .cases(\.group), sections: .firstLetter(\.name),
///   configuration: SearchConfiguration(mode: .background, minimumLength: 2))
/// search.isActive = true
/// search.text = "mül"                     // the rows follow, in the background
/// ```
///
/// Underneath, a ``SearchController`` over a columnar ``/SearchEngine/SearchModel`` does the work: the app never
/// sees its item identities, records or field numbers. Change the items through this class
/// (``apply(_:)`` and its shorthands): changes are prepared off the main actor and installed as
/// one update.
@MainActor
@Observable
public final class ItemSearch<
  Item: Identifiable & Sendable, Scope: Hashable & Sendable,
  Token: Identifiable & Hashable & Sendable
>
where Item.ID: Sendable {
  /// The search bar's text.
  ///
  /// Setting it is a keystroke, a paste or a change in code: the controller decides whether to
  /// search now, in the background, or not at all.
  public var text: String = "" {
    didSet { if text != controller.searchBar.text { controller.setText(text) } }
  }

  /// The selected scope button; nil is the first, "All".
  public var scope: Scope? = nil {
    didSet {
      let index = scope.flatMap { scopeIndex[$0] } ?? 0
      guard index != controller.searchBar.selectedScope else { return }
      do { try controller.selectScope(index) } catch {
        assertionFailure("scope \(index) is on the bar: \(error)")
      }
    }
  }

  /// The selected scope button's index: 0 is "All", then the ``scopes`` in order, as UIKit's
  /// `selectedScopeButtonIndex` counts them.
  ///
  /// Setting it selects ``scope``; an index outside ``scopeTitles`` is a programming error, as an
  /// array's subscript is.
  public var selectedScopeIndex: Int {
    get { scope.flatMap { scopeIndex[$0] } ?? 0 }
    set {
      precondition(
        scopeTitles.indices.contains(newValue),
        "scope index \(newValue) is not on the bar of \(scopeTitles.count) buttons")
      scope = newValue == 0 ? nil : scopes[newValue - 1]
    }
  }

  /// The tokens in the search field (SwiftUI's `tokens:` binding): each one's condition
  /// (``ItemTokens/filter``) combines with the others, the text and the scope.
  ///
  /// Adding a token narrows the results and removing one widens them: each change is a new search,
  /// as a scope is, with its update and change set.
  ///
  /// A token whose filter tests a key path no listed token's filter tests is a programming
  /// error, as an index outside an array is: the items were not read at that key path.
  public var tokens: [Token] = [] {
    didSet {
      guard tokens != oldValue else { return }
      let filter = attributeFilter(of: tokens)
      if filter != controller.searchBar.filter { controller.setFilter(filter) }
    }
  }

  /// The tokens to suggest for the text typed (SwiftUI's `suggestedTokens:`): the offered
  /// tokens (``ItemTokens/tokens``) not in the field whose title has a word that starts with
  /// the text, folded as the items are ("wor" and "WÖR" suggest "Work"); every offered token
  /// not in the field while the text is empty.
  public var suggestedTokens: [Token] {
    let typed = (try? normalizer.fold(String(text.trimmingWhitespace()))) ?? ""
    let inField = Set(tokens)
    return zip(offeredTokens.tokens, foldedTokenTitles).compactMap { token, title in
      !inField.contains(token) && title.isSuggested(for: typed) ? token : nil
    }
  }

  /// A token's title, as its ``ItemTokens`` gives it.
  public func title(of token: Token) -> String { offeredTokens.title(token) }

  /// Whether the search is under way (the bar has focus): setting it true begins the search;
  /// false cancels it, which clears the field, text and tokens, as a search field's cancel
  /// button does.
  ///
  /// The scope stays selected, as a scope bar's button does (UIKit's and SwiftUI's alike): the next
  /// begin shows that scope's rows under an empty field.
  public var isActive: Bool = false {
    didSet {
      guard isActive != controller.searchBar.isActive else { return }
      if isActive {
        controller.begin()
      } else {
        controller.cancel()
        tokens = []
      }
    }
  }

  // The properties every update sets are observed by hand, through key paths made once: in a
  // generic class, the key path the macro writes into each setter is made anew at run time
  // on every call, which cost more than the rest of installing a change.

  /// What the results table shows: ``SearchController/ResultsTableState/rows(_:)``, "No Results", "Type 2 more
  /// characters", or the whole list (hidden, dimmed).
  public private(set) var state: SearchController.ResultsTableState {
    get {
      access(keyPath: keyPaths.state)
      return _state
    }
    set { withMutation(keyPath: keyPaths.state) { _state = newValue } }
  }

  /// The generation of the request the rows on screen answer.
  public private(set) var generation: Int {
    get {
      access(keyPath: keyPaths.generation)
      return _generation
    }
    set { withMutation(keyPath: keyPaths.generation) { _generation = newValue } }
  }

  /// The rows on screen, in sections: every item while no results are shown, else the
  /// results.
  ///
  /// Plain lists have one section.
  public private(set) var sections: [ItemSection<Item>] {
    get {
      access(keyPath: keyPaths.sections)
      return _sections
    }
    set { withMutation(keyPath: keyPaths.sections) { _sections = newValue } }
  }

  /// How many rows each scope would show for the text and tokens now on screen, by the
  /// scope bar's index ("All" first, as ``scopeTitles``): what a scope bar writes beside each
  /// title ("All 1,204 · Work 310").
  ///
  /// Counted in the same pass as each search, and sent with its update. nil without scopes, or when
  /// the text is below the minimum length.
  public private(set) var scopeCounts: [Int?]? {
    get {
      access(keyPath: keyPaths.scopeCounts)
      return _scopeCounts
    }
    set { withMutation(keyPath: keyPaths.scopeCounts) { _scopeCounts = newValue } }
  }

  /// Completions of the text (SwiftUI's `searchSuggestions`): the items' own words and values
  /// that start with it, as folded ("san" → "San Francisco", "Santiago"), those most items
  /// hold first, within the scope and the tokens, with the typed part marked.
  ///
  /// Asked for with ``SearchConfiguration/completionLimit`` (none by default): the completion index
  /// is then built in the background after the first search, and each search's update brings the
  /// completions of its text.
  public private(set) var completions: [SearchQuery.Completion] {
    get {
      access(keyPath: keyPaths.completions)
      return _completions
    }
    set { withMutation(keyPath: keyPaths.completions) { _completions = newValue } }
  }

  /// How many rows `scope` (nil: "All") would show for the text and tokens now on screen; see
  /// ``scopeCounts``.
  public func count(in scope: Scope?) -> Int? {
    let index = scope.flatMap { scopeIndex[$0] } ?? 0
    return scopeCounts.flatMap { $0.indices.contains(index) ? $0[index] : nil }
  }

  /// The section index down the side ("A", "B", …), or nil for a list without one.
  public private(set) var sectionIndexTitles: [String]? {
    get {
      access(keyPath: keyPaths.sectionIndexTitles)
      return _sectionIndexTitles
    }
    set {
      withMutation(keyPath: keyPaths.sectionIndexTitles) { _sectionIndexTitles = newValue }
    }
  }

  @ObservationIgnored private var _state: SearchController.ResultsTableState = .hidden
  @ObservationIgnored private var _generation = 0
  @ObservationIgnored private var _sections: [ItemSection<Item>] = []
  @ObservationIgnored private var _sectionIndexTitles: [String]? = nil
  @ObservationIgnored private var _scopeCounts: [Int?]? = nil
  @ObservationIgnored private var _completions: [SearchQuery.Completion] = []
  @ObservationIgnored private let keyPaths = KeyPaths()

  /// The key paths of the properties observed by hand, made once.
  @MainActor private struct KeyPaths {
    let state: KeyPath<ItemSearch, SearchController.ResultsTableState> = \.state
    let generation: KeyPath<ItemSearch, Int> = \.generation
    let sections: KeyPath<ItemSearch, [ItemSection<Item>]> = \.sections
    let sectionIndexTitles: KeyPath<ItemSearch, [String]?> = \.sectionIndexTitles
    let scopeCounts: KeyPath<ItemSearch, [Int?]?> = \.scopeCounts
    let completions: KeyPath<ItemSearch, [SearchQuery.Completion]> = \.completions
  }

  /// The scopes after "All", in the bar's order.
  @ObservationIgnored public let scopes: [Scope]

  /// The scope bar's titles, "All" first.
  @ObservationIgnored public let scopeTitles: [String]

  /// The engine underneath: its delegate decides reloads as UIKit's
  /// `shouldReloadTableForSearchString` does; its configuration can change at any time.
  @ObservationIgnored public let controller: SearchController

  @ObservationIgnored let storage = ItemStorage<Item>()
  @ObservationIgnored var identities: [Item.ID: ItemID] = [:]
  @ObservationIgnored let schema: ItemSchema<Item, Scope>
  @ObservationIgnored private let scopeIndex: [Scope: Int]
  /// The tokens offered, their titles and conditions.
  @ObservationIgnored public let offeredTokens: ItemTokens<Item, Token>
  /// The offered tokens' titles folded, whole and by word, for suggestions.
  @ObservationIgnored private let foldedTokenTitles: [FoldedTokenTitle]
  /// Folds text as the items were folded.
  @ObservationIgnored private let normalizer: Normalizer
  @ObservationIgnored private var token: SearchController.ObservationToken?
  @ObservationIgnored var isApplying = false
  @ObservationIgnored var applyWaiters: [CheckedContinuation<Void, Never>] = []
  @ObservationIgnored var settleWaiters: [CheckedContinuation<Void, Never>] = []
  /// The identities a batch being applied takes and frees: installed with the batch's update,
  /// before anyone observes it, so that an observer finds the items the update inserted.
  @ObservationIgnored var pendingIdentities: PendingIdentities?
  /// How long the last ``apply(_:)`` or ``replaceAll(_:)`` that changed the items held the
  /// main actor, by the clock, in its own synchronous parts: checking the batch, storing the
  /// values and the controller's install, which delivers its update to every observer (what
  /// `SearchBenchmarks --suite items` reports as the install).
  ///
  /// Waiting for the batch to be prepared off the main actor is not counted.
  @ObservationIgnored package internal(set) var lastApplyMainActorTime = Duration.zero

  /// Creates a search over `items`: the items are read, folded, indexed and sectioned off the
  /// main actor, which only installs the result, so that a large list does not stall the
  /// app's interface while it is built.
  ///
  /// Without a scope bar or tokens, leave out `scopes:` or `tokens:` (the search's `Scope` or
  /// `Token` is then `Never`). Everything else is one ``Configuration``.
  ///
  /// - Parameters:
  ///   - items: The list, in its order; each `id` once.
  ///   - fields: Key paths to the text searched: `String`, `[String]`, optionals.
  ///   - scopes: The scope bar (``ItemScopes/cases(_:allTitle:title:)`` for an enum). With
  ///     scopes, each search counts every scope's results (``scopeCounts``).
  ///   - tokens: The tokens the field offers and what each one filters by.
  ///   - configuration: Sections, order, when searches run and how the text is read, folding,
  ///     locale, the placeholder.
  /// - Throws: ``ItemSearchError`` for two items with one `id`, two scopes with one title,
  ///   or a locale ICU has no data for ("xx").
  public init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    scopes: ItemScopes<Item, Scope>, tokens: ItemTokens<Item, Token>,
    configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    let sections = configuration.sections
    let order = configuration.order
    let folding = configuration.folding
    let locale = configuration.locale
    let placeholder = configuration.placeholder
    let scheduler = configuration.scheduler ?? TaskSearchScheduler()
    var extractors: [ItemSchema<Item, Scope>.Extractor] = []
    for keyPath in repeat each fields {
      extractors.append(.init(keyPath: keyPath) { $0[keyPath: keyPath].searchableValues })
    }
    let schema = try ItemSchema(
      fields: extractors, scopes: scopes, sections: sections, order: order,
      tokenAttributes: tokens.attributes, ranking: configuration.ranking?.ranking ?? .default,
      rankingKeys: configuration.ranking?.reads ?? [])
    self.schema = schema
    self.scopes = scopes.scopes
    self.scopeTitles = [scopes.allTitle] + scopes.titles
    var scopeIndex: [Scope: Int] = [:]
    for (index, scope) in scopes.scopes.enumerated() { scopeIndex[scope] = index + 1 }
    self.scopeIndex = scopeIndex
    let ranks = configuration.ranking != nil
    var configuration = configuration.search
    if configuration.statedQuerySyntax == nil { configuration.querySyntax = .words }
    if !scopes.scopes.isEmpty { configuration.countsScopes = true }
    if ranks { configuration.ranksResults = true }
    self.offeredTokens = tokens

    let engine = try await ItemEngine<Item, Scope>.build(
      Array(items), schema: schema, storage: storage, folding: folding, locale: locale,
      wordIndex: configuration.querySyntax == .words && configuration.typos.isOn
    ).get()
    self.identities = engine.identities
    let normalizer = engine.corpus.normalizer
    self.normalizer = normalizer
    self.foldedTokenTitles = tokens.tokens.map { token in
      FoldedTokenTitle(tokens.title(token), normalizer: normalizer)
    }
    controller = SearchController(
      corpus: engine.corpus, tables: engine.tables, placeholder: placeholder,
      configuration: configuration, scheduler: scheduler, backend: nil)
    show(controller.originalTable)
    _scopeCounts = controller.scopeCounts
    token = controller.observe { [weak self] event in self?.receive(event) }
  }

  // MARK: The search bar

  /// The search button: in the search-button-only mode, runs the search.
  public func search() { controller.clickSearchButton() }

  /// Ends the search and keeps the text (focus moved elsewhere).
  public func end() { controller.end() }

  /// Returns when the rows on screen are final for everything asked so far: no change of the
  /// items is being applied, and no search runs or waits for its quiet interval.
  ///
  /// Its update, if any, has gone out. For tests and scripts that type and then read the rows.
  public func settled() async {
    while true {
      if isApplying {
        await withCheckedContinuation { settleWaiters.append($0) }
      } else if !controller.isIdle {
        await controller.waitUntilIdle()
      } else {
        return
      }
    }
  }

  // MARK: Rows

  /// The items shown, top to bottom, across sections.
  public var rows: ItemRows<Item> {
    let table =
      controller.visibleTable == .results ? controller.resultsTable : controller.originalTable
    if table.numberOfSections == 1 {
      return ItemRows(ids: table.sections[0].items, storage: storage)
    }
    return ItemRows(ids: table.sections.flatMap(\.items), storage: storage)
  }

  /// The item at an index path of the rows on screen, or nil outside them.
  public func item(at indexPath: TableIndexPath) -> Item? {
    controller.table(controller.visibleTable).item(at: indexPath).flatMap(storage.item)
  }

  /// Where the rows on screen show an item, or nil when they do not.
  public func indexPath(of id: Item.ID) -> TableIndexPath? {
    identities[id].flatMap(controller.table(controller.visibleTable).indexPath(of:))
  }

  /// The item with an `id`, or nil when there is none.
  public func item(withID id: Item.ID) -> Item? { identities[id].flatMap(storage.item) }

  /// The number of items.
  public var count: Int { identities.count }

  /// Tells observers a row was selected, and returns its item (nil outside the rows).
  @discardableResult
  public func selectRow(at indexPath: TableIndexPath) -> Item? {
    guard let id = try? controller.selectRow(at: indexPath, in: controller.visibleTable) else {
      return nil
    }
    return storage.item(id)
  }

  // MARK: Updates

  /// Calls `handler` with every update from now on, until the token is released: one per
  /// visible change, in order, after this object's own properties follow it.
  public func observe(
    _ handler: @escaping @MainActor @Sendable (Update) -> Void
  ) -> SearchController.ObservationToken {
    controller.observe { [weak self] event in
      guard let self, case .update(let update) = event else { return }
      handler(self.typed(update))
    }
  }

  /// The updates from now on, as an asynchronous sequence; it ends when the consumer stops
  /// iterating.
  ///
  /// Nothing is dropped for a slow consumer.
  public func updates() -> AsyncStream<Update> {
    let (stream, continuation) = AsyncStream.makeStream(of: Update.self)
    let token = observe { continuation.yield($0) }
    continuation.onTermination = { _ in token.cancel() }
    return stream
  }

  // MARK: Following the controller

  private func receive(_ event: SearchEvent) {
    switch event {
    case .update(let update):
      if update.cause == .modelChanged { installPendingIdentities() }
      state = update.state
      generation = update.generation
      if update.scopeCounts != _scopeCounts { scopeCounts = update.scopeCounts }
      if update.completions != _completions { completions = update.completions }
      show(controller.table(update.table))
    case .textDidChange(let newText):
      if text != newText { text = newText }
    case .scopeDidChange(let index):
      let newScope = index == 0 ? nil : scopes[index - 1]
      if scope != newScope { scope = newScope }
    case .didBeginSearch:
      if !isActive { isActive = true }
    case .didEndSearch:
      if isActive { isActive = false }
      if text != controller.searchBar.text { text = controller.searchBar.text }
    default:
      break
    }
  }

  /// Installs the identities of the batch being applied, if not yet done.
  func installPendingIdentities() {
    guard let pending = pendingIdentities else { return }
    pendingIdentities = nil
    guard let whole = pending.whole else {
      for id in pending.gone { identities[id] = nil }
      for (id, identity) in pending.added { identities[id] = identity }
      return
    }
    // The old table is freed off the main actor: a large one takes milliseconds.
    let old = identities
    identities = whole
    BackgroundWork.start(.utility) { withExtendedLifetime(old) {} }
  }

  private func show(_ table: SectionedTable) {
    sections = itemSections(of: table)
    sectionIndexTitles = table.sectionIndexTitles
  }

  /// The engine's filter of tokens.
  private func attributeFilter(of tokens: [Token]) -> AttributeFilter {
    AttributeFilter(
      tokens.map { token in
        guard let condition = schema.condition(of: offeredTokens.filter(token)) else {
          preconditionFailure(
            "token \(token) tests a key path that no offered token tests: the items were not read there; offer a token that tests it in ItemTokens"
          )
        }
        return condition
      })
  }

  private func typed(_ update: SearchController.Update) -> Update {
    let table = controller.table(update.table)
    return Update(
      base: update, scope: update.scope == 0 ? nil : scopes[update.scope - 1],
      sections: itemSections(of: table))
  }

  /// A table's sections as the app's items (views, not copies).
  private func itemSections(of table: SectionedTable) -> [ItemSection<Item>] {
    table.sections.map {
      ItemSection(title: $0.title, rows: ItemRows(ids: $0.items, storage: storage))
    }
  }
}

extension ItemSearch where Token == Never {
  /// Creates a search over `items` with a scope bar and no tokens; see
  /// ``init(_:searching:scopes:tokens:configuration:)``.
  public convenience init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    scopes: ItemScopes<Item, Scope>, configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    try await self.init(
      items, searching: repeat each fields, scopes: scopes, tokens: .none,
      configuration: configuration)
  }
}

extension ItemSearch where Scope == Never {
  /// Creates a search over `items` with tokens and no scope bar; see
  /// ``init(_:searching:scopes:tokens:configuration:)``.
  public convenience init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    tokens: ItemTokens<Item, Token>, configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    try await self.init(
      items, searching: repeat each fields, scopes: .none, tokens: tokens,
      configuration: configuration)
  }
}

extension ItemSearch where Scope == Never, Token == Never {
  /// Creates a search over `items` without a scope bar or tokens; see
  /// ``init(_:searching:scopes:tokens:configuration:)``.
  public convenience init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    try await self.init(
      items, searching: repeat each fields, scopes: .none, tokens: .none,
      configuration: configuration)
  }
}

// What the compiler says when a search names a scope or token type and leaves out what fills
// it: without these, "requires the types 'Group' and 'Never' be equivalent". The overloads
// above are chosen whenever they fit; these never can be called.
extension ItemSearch {
  /// A search with a scope type needs its scope bar, and one with a token type its tokens.
  @available(
    *, unavailable,
    message:
      "this search has a scope or token type: pass its scope bar, scopes: .cases(\\.scope), or its tokens, tokens: ItemTokens(…); a search without them is ItemSearch<Item, Never, Never>"
  )
  public convenience init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    fatalError("unavailable")
  }

  /// A search with a token type needs the tokens it offers.
  @available(
    *, unavailable,
    message:
      "this search has a token type: pass the tokens it offers, tokens: ItemTokens(…), or make its Token Never"
  )
  public convenience init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    scopes: ItemScopes<Item, Scope>, configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    fatalError("unavailable")
  }

  /// A search with a scope type needs its scope bar.
  @available(
    *, unavailable,
    message:
      "this search has a scope type: pass its scope bar, scopes: .cases(\\.scope) or ItemScopes(…), or make its Scope Never"
  )
  public convenience init<each Text: SearchableText>(
    _ items: some Sequence<Item>,
    searching fields: repeat KeyPath<Item, each Text> & Sendable,
    tokens: ItemTokens<Item, Token>, configuration: Configuration = Configuration()
  ) async throws(ItemSearchError) {
    fatalError("unavailable")
  }
}

extension ItemSearch {
  /// How an item search is set up: how rows are grouped and ordered, when searches run and how
  /// the text is read, what matching ignores, the locale and the search bar's hint.
  ///
  /// One value, as GRDB's `Configuration`: an option added later is a property here, not
  /// another parameter of every initialiser.
  ///
  /// ```swift
  /// var configuration = ItemSearch<Contact, Contact.Group, Never>.Configuration(
  ///   sections: .firstLetter(\.name))
  /// configuration.search.mode = .background
  /// configuration.search.minimumLength = 2
  /// ```
  public struct Configuration: Sendable {
    /// How rows are grouped (``ItemSections/firstLetter(_:sortsRows:)``); one section by
    /// default.
    public var sections: ItemSections<Item>
    /// How rows are ordered inside each section (``ItemOrder/collation(_:)``); the items'
    /// order by default.
    public var order: ItemOrder<Item>
    /// How ranked results are ordered (``ItemSearch/Ranking/byPopularity(_:)``).
    ///
    /// Setting one ranks the results (``SearchConfiguration/ranksResults``); nil leaves it to
    /// ``search``, which ranks by ``ItemSearch/Ranking/relevance`` when it ranks.
    public var ranking: Ranking?
    /// When searches run, the minimum length, ranking, typos and completions.
    ///
    /// The text is read as ``/SearchEngine/SearchQuery/Syntax/words`` (no operators, as a search field
    /// expects) unless this states another ``SearchConfiguration/querySyntax``.
    public var search: SearchConfiguration
    /// What matching ignores: case, diacritics and width by default.
    public var folding: Folding
    /// The locale of folding (Turkish "tr") and of sections' collation and index: a language
    /// ICU has data for; nil (or "") is ICU's root locale.
    public var locale: String?
    /// The search bar's hint.
    public var placeholder: String
    /// Where timers and background searches run; nil runs them on Dispatch's threads and a
    /// clock.
    ///
    /// A test passes `ManualSearchScheduler` (library `SearchCoreTesting`).
    public var scheduler: (any SearchScheduler)?

    /// Creates a configuration; every option has its default.
    public init(
      sections: ItemSections<Item> = .none, order: ItemOrder<Item> = .given,
      search: SearchConfiguration = SearchConfiguration(), folding: Folding = .default,
      locale: String? = nil, placeholder: String = "", scheduler: (any SearchScheduler)? = nil,
      ranking: Ranking? = nil
    ) {
      self.sections = sections
      self.order = order
      self.ranking = ranking
      self.search = search
      self.folding = folding
      self.locale = locale
      self.placeholder = placeholder
      self.scheduler = scheduler
    }
  }
}
