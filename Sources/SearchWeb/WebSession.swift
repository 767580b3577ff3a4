#if Web
  import SearchCore
  import SearchEngine

  /// One browser tab's search: a search controller over the shared corpus, the tokens in its
  /// field, the rows its page shows, and what the page holds of them.
  ///
  /// It never pushes: a change marks it dirty (``onChange``), and the connection's writer asks
  /// for ``nextMessage()`` when the socket can take one, so a slow page gets fewer, newer
  /// updates, never a queue of stale ones. Each update is the difference between the window the
  /// page holds and the window now.
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
    private var window: PagingWindow<WebRow>?
    private var windowKey: WindowKey?
    /// The rows the page holds, by flat position: what the next update is the difference from.
    private var sent: [Int: WebRow] = [:]
    /// The last update sent, less its rows: an update with nothing new is not sent.
    private var lastSent: WebUpdate?
    private var hello: ServerMessage.Hello?
    private var errors: [String] = []
    /// What a controller made anew for other sections starts its generations from: the
    /// page's generations only grow.
    private var generationBase = 0
    /// What every session of the server shares.
    private let shared: Shared
    /// The section index of the table on screen, by the table and its version.
    private var sectionIndex: (key: WindowKey, entries: [WebIndexEntry]?)?
    /// How many updates were sent.
    private var sequence = 0

    private struct WindowKey: Equatable {
      var table: SearchController.TableKind
      var version: Int
      var pageSize: Int
    }

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
        sent = [:]
        lastSent = nil
      }
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
      onChange()
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
      onChange()
    }

    /// What to send next, oldest first: the start, then errors, then an update if the page's
    /// window differs from the one now; nil when the page is up to date.
    func nextMessage() -> ServerMessage? {
      if let hello {
        self.hello = nil
        return .hello(hello)
      }
      if !errors.isEmpty { return .error(errors.removeFirst()) }
      let update = currentUpdate()
      var bare = update
      bare.rows = []
      if update.rows.isEmpty, bare == lastSent { return nil }
      lastSent = bare
      var numbered = update
      sequence += 1
      numbered.sequence = sequence
      return .update(numbered)
    }

    /// The update from what the page holds to the window now, and records that the page holds it.
    private func currentUpdate() -> WebUpdate {
      let kind = controller.visibleTable
      let table = controller.table(kind)
      let rows = windowRows(kind: kind, table: table)
      let start = rows.first?.position ?? 0
      let end = rows.last.map { $0.position + 1 } ?? 0
      sent = sent.filter { (start..<end).contains($0.key) }
      var changed: [WebRow] = []
      for row in rows where sent[row.position] != row {
        changed.append(row)
        sent[row.position] = row
      }
      let results = controller.results
      let suggestions = self.suggestions
      return WebUpdate(
        generation: generation, text: results?.query.text ?? controller.searchBar.text,
        scope: results?.scope ?? controller.searchBar.selectedScope,
        state: controller.resultsState.name, table: kind == .results ? "results" : "original",
        count: table.numberOfRows, pending: controller.isSearchPending,
        scopeCounts: controller.scopeCounts,
        completions: shownCompletions.prefix(WebLimits.completionLimit).map {
          WebCompletion(text: $0.text, count: $0.count)
        },
        start: start, end: end, rows: changed, suggestions: suggestions,
        sections: WebSectioning.spell(controller.tableOptions.sectioning),
        sectionIndex: indexEntries(kind: kind, table: table))
    }

    /// The offered tokens the field's text suggests, leaving out those in the field; none
    /// while the search is not under way.
    private var suggestions: [WebSuggestion] {
      guard controller.searchBar.isActive else { return [] }
      return WebTokenOffers.suggestions(
        from: shared.offers, for: controller.searchBar.text, excluding: tokens)
    }

    /// The section index of `table`: each index title and the flat position of the first row
    /// of the section it jumps to (``SectionedTable/section(forSectionIndexTitle:at:)``); nil
    /// for a table without an index or rows.
    private func indexEntries(kind: SearchController.TableKind, table: SectionedTable)
      -> [WebIndexEntry]?
    {
      let key = WindowKey(table: kind, version: tableVersion, pageSize: 0)
      if let sectionIndex, sectionIndex.key == key { return sectionIndex.entries }
      var entries: [WebIndexEntry]?
      if let titles = table.sectionIndexTitles, table.numberOfRows > 0 {
        var starts: [Int] = []
        var position = 0
        for section in 0..<table.numberOfSections {
          starts.append(position)
          position += table.numberOfRows(inSection: section)
        }
        entries = titles.enumerated().map { index, title in
          WebIndexEntry(
            title: title,
            position: starts[table.section(forSectionIndexTitle: title, at: index)])
        }
      }
      sectionIndex = (key, entries)
      return entries
    }

    /// The completions of the text that would change it (as `live` shows them).
    private var shownCompletions: [SearchQuery.Completion] {
      let text = controller.searchBar.text
      guard !text.isEmpty, controller.results?.query.text == text else { return [] }
      return controller.completions.filter { $0.text.lowercased() != text.lowercased() }
    }

    /// The rendered rows of the paging window over the visible rows: their page and one page on
    /// each side, in order.
    private func windowRows(kind: SearchController.TableKind, table: SectionedTable) -> [WebRow] {
      guard table.numberOfRows > 0 else {
        window = nil
        windowKey = nil
        return []
      }
      let pageSize = max(1, visible.count)
      let page = visible.first / pageSize
      let key = WindowKey(table: kind, version: tableVersion, pageSize: pageSize)
      do {
        if var window, key == windowKey {
          if window.currentPage != page {
            try window.show(page: page)
            self.window = window
          }
        } else {
          window = try PagingWindow(
            table: table, pageSize: pageSize, neighbours: 1, page: page,
            render: renderer(kind, table: table))
          windowKey = key
        }
      } catch {
        window = nil
        windowKey = nil
        errors.append(error.description)
        return []
      }
      guard let window else { return [] }
      return window.materializedPages.flatMap { page in
        (window.rows(ofPage: page) ?? []).enumerated().map { offset, visible in
          var row = visible.row
          row.position = page * pageSize + offset
          row.section = table.titleForHeader(inSection: visible.indexPath.section)
          return row
        }
      }
    }

    /// Renders an item: a result's row with its marks and typos, an original row as displayed.
    ///
    /// The position and section are the window's to set.
    private func renderer(_ kind: SearchController.TableKind, table: SectionedTable)
      -> PagingWindow<WebRow>.Render
    {
      let corpus = controller.corpus
      let model = corpus.model
      guard kind == .results, let results = controller.results else {
        return { item in
          WebRow(position: 0, id: Int(item.rawValue), text: model.display(item), marks: [])
        }
      }
      let query = results.query
      let scope = results.scope
      return { item throws(RowAdapterError) in
        do throws(ICUError) {
          let marked = try corpus.markedRow(of: item, for: query, scope: scope)
          let typos = corpus.typos(of: item, for: query, scope: scope)
          return WebRow(
            position: 0, id: Int(item.rawValue), text: marked.text,
            marks: marked.utf16Marks.map { [$0.lowerBound, $0.upperBound] },
            typos: typos > 0 ? typos : nil)
        } catch {
          throw .failed(item: item, reason: error.description)
        }
      }
    }
  }
#endif
