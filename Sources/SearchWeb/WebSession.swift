#if Web
  import SearchCore
  import SearchEngine

  /// One browser tab's search: a search controller over the shared corpus, the tokens in its
  /// field, the rows its page shows, and what the page holds of them.
  ///
  /// It never pushes: a change marks it dirty (``onChange``), and the connection's writer asks
  /// for ``next()`` when the socket can take one, so a slow page gets fewer, newer updates,
  /// never a queue of stale ones. What it hands over is the state of the screen, read on the
  /// main actor; the writer's ``WebWindow`` draws the rows off it and sends the difference
  /// from what the page holds.
  @MainActor
  final class WebSession {
    /// The search; another one, with the same text, scope and tokens, when the page asks for
    /// other sections.
    private(set) var controller: SearchController
    private var token: SearchController.ObservationToken?
    /// Called whenever there is something to send.
    private let onChange: @MainActor () -> Void

    /// The page's visible rows, as it last said.
    private var visible = (first: 0, count: WebLimits.initialVisibleRows)
    /// The tokens in the field, in the order the page sent them.
    private var tokens: [AttributeFilter.Condition] = []
    /// The generation of the rows on screen: the last update's, or the controller's at the start.
    private var generation: Int
    /// Counts the changes of the tables' contents, from the controller's updates.
    private var tableVersion = 0
    /// Whether something changed since the writer last took the screen.
    private var isDirty = true
    /// Counts the page's `resync` requests: the writer forgets what the page holds when it
    /// grows.
    private var resyncs = 0
    private var hello: ServerMessage.Hello?
    private var errors: [String] = []
    /// What a controller made anew for other sections starts its generations from: the
    /// page's generations only grow.
    private var generationBase = 0
    /// What every session of the server shares.
    private let shared: Shared

    /// What every session of a server shares: the corpus, the backend, the tokens offered
    /// (counted once) and the searches finished.
    struct Shared: Sendable {
      let corpus: SearchCorpus
      let backend: (any SearchBackend)?
      let offers: AttributeValueTokens
      let results: SharedSearchResults

      init(corpus: SearchCorpus, backend: (any SearchBackend)?) {
        self.corpus = corpus
        self.backend = backend
        offers = WebTokenOffers.offers(of: corpus)
        results = SharedSearchResults(for: corpus)
      }
    }

    /// Searches, as a session would, the first letters and first two letters that most of the
    /// corpus's first values start with, as written and in lower case, so that the shared
    /// searches hold them before the first session: a server starts with many tabs typing at
    /// once, and a text of one or two letters matches much of the corpus (the costliest
    /// searches there are, tens of milliseconds on a large corpus).
    static func warm(_ shared: Shared, configuration: SearchWebServer.Configuration) async {
      let model = shared.corpus.model
      let counts = SharedSearchResults.warmedPrefixes
      let prefixes =
        model.commonestPrefixes(length: 1, limit: counts.letters)
        + model.commonestPrefixes(length: 2, limit: counts.pairs)
      var texts: [String] = []
      var seen: Set<String> = []
      for prefix in prefixes {
        for text in [prefix, prefix.lowercased()] where seen.insert(text).inserted {
          texts.append(text)
        }
      }
      guard !texts.isEmpty,
        let session = try? WebSession(
          shared: shared, configuration: configuration.search,
          itemsName: configuration.itemsName, onChange: {})
      else { return }
      let controller = session.controller
      controller.begin()
      for text in texts {
        controller.setText(text)
        await controller.waitUntilIdle()
      }
      controller.cancel()
    }

    /// What the writer takes next: a message as it is, or the screen to draw an update of.
    enum Outgoing: Sendable {
      case message(ServerMessage)
      case screen(WebScreen)
    }

    init(
      shared: Shared, configuration: SearchConfiguration, itemsName: String,
      onChange: @escaping @MainActor () -> Void
    ) throws(SectionedTable.Error) {
      self.shared = shared
      let corpus = shared.corpus
      var configuration = configuration
      // Counted in memory: a backend's scopes are not (as live's --backend).
      configuration.countsScopes = shared.backend == nil && corpus.scopeBar.scopes.count > 1
      // The page diffs its own window: the controller's change sets would go unread.
      configuration.precomputesChanges = false
      controller = try SearchController(
        corpus: corpus, placeholder: "Search \(corpus.model.count) \(itemsName)",
        configuration: configuration, backend: shared.backend)
      controller.sharedResults = shared.results
      self.onChange = onChange
      generation = controller.generation
      hello = ServerMessage.Hello(
        placeholder: controller.searchBar.placeholder,
        scopes: controller.searchBar.scopeTitles,
        fields: corpus.model.schema.fields.map(\.name),
        attributes: corpus.model.schema.attributes, itemCount: corpus.model.count,
        maxMessageBytes: WebLimits.maxClientMessageBytes)
      token = controller.observe { [weak self] event in self?.receive(event) }
    }

    /// Does what a client's message asks; a request the data cannot meet (a scope or attribute
    /// it lacks) is answered with an error message, and the session goes on.
    func handle(_ message: ClientMessage) {
      switch message {
      case .begin:
        controller.begin()
      case .text(let text):
        if !controller.searchBar.isActive { controller.begin() }
        controller.setText(text)
      case .scope(let scope):
        if !controller.searchBar.isActive { controller.begin() }
        do { try controller.selectScope(scope) } catch { fail(error.description) }
      case .tokens(let tokens):
        let schema = controller.corpus.model.schema
        if let problem = tokens.lazy.compactMap({ $0.problem(in: schema) }).first {
          fail(problem)
          return
        }
        if !controller.searchBar.isActive { controller.begin() }
        var conditions: [AttributeFilter.Condition] = []
        for token in tokens where !conditions.contains(token.condition) {
          conditions.append(token.condition)
        }
        self.tokens = conditions
        controller.setFilter(AttributeFilter(conditions))
      case .cancel:
        // As live's Esc: the whole list again, and so the whole scope bar.
        controller.cancel()
        if controller.searchBar.selectedScope != 0 {
          do { try controller.selectScope(0) } catch { fail(error.description) }
        }
      case .visible(let first, let count):
        visible = (first, count)
      case .sections(let sectioning):
        section(by: sectioning)
      case .resync:
        // The page holds none of the rows it was sent: the next update has them all.
        resyncs += 1
      }
      changed()
    }

    private func changed() {
      isDirty = true
      onChange()
    }

    /// Sections the lists as `sectioning` says, as `SearchREPL live --sections` does (the
    /// results in the same sections): a controller with those tables takes over, with the
    /// text, scope and tokens of the one before.
    private func section(by sectioning: SectionedTable.Sectioning) {
      let old = controller
      guard sectioning != old.tableOptions.sectioning else { return }
      var options = old.tableOptions
      options.sectioning = sectioning
      options.resultsUseOriginalSections = sectioning != .none
      options.locale = old.corpus.normalizer.locale ?? ""
      let next: SearchController
      do {
        next = try SearchController(
          corpus: old.corpus, placeholder: old.placeholder, configuration: old.configuration,
          tableOptions: options, backend: old.backend)
      } catch {
        fail("sections \(WebSectioning.spell(sectioning)): \(error)")
        return
      }
      next.sharedResults = shared.results
      token = nil
      if old.searchBar.isActive {
        next.begin()
        if !old.searchBar.text.isEmpty { next.setText(old.searchBar.text) }
        if old.searchBar.selectedScope != 0 { try? next.selectScope(old.searchBar.selectedScope) }
        if !old.searchBar.filter.isEmpty { next.setFilter(old.searchBar.filter) }
        old.cancel()
      }
      // The new controller's generations start over: the page sees them above every one before.
      generationBase = generation + 1 - next.generation
      generation = generationBase + next.generation
      controller = next
      tableVersion += 1
      token = controller.observe { [weak self] event in self?.receive(event) }
    }

    private func fail(_ message: String) {
      errors.append(message)
      changed()
    }

    private func receive(_ event: SearchEvent) {
      switch event {
      case .update(let update):
        generation = generationBase + update.generation
        tableVersion += 1
      case .error(let text):
        errors.append(text)
      default:
        break
      }
      changed()
    }

    /// What to send next, oldest first: the start, then errors, then the screen if it changed
    /// since the writer last took it; nil when there is nothing new.
    func next() -> Outgoing? {
      if let hello {
        self.hello = nil
        return .message(.hello(hello))
      }
      if !errors.isEmpty { return .message(.error(errors.removeFirst())) }
      guard isDirty else { return nil }
      isDirty = false
      let kind = controller.visibleTable
      let results = controller.results
      var update = WebUpdate(
        // The text the rows answer: the results', none for the whole list (also while the
        // first search of a text runs, which the field already holds).
        generation: generation, text: kind == .results ? results?.query.text ?? "" : "",
        scope: results?.scope ?? controller.searchBar.selectedScope,
        state: controller.resultsState.name, table: kind == .results ? "results" : "original",
        count: 0, pending: controller.isSearchPending, scopeCounts: controller.scopeCounts,
        completions: shownCompletions.prefix(WebLimits.completionLimit).map {
          WebCompletion(text: $0.text, count: $0.count)
        },
        start: 0, end: 0, rows: [], suggestions: suggestions,
        sections: WebSectioning.spell(controller.tableOptions.sectioning))
      let table = controller.table(kind)
      update.count = table.numberOfRows
      return .screen(
        WebScreen(
          update: update, kind: kind, table: table, tableVersion: tableVersion,
          visible: visible, resyncs: resyncs, corpus: controller.corpus,
          marking: kind == .results ? results.map { ($0.query, $0.scope) } : nil))
    }

    /// The offered tokens the field's text suggests, leaving out those in the field; none
    /// while the search is not under way.
    private var suggestions: [WebSuggestion] {
      guard controller.searchBar.isActive else { return [] }
      return WebTokenOffers.suggestions(
        from: shared.offers, for: controller.searchBar.text, excluding: tokens)
    }

    /// The completions of the text that would change it (as `live` shows them).
    private var shownCompletions: [SearchQuery.Completion] {
      let text = controller.searchBar.text
      guard !text.isEmpty, controller.results?.query.text == text else { return [] }
      return controller.completions.filter { $0.text.lowercased() != text.lowercased() }
    }
  }
#endif
