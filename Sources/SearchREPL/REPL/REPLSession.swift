import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

/// One REPL session: a search controller over a data set, the commands that drive it, and
/// the observer that prints its events.
@MainActor
final class REPLSession {
  private static let pageSize = 20

  private var controller: SearchController
  private let output: REPLOutput
  private let renderer: EventRenderer
  private var token: SearchController.ObservationToken?
  /// The data set's description: attribute types for `insert` and `update`.
  private let manifest: Manifest
  /// The table options in force; `set sections` and `set locale` change them.
  private var tableOptions: SearchController.TableOptions
  /// The table and page `next` and `prev` move from.
  private var lastShown: (table: SearchController.TableKind, page: Int)?
  /// Whether `show` marks matches with terminal attributes.
  private let highlights: Bool
  /// The tokens in the field, in the order they were added: `token list` numbers them and
  /// `token remove INDEX` counts in this order (the controller's filter is a set).
  private var tokens: [AttributeFilter.Condition] = []
  /// The values `suggest` offers, counted once per model version.
  private var suggestions = TokenSuggestions()

  private init(
    controller: SearchController, output: REPLOutput, manifest: Manifest,
    tableOptions: SearchController.TableOptions, highlights: Bool
  ) {
    self.controller = controller
    self.output = output
    self.manifest = manifest
    self.tableOptions = tableOptions
    self.highlights = highlights
    renderer = EventRenderer(output: output)
    observe()
  }

  /// Loads the data set, then runs commands from standard input until `quit` or its end.
  ///
  /// - Throws: Errors of loading (the manifest, the data, the table options); once the
  ///   session runs, nothing ends it but `quit` or the end of input.
  static func run(_ options: REPLOptions) async throws {
    let manifest = try Manifest.load(from: options.manifestPath)
    let terminal = isatty(STDIN_FILENO) != 0 && isatty(STDERR_FILENO) != 0
    let normalizer = try Normalizer(folding: options.folding, locale: options.locale)
    let corpus = try ProgressBar.run(manifest.name, shown: terminal && !options.json) { progress in
      try SavedIndex.loadCorpus(
        manifestPath: options.manifestPath, normalizer: normalizer, index: options.savedIndex,
        allowsDataOutsideFolder: options.allowsDataOutsideFolder, progress: progress)
    }
    let placeholder = placeholder(count: corpus.model.count, name: manifest.name)
    let tableOptions = SearchController.TableOptions(
      sectioning: options.sectioning, resultsUseOriginalSections: options.sectioning != .none,
      locale: options.locale ?? "")
    var backend: (any ServerBackend)?
    if let url = options.backend {
      backend = try await Server.backend(
        url: url, replica: options.replica, manifestPath: options.manifestPath, corpus: corpus,
        what: "repl --backend")
    }
    let controller: SearchController
    do {
      controller = try SearchController(
        corpus: corpus, placeholder: placeholder,
        configuration: SearchConfiguration(
          mode: options.mode, minimumLength: options.minimumLength, ranksResults: options.ranks,
          querySyntax: options.syntax, backendPageSize: options.pageSize,
          countsScopes: options.countsScopes, typos: options.typos),
        tableOptions: tableOptions, scheduler: TaskSearchScheduler(), backend: backend)
    } catch {
      throw CommandError("\(error)")
    }
    let output = REPLOutput(json: options.json, timing: options.timing, updates: options.updates)
    let session = REPLSession(
      controller: controller, output: output, manifest: manifest,
      tableOptions: tableOptions,
      highlights: !options.json && isatty(STDOUT_FILENO) != 0)
    if !options.json {
      let scopes = controller.searchBar.scopeTitles.joined(separator: ", ")
      output.info(
        "Loaded \(grouped(corpus.model.count)) \(manifest.name) (\(options.manifestPath));"
          + " scopes: \(scopes). Type help.")
      if RawTerminal.isInteractive {
        // A person, not a script (whose transcripts stay as they are): the commands at a glance.
        output.info(
          "Commands: " + REPLCommand.specs.map(\.name).joined(separator: ", ")
            + ". help COMMAND explains one; Tab completes, ↑ and Ctrl-R recall, Ctrl-D quits.")
      }
    }
    await session.loop()
    // A script (not a person at a terminal) that had errors says so in its exit status.
    if !RawTerminal.isInteractive, output.errorCount > 0 {
      Terminal.write(
        "SearchREPL: error: \(output.errorCount == 1 ? "1 command" : "\(output.errorCount) commands")"
          + " of the script failed (see above)\n", to: STDERR_FILENO)
      throw ExitCode(Terminal.failure)
    }
  }

  private func observe() {
    renderer.controller = controller
    let renderer = self.renderer
    token = controller.observe { event in renderer.handle(event) }
  }

  // MARK: The loop

  private func loop() async {
    if RawTerminal.isInteractive {
      await editLoop()
      return
    }
    // Lines are read on their own thread, so that the main actor stays free to deliver
    // background searches between lines.
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    Thread.detachNewThread {
      while let line = readLine(strippingNewline: true) { continuation.yield(line) }
      continuation.finish()
    }
    // A terminal on standard input only (output piped): a plain prompt, no line editing.
    let prompting = isatty(STDIN_FILENO) != 0
    if prompting { output.prompt(prompt) }
    for await raw in lines {
      let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
      if await !run(line) { break }
      if prompting { output.prompt(prompt) }
    }
  }

  /// A person at a terminal: lines edited with history, events shown above the prompt.
  private func editLoop() async {
    let reader = InteractiveLineReader(
      commands: REPLCommand.specs.map(\.name), history: LineHistory.loadDefault())
    output.console = reader
    defer {
      output.console = nil
      reader.close()
    }
    while let line = await reader.readLine(prompt: prompt) {
      if await !run(line) { break }
    }
  }

  /// Runs one line; false for `quit`.
  private func run(_ line: String) async -> Bool {
    let command: REPLCommand?
    do { command = try REPLCommand.parse(line) } catch {
      output.error(error.description)
      return true
    }
    guard let command else { return true }
    if command == .quit { return false }
    await perform(command)
    return true
  }

  /// The search bar as a prompt: the placeholder while the text is empty.
  private var prompt: String {
    let bar = controller.searchBar
    var shown = bar.text.isEmpty ? bar.placeholder : bar.text
    if bar.selectedScope != 0, bar.scopeTitles.indices.contains(bar.selectedScope) {
      shown += " | " + bar.scopeTitles[bar.selectedScope]
    }
    return "[\(shown)] > "
  }

  /// Runs one controller call as one group of events.
  private func call(_ body: () throws(SearchController.Error) -> Void) {
    renderer.beginCall()
    defer { renderer.endCall() }
    do { try body() } catch { output.error(error.description) }
  }

  // MARK: Commands

  private func perform(_ command: REPLCommand) async {
    switch command {
    case .type, .back:
      // Keys go into a search bar that has focus: typing into an idle bar gives it focus
      // first, as a tap on the bar would. `paste` and `clear` set the text as an app's code
      // sets it, focus or not.
      if !controller.searchBar.isActive { call { controller.begin() } }
    default: break
    }
    switch command {
    case .type(let text):
      var typed = controller.searchBar.text
      for character in text {
        typed.append(character)
        let next = typed
        call { controller.setText(next) }
      }
    case .paste(let text):
      call { controller.setText(text) }
    case .back(let count):
      for _ in 0..<count {
        var text = controller.searchBar.text
        guard !text.isEmpty else { break }
        text.removeLast()
        let next = text
        call { controller.setText(next) }
      }
    case .clear:
      call { controller.setText("") }
    case .scope(let name):
      selectScope(name)
    case .token(let action):
      token(action)
    case .suggest:
      suggest()
    case .search:
      call { controller.clickSearchButton() }
    case .cancel:
      call { controller.cancel() }
    case .more:
      guard controller.hasMoreResults else {
        output.info(
          controller.configuration.backendPageSize == nil
            ? "every result is shown: more needs a server asked for pages (--backend URL --page-size N)"
            : "every result is shown")
        return
      }
      call { controller.loadMoreResults() }
    case .begin:
      call { controller.begin() }
    case .end:
      call { controller.end() }
    case .show(let table, let page):
      show(table ?? controller.visibleTable, page: page)
    case .next, .previous:
      guard let last = lastShown else {
        output.error("\(command == .next ? "next" : "prev"): nothing shown yet; use show first")
        return
      }
      let pages = Self.pageCount(of: controller.table(last.table))
      if command == .next, last.page >= pages {
        output.error("next: page \(last.page) is the last page of the \(last.table.rawValue) table")
        return
      }
      if command == .previous, last.page <= 1 {
        output.error("prev: page 1 is the first page of the \(last.table.rawValue) table")
        return
      }
      show(last.table, page: last.page + (command == .next ? 1 : -1))
    case .select(let path):
      select(path)
    case .delete(let path):
      await delete(path)
    case .insert(let assignments):
      await insert(assignments)
    case .update(let path, let assignments):
      await update(path, assignments)
    case .set(let setting):
      set(setting)
    case .wait:
      renderer.beginCall()
      await controller.waitUntilIdle()
      renderer.endCall()
      output.info("idle")
    case .stats:
      stats()
    case .help(let name):
      help(name)
    case .quit:
      break
    }
  }

  private func selectScope(_ name: String) {
    guard let index = controller.corpus.scopeBar.index(of: name) else {
      let titles = controller.searchBar.scopeTitles
      output.error(SearchController.Error.noSuchScope(name, titles: titles).description)
      return
    }
    call { () throws(SearchController.Error) in try controller.selectScope(index) }
  }

  // MARK: Tokens

  /// The attributes a condition may name, numbers as the manifest types them, with the values
  /// the items hold (not with `--backend`: the server's table holds the items).
  private var conditionAttributes: [ConditionSyntax.Attribute] {
    let corpus = controller.corpus
    return corpus.model.schema.attributes.map { name in
      let type = manifest.attributes.first { $0.name == name }?.type ?? .string
      let attribute = ConditionSyntax.Attribute(name: name, isNumber: type != .string)
      return controller.backend == nil ? attribute.holdingValues(of: corpus) : attribute
    }
  }

  /// The condition `text` writes, its notes printed; nil, with the error printed, when it
  /// writes none.
  private func condition(_ text: String, for command: String) -> AttributeFilter.Condition? {
    do {
      let reading = try ConditionSyntax.read(text, attributes: conditionAttributes)
      for note in reading.notes { output.info("\(command): \(note)") }
      return reading.condition
    } catch {
      output.error("\(command): \(error.description)")
      return nil
    }
  }

  private func token(_ action: REPLCommand.TokenAction) {
    var next = tokens
    switch action {
    case .add(let text):
      guard let condition = condition(text, for: "token add") else { return }
      guard !next.contains(condition) else {
        output.info("token \(condition) is already in the field")
        return
      }
      next.append(condition)
    case .remove(let text):
      guard let condition = condition(text, for: "token remove") else { return }
      guard let index = next.firstIndex(of: condition) else {
        output.error("token remove: no token \(condition) in the field; \(tokenListText)")
        return
      }
      next.remove(at: index)
    case .removeAt(let index):
      guard next.indices.contains(index) else {
        output.error("token remove: there is no token \(index); \(tokenListText)")
        return
      }
      next.remove(at: index)
    case .list:
      output.info(tokenListText)
      return
    case .clear:
      guard !next.isEmpty else {
        output.info("no tokens")
        return
      }
      next = []
    }
    tokens = next
    call { controller.setFilter(AttributeFilter(next)) }
  }

  /// The tokens numbered from 0, as `token remove INDEX` counts them.
  private var tokenListText: String {
    guard !tokens.isEmpty else { return "the field has no tokens" }
    return "the tokens are "
      + tokens.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")
  }

  /// The tokens suggested for the text, and the completions of the text: the items' own
  /// words and values that start with it, within the scope and tokens (the first `suggest`
  /// builds the index behind them).
  private func suggest() {
    let text = controller.searchBar.text
    let found = suggestions.suggestions(
      for: text, in: controller.corpus, excluding: Set(tokens))
    let corpus = controller.corpus
    let filter = (try? corpus.compile(AttributeFilter(tokens))) ?? nil
    let completions = corpus.completions(
      for: text,
      admitted: corpus.admittedItems(scope: controller.searchBar.selectedScope, filter: filter),
      limit: 10)
    if output.json {
      var object = JSONObject()
      object.add("event", "suggest")
      object.add("text", text)
      object.add(
        "tokens",
        raw: JSONObject.array(
          found.map { suggestion in
            var entry = JSONObject()
            entry.add("token", suggestion.condition.description)
            entry.add("items", suggestion.items)
            return entry.json
          }))
      object.add(
        "completions",
        raw: JSONObject.array(
          completions.map { completion in
            var entry = JSONObject()
            entry.add("text", completion.text)
            entry.add("items", completion.count)
            entry.add("marked", raw: JSONObject.ranges(completion.marked.utf16Marks))
            return entry.json
          }))
      output.event(object.json)
      return
    }
    output.info(
      "suggested tokens for \(EventRenderer.quoted(text)):"
        + (found.isEmpty ? " none (no attribute value has a word that starts with it)" : ""))
    let width = found.map { $0.condition.description.count }.max() ?? 0
    for suggestion in found {
      let condition = suggestion.condition.description
      let padding = String(repeating: " ", count: width - condition.count)
      let items = suggestion.items == 1 ? "1 item" : "\(grouped(suggestion.items)) items"
      output.info("  \(condition)\(padding)  \(items)")
    }
    output.info(
      "completions: "
        + (completions.isEmpty
          ? "none (no word or value of the items starts with the text)"
          : completions.map { "\($0.text) (\(grouped($0.count)))" }.joined(separator: ", ")))
  }

  /// The pages `show` cuts a table into: one for an empty table.
  static func pageCount(of table: SectionedTable) -> Int {
    max(1, (table.numberOfRows + pageSize - 1) / pageSize)
  }

  private func show(_ kind: SearchController.TableKind, page: Int) {
    let table = controller.table(kind)
    let pages = Self.pageCount(of: table)
    guard page >= 1, page <= pages else {
      output.error(
        "show: the \(kind.rawValue) table has \(pages == 1 ? "1 page" : "\(pages) pages")"
          + " (\(table.numberOfRows == 1 ? "1 row" : "\(grouped(table.numberOfRows)) rows"));"
          + " there is no page \(page)")
      return
    }
    let corpus = controller.corpus
    let query = kind == .results ? controller.results?.query : nil
    let highlights = self.highlights
    let scope = controller.results?.scope ?? 0
    let window: PagingWindow<String>
    do {
      // Only the page shown is rendered: a page of a large table costs twenty rows.
      window = try PagingWindow(
        table: table, pageSize: Self.pageSize, neighbours: 0, page: page - 1,
        render: { item in
          // A result's row says why it matched (a value the display leaves out); its
          // marks are drawn on a terminal.
          guard let query,
            let marked = try? corpus.markedRow(of: item, for: query, scope: scope)
          else { return corpus.model.display(item) }
          let label = SyntaxOptions.typoLabel(corpus.typos(of: item, for: query, scope: scope))
          return (highlights ? Self.highlighted(marked) : marked.text) + label
        })
    } catch {
      output.error("show: \(error)")
      return
    }
    lastShown = (kind, window.currentPage + 1)
    var header =
      "\(kind.rawValue) table, page \(window.currentPage + 1) of \(window.pageCount)"
      + " (\(window.rowCount == 1 ? "1 row" : "\(grouped(window.rowCount)) rows"))"
    if kind == .results && window.rowCount == 0 && controller.resultsState.showsResultsTable {
      header += ": \(controller.resultsState)"
    }
    output.info(header)
    var section: Int?
    // The labels of a page share one width, so that the rows start in one column.
    let labelWidth = window.visibleRows.map { "\($0.indexPath)".count }.max() ?? 0
    for row in window.visibleRows {
      if row.indexPath.section != section {
        section = row.indexPath.section
        if let title = table.titleForHeader(inSection: row.indexPath.section) {
          output.info("[\(title)]")
        }
      }
      let label = "\(row.indexPath)"
      let padding = String(repeating: " ", count: labelWidth - label.count)
      output.info("\(label)\(padding)  \(row.row)")
    }
  }

  /// The text with its marks in bold and underlined (SGR), for a terminal.
  nonisolated static func highlighted(_ marked: MarkedText) -> String {
    marked.runs.map { run in
      run.isMarked ? "\u{1B}[1;4m\(run.text)\u{1B}[22;24m" : String(run.text)
    }.joined()
  }

  private func select(_ path: TableIndexPath) {
    let kind = controller.visibleTable
    var selected: ItemID?
    call { () throws(SearchController.Error) in
      selected = try controller.selectRow(at: path, in: kind)
    }
    guard let item = selected else { return }
    // A result's detail marks what the query matched, drawn on a terminal.
    let results = kind == .results ? controller.results : nil
    let entries = ItemDetail.entries(
      of: item, in: controller.corpus, query: results?.query, scope: results?.scope ?? 0)
    for (name, value) in entries {
      output.info("  \(name): \(highlights ? Self.highlighted(value) : value.text)")
    }
  }

  private func delete(_ path: TableIndexPath) async {
    let kind = controller.visibleTable
    guard let item = controller.table(kind).item(at: path) else {
      output.error(SearchController.Error.noSuchRow(path, table: kind).description)
      return
    }
    // The delete event comes after the item left the model, so its text is kept first.
    renderer.doomedText[item] = controller.corpus.model.display(item)
    await change(.remove(item)) { () throws(SearchController.Error) in
      try controller.deleteRow(at: path, in: kind)
    }
    renderer.doomedText = [:]
    countItems()
  }

  /// Makes a change as one call: at once in memory, or, with `--backend`, on the server first
  /// (``SearchController/apply(_:)`` waits for the server's table, then changes the lists).
  private func change(
    _ change: SearchModel.Change, inMemory: () throws(SearchController.Error) -> Void
  ) async {
    guard controller.backend != nil else {
      call(inMemory)
      return
    }
    renderer.beginCall()
    defer { renderer.endCall() }
    do throws(SearchCorpus.Error) { try await controller.apply([change]) } catch {
      output.error(SearchController.Error.corpus(error).description)
    }
  }

  /// The prompt's placeholder says how many items there are: after a change, the new count.
  private func countItems() {
    controller.placeholder = Self.placeholder(
      count: controller.corpus.model.count, name: manifest.name)
  }

  static func placeholder(count: Int, name: String) -> String {
    "Search \(grouped(count)) \(name)"
  }

  private func insert(_ assignments: [REPLCommand.Assignment]) async {
    let model = controller.corpus.model
    let empty = SearchModel.Record(
      fields: Array(repeating: [], count: model.schema.fields.count),
      attributes: Array(repeating: "", count: model.schema.attributes.count))
    guard let record = record(empty, assigning: assignments, command: "insert") else { return }
    await change(.insert(record)) { () throws(SearchController.Error) in
      do throws(SearchCorpus.Error) { try controller.insert(record) } catch { throw .corpus(error) }
    }
    countItems()
  }

  private func update(_ path: TableIndexPath, _ assignments: [REPLCommand.Assignment]) async {
    let kind = controller.visibleTable
    guard let item = controller.table(kind).item(at: path) else {
      output.error(SearchController.Error.noSuchRow(path, table: kind).description)
      return
    }
    let model = controller.corpus.model
    let current = SearchModel.Record(
      fields: model.schema.fields.indices.map { model.values(of: item, field: $0) },
      attributes: model.schema.attributes.indices.map { model.attribute($0, of: item) })
    guard let record = record(current, assigning: assignments, command: "update") else { return }
    await change(.update(item, with: record)) { () throws(SearchController.Error) in
      do throws(SearchCorpus.Error) { try controller.update(item, with: record) } catch {
        throw .corpus(error)
      }
    }
  }

  /// `record` with the assignments made: a named field gets the values assigned to it (in
  /// order, replacing its old ones), a named attribute its value in the manifest's type.
  ///
  /// Nil, with the error reported, for an unknown name or a value of the wrong type.
  private func record(
    _ record: SearchModel.Record, assigning assignments: [REPLCommand.Assignment], command: String
  ) -> SearchModel.Record? {
    let schema = controller.corpus.model.schema
    var record = record
    var assigned: Set<Int> = []
    for assignment in assignments {
      if let field = schema.fieldIndex(named: assignment.name) {
        if assigned.insert(field).inserted { record.fields[field] = [] }
        record.fields[field].append(assignment.value)
      } else if let attribute = schema.attributeIndex(named: assignment.name) {
        var value = assignment.value
        if let spec = manifest.attributes.first(where: { $0.name == assignment.name }),
          spec.type != .string
        {
          guard let number = spec.type.canonical(value) else {
            output.error(
              "\(command): \(assignment.name) must be \(spec.type.phrase), not \"\(value)\"")
            return nil
          }
          value = number
        }
        record.attributes[attribute] = value
      } else {
        let names = (schema.fields.map(\.name) + schema.attributes).joined(separator: ", ")
        output.error(
          "\(command): no field or attribute \"\(assignment.name)\"; the names are \(names)")
        return nil
      }
    }
    return record
  }

  private func set(_ setting: REPLCommand.Setting) {
    var configuration = controller.configuration
    switch setting {
    case .minimumLength(let length):
      configuration.minimumLength = length
      output.info("minlen \(length)")
    case .mode(let mode):
      configuration.mode = mode
      output.info("mode \(mode.rawValue)")
    case .coalesce(let milliseconds):
      configuration.coalescingInterval = milliseconds == 0 ? nil : .milliseconds(milliseconds)
      output.info(milliseconds == 0 ? "coalesce off" : "coalesce \(milliseconds) ms")
    case .rank(let on):
      configuration.ranksResults = on
      output.info("rank \(on ? "on" : "off")")
    case .syntax(let syntax):
      configuration.querySyntax = syntax
      output.info("syntax \(syntax.rawValue)")
    case .typos(let typos):
      if controller.backend != nil && typos.isOn {
        output.error(
          "set typos \(typos): a search server (--backend) matches words exactly only; typos"
            + " stay off")
        return
      }
      configuration.typos = typos
      output.info(
        "typos \(typos)" + (configuration.querySyntax == .words ? "" : " (words syntax only)"))
    case .sections(let sectioning):
      var options = tableOptions
      options.sectioning = sectioning
      options.resultsUseOriginalSections = sectioning != .none
      rebuild(corpus: controller.corpus, tableOptions: options, what: "set sections")
      output.info("sections \(Self.describe(sectioning)) (\(controller.resultsState))")
      return
    case .fold(let folding):
      let locale = controller.corpus.normalizer.locale
      if renormalize(folding: folding, locale: locale, what: "set fold") {
        output.info("fold \(folding) (\(controller.resultsState))")
      }
      return
    case .locale(let locale):
      let folding = controller.corpus.normalizer.folding
      if renormalize(folding: folding, locale: locale, what: "set locale") {
        output.info("locale \(locale.isEmpty ? "root" : locale) (\(controller.resultsState))")
      }
      return
    }
    controller.configuration = configuration
  }

  /// Folds the model again with another normaliser (the index is rebuilt) and, for a new
  /// locale, collates the tables with it too.
  private func renormalize(folding: Folding, locale: String?, what: String) -> Bool {
    let locale = locale == "" ? nil : locale
    if controller.backend != nil {
      output.error(
        "\(what): the server's table is folded as it was loaded; load it again with SearchREPL load --fold … and restart with --backend"
      )
      return false
    }
    let corpus: SearchCorpus
    do {
      corpus = try SearchCorpus(
        model: controller.corpus.model,
        normalizer: try Normalizer(folding: folding, locale: locale))
    } catch {
      output.error("\(what): \(error)")
      return false
    }
    var options = tableOptions
    options.locale = locale ?? ""
    return rebuild(corpus: corpus, tableOptions: options, what: what)
  }

  /// A normaliser and table options are fixed for a controller's life, so changing them
  /// takes a new controller: made over the current model, with the bar's text, scope and
  /// focus restored before anyone observes it, so the restored state fires no events.
  ///
  /// A search the old controller was running is dropped; the new one runs it again (a background
  /// search reports its reload as usual).
  @discardableResult
  private func rebuild(
    corpus: SearchCorpus, tableOptions options: SearchController.TableOptions, what: String
  ) -> Bool {
    let old = controller
    let next: SearchController
    do {
      next = try SearchController(
        corpus: corpus, placeholder: old.placeholder, configuration: old.configuration,
        tableOptions: options, scheduler: TaskSearchScheduler(), backend: old.backend)
    } catch {
      output.error("\(what): \(error)")
      return false
    }
    if !old.searchBar.text.isEmpty { next.setText(old.searchBar.text) }
    if old.searchBar.selectedScope != 0 { try? next.selectScope(old.searchBar.selectedScope) }
    if !old.searchBar.filter.isEmpty { next.setFilter(old.searchBar.filter) }
    token = nil
    if old.searchBar.isActive {
      old.cancel()
      next.begin()
    }
    tableOptions = options
    controller = next
    lastShown = nil
    observe()
    return true
  }

  private static func describe(_ sectioning: SectionedTable.Sectioning) -> String {
    switch sectioning {
    case .none: "none"
    case .attribute(let name): name
    case .firstLetter(let field): "letter:\(field)"
    }
  }

  private func stats() {
    output.info(
      "stats: \(grouped(controller.corpus.model.count)) items, generation \(controller.generation),"
        + " state \(controller.resultsState), \(controller.discardedSearches) discarded searches,"
        + " \(controller.results?.items.count ?? 0) results")
  }

  private func help(_ name: String?) {
    guard let name else {
      // One line a command, so the list fits a 24-line screen; help COMMAND tells the rest.
      output.info("Commands (help COMMAND explains one):")
      for spec in REPLCommand.specs {
        let usage = spec.shortUsage
        let padding = String(repeating: " ", count: max(1, 32 - usage.count))
        output.info("  \(usage)\(padding)\(spec.brief)")
      }
      return
    }
    guard let spec = REPLCommand.spec(named: name.lowercased()) else {
      output.error(
        REPLCommandError.unknown(name, suggestion: REPLCommand.suggestion(for: name.lowercased()))
          .description)
      return
    }
    output.info("usage: \(spec.usage)")
    output.info("    \(spec.summary)")
  }
}
