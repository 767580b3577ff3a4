import SearchCommandLine
import SearchCore
import SearchEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `SearchREPL live`'s screen: a search display controller on a character grid.
///
/// It holds what the controller does not (the selected row, the open detail, the terminal's size),
/// turns keys into controller calls, and draws every frame from the controller's state, so
/// that a stale result can never be drawn.
@MainActor
final class LiveView {
  private let controller: SearchController
  /// What the items are called ("cities"), for the original table's count.
  private let itemsName: String
  private var token: SearchController.ObservationToken?
  fileprivate var size: (columns: Int, rows: Int)

  /// The selected row of the visible table, as a flat position (section 0's rows first).
  private var selected = 0
  /// The flat position of the table's first row on screen: the selection scrolls it line by
  /// line, a page key by a page.
  private var top = 0
  /// The item whose detail covers the screen.
  private var detail: ItemID?
  /// The rendered page of the visible table (and its neighbours).
  private var window: PagingWindow<MarkedText>?
  /// What `window` was made from; another key means a new window.
  private var windowKey: WindowKey?
  /// Counts the changes of the tables' contents, from the controller's events.
  private var tableVersion = 0
  /// The last error the controller or the view reported, shown until the next key.
  private var message: String?
  /// In the search-button mode: the text or scope changed since the search button.
  private var needsSubmit = false
  /// The search bar's line being edited: the same keys as the REPL's prompt.
  private var editor = LineEditor()
  /// The tokens in the field, in the order they were added (the controller's filter is a
  /// set): Backspace on an empty bar removes the last.
  private var tokens: [AttributeFilter.Condition] = []
  /// The attributes a token's condition may name (a data set's, from its manifest).
  private let attributes: [ConditionSyntax.Attribute]
  /// The values Ctrl-T offers when the text is not a condition.
  private var suggestions = TokenSuggestions()
  /// The flat positions of the rows drawn last, for the position indicator.
  private var drawnRows: ClosedRange<Int>?
  private var redrawScheduled = false
  fileprivate var finished = false
  /// Enter came while the text's search was still running: the row is chosen from its answer,
  /// once it is on screen, never from an older one (a paste or a fast typist sends the text
  /// and Enter together).
  private var acceptsWhenSettled = false
  /// Wakes the session loop to choose, once the search Enter waits for has settled.
  private let settled: @MainActor () -> Void

  private struct WindowKey: Equatable {
    var table: SearchController.TableKind
    var version: Int
    var pageSize: Int
  }

  private init(
    controller: SearchController, itemsName: String, attributes: [ConditionSyntax.Attribute],
    settled: @escaping @MainActor () -> Void
  ) {
    self.controller = controller
    self.itemsName = itemsName
    self.attributes = attributes
    self.settled = settled
    size = RawTerminal.size
    token = controller.observe { [weak self] event in self?.receive(event) }
  }

  /// What a live session ended with, and the exit status it stands for.
  enum Ending: Equatable {
    /// Ctrl-C: 130, as fzf.
    case interrupted
    /// Esc on an empty search bar: 130, as fzf, which reads Esc and Ctrl-C alike as the user
    /// giving up, so that a script tells "gave up" (130) from "nothing to choose" (1).
    case dismissed
    /// Enter on a row: its item's display text is printed, 0.
    case accepted(String)
    /// Enter with no row to choose: 1.
    case nothingChosen
    /// The end of input: 0.
    case endOfInput

    var status: Int32 {
      switch self {
      case .interrupted, .dismissed: 130
      case .nothingChosen: 1
      case .accepted, .endOfInput: 0
      }
    }
  }

  /// What the session loop hears: the terminal, the load's end, or a tick to redraw the
  /// load's progress.
  private enum Input: Sendable {
    case terminal(TerminalInput)
    case loaded(Result<Loaded, LoadFailure>)
    case tick
    /// The search an Enter waits for has settled.
    case settled
  }

  /// What a load brings: the corpus and, with `--backend`, the server that answers.
  struct Loaded: Sendable {
    var corpus: SearchCorpus
    var backend: (any SearchBackend)?

    init(corpus: SearchCorpus, backend: (any SearchBackend)? = nil) {
      self.corpus = corpus
      self.backend = backend
    }
  }

  private struct LoadFailure: Error {
    var error: any Error
  }

  /// Takes the terminal at once and draws the frame with a loading indicator, loads the data
  /// set in the background (keys typed meanwhile are kept and applied once it is loaded), then
  /// runs the view until Ctrl-C or the end of input; the terminal is given back on every way
  /// out, also when something throws.
  ///
  /// - Throws: What the load throws, when the table options cannot be met, or when standard
  ///   input is not a terminal.
  ///   `countsScopes` nil counts the scopes when the data set has any besides "All".
  static func run(
    itemsName: String, attributes: [ConditionSyntax.Attribute], countsScopes: Bool?,
    configuration: SearchConfiguration,
    tableOptions: SearchController.TableOptions,
    load: @escaping @Sendable (LoadProgress) async throws -> Loaded
  ) async throws -> Ending {
    try RawTerminal.enter(fullScreen: true, device: .controlling)
    defer { RawTerminal.leave() }
    let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
    let keys = KeyReader.start()
    let forwarder = Task {
      for await input in keys { continuation.yield(.terminal(input)) }
    }
    let progress = LoadProgress()
    let loader = Task.detached {
      do {
        continuation.yield(.loaded(.success(try await load(progress))))
      } catch {
        continuation.yield(.loaded(.failure(LoadFailure(error: error))))
      }
    }
    let ticker = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .milliseconds(100))
        continuation.yield(.tick)
      }
    }
    defer {
      ticker.cancel()
      loader.cancel()
      forwarder.cancel()
    }
    var loading = LoadingScreen(itemsName: itemsName, progress: progress)
    loading.draw()
    var view: LiveView?
    for await input in inputs {
      switch input {
      case .tick:
        if view == nil { loading.draw() } else { ticker.cancel() }
      case .settled:
        if let ending = view?.acceptWhenSettled() { return ending }
      case .loaded(.failure(let failure)):
        throw failure.error
      case .loaded(.success(let loaded)):
        ticker.cancel()
        let controller: SearchController
        var configuration = configuration
        configuration.countsScopes = countsScopes ?? (loaded.corpus.scopeBar.scopes.count > 1)
        do {
          controller = try SearchController(
            corpus: loaded.corpus,
            placeholder: "Search \(grouped(loaded.corpus.model.count)) \(itemsName)",
            configuration: configuration, tableOptions: tableOptions,
            scheduler: TaskSearchScheduler(), backend: loaded.backend)
        } catch {
          throw CommandError(error.description)
        }
        let started = LiveView(
          controller: controller, itemsName: itemsName, attributes: attributes,
          settled: { continuation.yield(.settled) })
        view = started
        // The keys typed while the data set loaded, in order.
        for key in loading.keys {
          if let ending = started.handle(key) { return ending }
        }
        started.draw()
      case .terminal(.key(let key)):
        if let view {
          if let ending = view.handle(key) { return ending }
          view.setNeedsDisplay()
        } else {
          if key == .control("c") { return .interrupted }
          loading.keep(key)
          loading.draw()
        }
      case .terminal(.resize):
        if let view {
          view.size = RawTerminal.size
          view.setNeedsDisplay()
        } else {
          loading.draw()
        }
      case .terminal(.endOfInput):
        view?.finished = true
        return .endOfInput
      }
    }
    return .endOfInput
  }

  // MARK: Events

  private func receive(_ event: SearchEvent) {
    switch event {
    case .update(let update):
      // Another list of rows: the selection starts over at the top, as a reloaded table's; a
      // model change keeps it where it is.
      tableVersion += 1
      if update.cause != .modelChanged {
        selected = 0
        top = 0
      }
    case .error(let text):
      // The search Enter waited for failed: nothing is chosen, the message shows.
      acceptsWhenSettled = false
      message = text
    default:
      break
    }
    if acceptsWhenSettled && !controller.isSearchPending { settled() }
    setNeedsDisplay()
  }

  /// The chosen row, once the search Enter waited for has settled (nil while it runs).
  fileprivate func acceptWhenSettled() -> Ending? {
    guard acceptsWhenSettled, !controller.isSearchPending else { return nil }
    acceptsWhenSettled = false
    return accept()
  }

  /// Asks for one redraw after the current main-actor turn, however many events and keys
  /// come before it.
  fileprivate func setNeedsDisplay() {
    guard !redrawScheduled else { return }
    redrawScheduled = true
    Task { @MainActor [weak self] in
      guard let self else { return }
      redrawScheduled = false
      if !finished { draw() }
    }
  }

  // MARK: Keys

  /// Does what a key asks; the session's ending when the key ends it.
  private func handle(_ key: Key) -> Ending? {
    if key == .control("c") { return .interrupted }
    // After Enter, the session ends with the choice: keys that came with it change nothing.
    if acceptsWhenSettled { return nil }
    message = nil
    if detail != nil {
      switch key {
      case .escape, .enter, .character("q"), .character("Q"): detail = nil
      default: break
      }
      return nil
    }
    let bar = controller.searchBar
    editor.load(bar.text)
    if key == .backspace, bar.text.isEmpty, !tokens.isEmpty {
      // A token is the last thing before the cursor of an empty field, as in a search field.
      tokens.removeLast()
      applyTokens()
      return nil
    }
    if key == .control("t") {
      // Ctrl-T makes a token here, instead of transposing characters as at the REPL's prompt.
      addToken()
      return nil
    }
    if Self.edits(key) {
      // Editing, as at the REPL's prompt (a paste is one line: breaks become spaces).
      _ = editor.handle(key)
      if editor.line != bar.text { type(editor.line) }
      return nil
    }
    switch key {
    case .escape:
      if bar.text.isEmpty { return .dismissed }
      needsSubmit = false
      controller.cancel()
      // The list is the whole data set again: so is the scope bar, and the next keystroke
      // searches everything (UIKit hides the scope bar at cancel; here it stays in view).
      if controller.searchBar.selectedScope != 0 {
        do { try controller.selectScope(0) } catch {
          assertionFailure("scope 0, All, is always on the bar: \(error)")
        }
      }
    case .tab:
      // The first completion, as a search field's suggestion is taken; else the next scope.
      if let first = shownCompletions.first {
        type(first.text)
      } else {
        moveScope(by: 1)
      }
    case .backTab:
      moveScope(by: -1)
    case .up: moveSelection(to: selected - 1)
    case .down: moveSelection(to: selected + 1)
    case .pageUp:
      // A page key scrolls the table by a page and the selection with it, as fzf's.
      top = max(0, top - pageSize)
      moveSelection(to: selected - pageSize)
    case .pageDown:
      top += pageSize
      moveSelection(to: selected + pageSize)
    case .control("o"):
      openDetail()
    case .enter:
      if submitsOnEnter {
        needsSubmit = false
        controller.clickSearchButton()
      } else if controller.isSearchPending {
        acceptsWhenSettled = true
      } else {
        return accept()
      }
    default:
      break
    }
    return nil
  }

  /// Whether a key edits the search bar's line (the REPL prompt's editing keys), rather than
  /// moving, choosing or quitting.
  nonisolated static func edits(_ key: Key) -> Bool {
    switch key {
    case .character, .paste, .backspace, .delete, .left, .right, .home, .end, .altBackspace,
      .control("a"), .control("e"), .control("b"), .control("f"), .control("w"),
      .control("k"), .control("u"), .control("y"), .control("t"), .control("h"),
      .alt("b"), .alt("f"), .alt("d"):
      true
    default:
      false
    }
  }

  /// Whether Enter presses the search button (the submit mode, after a change) rather than
  /// choosing the selected row.
  private var submitsOnEnter: Bool {
    controller.configuration.mode == .onSubmit && needsSubmit && controller.searchBar.isActive
  }

  /// Enter: the selected row's item, to print.
  private func accept() -> Ending {
    let table = visibleTable
    guard let path = Self.indexPath(ofPosition: selected, in: table),
      let item = table.item(at: path)
    else { return .nothingChosen }
    return .accepted(controller.corpus.model.display(item))
  }

  /// Sets the bar's text, giving the bar focus first.
  private func type(_ text: String) {
    if !controller.searchBar.isActive { controller.begin() }
    controller.setText(text)
    needsSubmit = true
  }

  private func moveScope(by step: Int) {
    let count = controller.searchBar.scopeTitles.count
    guard count > 1 else { return }
    if !controller.searchBar.isActive { controller.begin() }
    let next = ((controller.searchBar.selectedScope + step) % count + count) % count
    do { try controller.selectScope(next) } catch { message = error.description }
    needsSubmit = true
  }

  /// Ctrl-T: the text as a token, when it is a condition (`country=CH`), else the first
  /// suggested token for it; the text is cleared, as a search field does when a suggestion
  /// becomes a token.
  private func addToken() {
    let text = controller.searchBar.text
    let condition: AttributeFilter.Condition
    if text.contains(where: { "=<>?".contains($0) }) {
      // With --backend, the server's table holds the items: values are taken as written.
      let corpus = controller.corpus
      let attributes =
        controller.backend == nil ? attributes.map { $0.holdingValues(of: corpus) } : attributes
      do {
        let reading = try ConditionSyntax.read(text, attributes: attributes)
        condition = reading.condition
        message = reading.notes.isEmpty ? nil : reading.notes.joined(separator: "; ")
      } catch {
        // The status line has one line: the message without the caret lines.
        message = error.message
        return
      }
    } else if let first = suggestions.suggestions(
      for: text, in: controller.corpus, excluding: Set(tokens)
    ).first {
      condition = first.condition
    } else {
      message = "no token for \"\(text)\": no attribute value has a word that starts with it"
      return
    }
    if !tokens.contains(condition) { tokens.append(condition) }
    if !controller.searchBar.isActive { controller.begin() }
    if !text.isEmpty { controller.setText("") }
    applyTokens()
  }

  private func applyTokens() {
    if !controller.searchBar.isActive { controller.begin() }
    controller.setFilter(AttributeFilter(tokens))
    needsSubmit = true
  }

  private var visibleTable: SectionedTable { controller.table(controller.visibleTable) }

  private var rowCount: Int { visibleTable.numberOfRows }

  /// The table's lines for the current size, at least 1 (a page of the paging window).
  private var pageSize: Int {
    max(
      1,
      LiveLayout(
        rows: size.rows, hasScopes: hasScopes, hasTokens: !tokens.isEmpty,
        hasCompletions: !shownCompletions.isEmpty
      ).tableHeight)
  }

  private var hasScopes: Bool { !controller.searchBar.scopeTitles.isEmpty }

  /// The completions of the text on screen that would change it (not the text itself).
  private var shownCompletions: [SearchQuery.Completion] {
    let text = controller.searchBar.text
    guard !text.isEmpty, controller.results?.query.text == text else { return [] }
    return controller.completions.filter { $0.text.lowercased() != text.lowercased() }
  }

  private func moveSelection(to position: Int) {
    selected = max(0, min(position, rowCount - 1))
  }

  private func openDetail() {
    let kind = controller.visibleTable
    guard let path = Self.indexPath(ofPosition: selected, in: controller.table(kind)) else {
      return
    }
    do {
      detail = try controller.selectRow(at: path, in: kind)
    } catch {
      message = error.description
    }
  }

  /// The index path of a flat position: section 0's rows come first, then section 1's, and so on.
  private static func indexPath(ofPosition position: Int, in table: SectionedTable)
    -> TableIndexPath?
  {
    guard position >= 0 else { return nil }
    var start = 0
    for section in 0..<table.numberOfSections {
      let rows = table.numberOfRows(inSection: section)
      if position < start + rows { return TableIndexPath(section: section, row: position - start) }
      start += rows
    }
    return nil
  }

  // MARK: Drawing

  fileprivate func draw() {
    let lines = detail.map { detailLines(of: $0) } ?? mainLines()
    Terminal.write(
      LiveScreen.frame(lines, columns: size.columns, rows: size.rows), to: RawTerminal.output)
  }

  private func mainLines() -> [StyledLine] {
    let width = size.columns
    let bar = controller.searchBar
    let layout = LiveLayout(
      rows: size.rows, hasScopes: hasScopes, hasTokens: !tokens.isEmpty,
      hasCompletions: !shownCompletions.isEmpty)
    let cursor = editor.line == bar.text ? editor.cursor : nil
    var lines = [
      LiveScreen.searchBar(
        text: bar.text, placeholder: bar.placeholder, width: width, cursor: cursor)
    ]
    if layout.showsTokens {
      lines.append(LiveScreen.tokens(tokens.map(\.description), width: width))
    }
    if layout.showsCompletions {
      lines.append(LiveScreen.completions(shownCompletions, width: width))
    }
    if layout.showsScopeBar {
      let titles = LiveScreen.scopeTitles(bar.scopeTitles, counts: controller.scopeCounts)
      lines.append(
        LiveScreen.scopeBar(titles: titles, selected: bar.selectedScope, width: width))
    }
    let tableLines = self.tableLines(height: layout.tableHeight, width: width)
    // The last rows a server sent are on screen: ask for the next page (after this frame).
    if let rows = drawnRows, controller.visibleTable == .results, rows.upperBound + 1 >= rowCount,
      controller.hasMoreResults
    {
      Task { @MainActor [controller] in controller.loadMoreResults() }
    }
    lines.append(LiveScreen.status(statusText, busy: controller.isSearchPending, width: width))
    lines += tableLines
    while lines.count < size.rows - (layout.showsHelp ? 1 : 0) {
      lines.append(StyledLine(width: width))
    }
    if layout.showsHelp { lines.append(LiveScreen.help(helpItems, width: width)) }
    return lines
  }

  private var statusText: String {
    let state = controller.resultsState
    var text: String
    switch state {
    case .hidden, .dimmed:
      text = "\(grouped(controller.originalTable.numberOfRows)) \(itemsName)"
    case .rows(let count):
      text = count == 1 ? "1 result" : "\(grouped(count)) results"
      if let results = controller.results, !results.isComplete {
        text = "\(grouped(count)) of \(results.count) results"
      }
    case .noResults, .belowThreshold:
      text = state.description
    }
    // Where the rows on screen are in the table: "21–22 of 22".
    if let rows = drawnRows, rowCount > 0 {
      text +=
        " · \(grouped(rows.lowerBound + 1))–\(grouped(rows.upperBound + 1))"
        + " of \(grouped(rowCount))"
    }
    if let message { text += " · \(message)" }
    return text
  }

  private var helpItems: [LiveScreen.HelpItem] {
    var items: [LiveScreen.HelpItem] = []
    if !shownCompletions.isEmpty {
      items.append(.init(text: "Tab complete", priority: 3))
    } else if hasScopes {
      items.append(.init(text: "Tab scope", priority: 3))
    }
    items += [
      .init(text: "↑↓ move", priority: 4),
      .init(text: "PgUp/PgDn page", priority: 1),
      .init(text: submitsOnEnter ? "Enter search" : "Enter choose", priority: 5),
      .init(text: "Ctrl-O detail", priority: 2),
      .init(text: "Ctrl-T token", priority: 0),
      .init(text: controller.searchBar.text.isEmpty ? "Esc quit" : "Esc cancel", priority: 5),
      .init(text: "Ctrl-C quit", priority: 6),
    ]
    return items
  }

  /// The table's lines from the first row on screen, with a header at the top and before
  /// the first row of each section.
  ///
  /// The view scrolls only as far as the selection needs, and never leaves empty lines at the
  /// bottom while rows are above the screen.
  private func tableLines(height: Int, width: Int) -> [StyledLine] {
    guard height > 0 else { return [] }
    let kind = controller.visibleTable
    let table = controller.table(kind)
    let state = controller.resultsState
    if table.numberOfRows == 0 {
      drawnRows = nil
      guard state.showsResultsTable else { return [] }
      var lines = Array(repeating: StyledLine(width: width), count: (height - 1) / 2)
      lines.append(LiveScreen.centred(state.description, width: width))
      return lines
    }
    moveSelection(to: selected)
    let layout = TableLayout(table: table)
    top = layout.top(keeping: selected, from: top, height: height)
    guard let window = currentWindow(kind: kind, table: table, top: top) else { return [] }

    enum Line {
      case header(String)
      case row(MarkedText, position: Int)
    }
    // The rows from `top` on: the page that holds it and the next, both rendered.
    let first = window.currentPage * window.pageSize
    let rendered =
      (window.rows(ofPage: window.currentPage) ?? [])
      + (window.rows(ofPage: window.currentPage + 1) ?? [])
    var entries: [Line] = []
    // A screen too short for a header and the selected row shows the row.
    var section: Int? =
      layout.lines(from: top, through: selected) > height ? layout.section(of: top) : nil
    for (offset, row) in rendered.enumerated() where first + offset >= top {
      if entries.count >= height { break }
      if row.indexPath.section != section {
        section = row.indexPath.section
        if let title = table.titleForHeader(inSection: row.indexPath.section) {
          entries.append(.header(title))
        }
      }
      entries.append(.row(row.row, position: first + offset))
    }
    entries = Array(entries.prefix(height))
    let positions = entries.compactMap { entry -> Int? in
      if case .row(_, let position) = entry { return position }
      return nil
    }
    drawnRows = positions.first.flatMap { first in positions.last.map { first...$0 } }
    let dimmed = state == .dimmed
    return entries.map { entry in
      switch entry {
      case .header(let title):
        return LiveScreen.sectionHeader(title, width: width)
      case .row(let text, let position):
        return LiveScreen.row(text, selected: position == selected, dimmed: dimmed, width: width)
      }
    }
  }

  /// The paging window on the visible table, one page per screen, showing the page that
  /// holds the first row on screen (its next page is rendered too, as a neighbour): made
  /// anew when the table's contents or the page size changed, else moved.
  private func currentWindow(kind: SearchController.TableKind, table: SectionedTable, top: Int)
    -> PagingWindow<MarkedText>?
  {
    let pageSize = self.pageSize
    let page = top / pageSize
    let key = WindowKey(table: kind, version: tableVersion, pageSize: pageSize)
    do {
      if var window, key == windowKey {
        if window.currentPage != page {
          try window.show(page: page)
          self.window = window
        }
      } else {
        window = try PagingWindow(
          table: table, pageSize: pageSize, neighbours: 1, page: page, render: renderer(kind))
        windowKey = key
      }
    } catch {
      window = nil
      windowKey = nil
      message = error.description
    }
    return window
  }

  /// Renders an item: the results' rows with what the query matched marked, the original
  /// table's as the model displays them.
  private func renderer(_ kind: SearchController.TableKind) -> PagingWindow<MarkedText>.Render {
    let corpus = controller.corpus
    if kind == .results, let results = controller.results {
      let query = results.query
      let scope = results.scope
      return { item throws(RowAdapterError) in
        do throws(ICUError) {
          // A row found with typos says so after its text, where its marks do not reach.
          return SyntaxOptions.labelled(
            try corpus.markedRow(of: item, for: query, scope: scope),
            typos: corpus.typos(of: item, for: query, scope: scope))
        } catch {
          throw .failed(item: item, reason: error.description)
        }
      }
    }
    let model = corpus.model
    return { item in MarkedText(text: model.display(item)) }
  }

  /// The detail overlay: the item's display, each field and attribute, the link, and how to
  /// close it at the bottom.
  private func detailLines(of item: ItemID) -> [StyledLine] {
    let width = size.columns
    let model = controller.corpus.model
    guard model.contains(item) else {
      detail = nil
      return mainLines()
    }
    var title = StyledLine(width: width)
    title.append(model.display(item), .bold)
    var lines = [title, StyledLine(width: width)]
    // A result's detail marks what the query matched.
    let results = controller.visibleTable == .results ? controller.results : nil
    let entries = ItemDetail.entries(
      of: item, in: controller.corpus, query: results?.query, scope: results?.scope ?? 0)
    for (name, value) in entries {
      lines += LiveScreen.detailEntry(name: name, value: value, width: width)
    }
    let help = LiveScreen.help(
      [.init(text: "Esc/Enter/q close", priority: 2), .init(text: "Ctrl-C quit", priority: 1)],
      width: width)
    guard size.rows >= 3 else { return lines }
    lines = Array(lines.prefix(size.rows - 1))
    while lines.count < size.rows - 1 { lines.append(StyledLine(width: width)) }
    lines.append(help)
    return lines
  }
}

/// The screen while the data set loads: the search bar with what is typed meanwhile, and the
/// load's progress.
private struct LoadingScreen {
  let itemsName: String
  let progress: LoadProgress
  /// The keys typed so far, applied in order once the data set is loaded.
  private(set) var keys: [Key] = []
  /// The bar as those keys edit it, by the same editor the view uses.
  private var editor = LineEditor()

  init(itemsName: String, progress: LoadProgress) {
    self.itemsName = itemsName
    self.progress = progress
  }

  mutating func keep(_ key: Key) {
    keys.append(key)
    if LiveView.edits(key) { _ = editor.handle(key) }
  }

  func draw() {
    let size = RawTerminal.size
    let width = size.columns
    var lines = [
      LiveScreen.searchBar(
        text: editor.line, placeholder: "Search \(itemsName)", width: width, cursor: editor.cursor)
    ]
    let percent = Int((progress.fraction * 100).rounded(.down))
    lines.append(
      LiveScreen.status(
        "Loading \(itemsName) · \(progress.phase) \(percent)%", busy: true, width: width))
    while lines.count < size.rows - 1 { lines.append(StyledLine(width: width)) }
    lines.append(LiveScreen.help([.init(text: "Ctrl-C quit", priority: 1)], width: width))
    Terminal.write(LiveScreen.frame(lines, columns: width, rows: size.rows), to: RawTerminal.output)
  }
}
