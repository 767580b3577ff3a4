import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

/// Where the REPL writes: events and errors go to standard output; everything else (tables,
/// details, help) too in text mode, but to standard error in JSON mode, so that standard
/// output stays one JSON event per line.
@MainActor
final class REPLOutput {
  let json: Bool
  /// Whether `ms` is written; `SEARCHREPL_NO_TIMING=1` turns it off for stable transcripts.
  let timing: Bool
  /// Whether updates are written (`--updates`).
  let updates: Bool

  /// The line editor of a session on a terminal: everything goes through it, so that a line
  /// printed while a prompt shows (a background search's reload) appears above the prompt.
  var console: InteractiveLineReader?

  init(json: Bool, timing: Bool, updates: Bool = false) {
    self.json = json
    self.timing = timing
    self.updates = updates
  }

  /// A line of the event stream.
  ///
  /// Each line is flushed as it is written: standard output on a pipe is block-buffered, and a
  /// program that drives the REPL reads each event as it comes, not all of them at exit.
  func event(_ line: String) {
    if let console {
      console.write(line + "\n")
    } else {
      print(line)
      Terminal.flushOutput()
    }
  }

  /// A line for a person: standard output in text mode, standard error in JSON mode.
  ///
  /// On a terminal, a line wider than the screen is wrapped between words.
  func info(_ line: String) {
    if let console {
      let width = RawTerminal.size.columns
      for piece in Self.wrapped(line, width: width) { console.write(piece + "\n") }
    } else if json {
      Terminal.write(line + "\n", to: FileHandle.standardError.fileDescriptor)
    } else if isatty(STDOUT_FILENO) != 0 {
      for piece in Self.wrapped(line, width: RawTerminal.size.columns) { print(piece) }
    } else {
      print(line)
      Terminal.flushOutput()  // as an event line: a reader on the pipe sees it now
    }
  }

  /// How many errors were written.
  private(set) var errorCount = 0

  /// Something the user asked for could not be done; the session goes on.
  func error(_ message: String) {
    errorCount += 1
    if json {
      var object = JSONObject()
      object.add("event", "error")
      object.add("message", message)
      event(object.json)
    } else {
      event(message)
    }
  }

  /// The prompt, without a newline; only on a terminal.
  func prompt(_ text: String) {
    if json {
      Terminal.write(text, to: FileHandle.standardError.fileDescriptor)
    } else {
      print(text, terminator: "")
      Terminal.flushOutput()
    }
  }

  /// A line cut between words into lines of at most `width` columns; the lines after the
  /// first are indented as the first, plus two columns.
  ///
  /// A word wider than a line is cut.
  nonisolated static func wrapped(_ line: String, width: Int) -> [String] {
    wrapping(line, width: width).map { String(repeating: " ", count: $0.indent) + line[$0.range] }
  }

  /// Where ``wrapped(_:width:)`` cuts a line: each line as the spaces it starts with and the
  /// range of `line` it shows (the spaces where a line was cut are in none).
  nonisolated static func wrapping(_ line: String, width: Int)
    -> [(indent: Int, range: Range<String.Index>)]
  {
    guard width > 8, columns(of: line) > width else {
      return [(0, line.startIndex..<line.endIndex)]
    }
    let lead = line.prefix { $0 == " " }.count
    var lines: [(indent: Int, range: Range<String.Index>)] = []
    var (indent, start, end, used) = (0, line.startIndex, line.startIndex, lead)
    var hasWord = false
    for word in line.split(separator: " ") {
      let gap = hasWord ? columns(of: line[end..<word.startIndex]) : 0
      if hasWord, used + gap + columns(of: word) > width {
        lines.append((indent, start..<end))
        (indent, start, used, hasWord) = (lead + 2, word.startIndex, lead + 2, false)
      }
      if hasWord { used += gap }
      var piece = word
      // A word too long for a line is cut, unless it holds SGR sequences (highlighted text),
      // which a cut could split: the terminal wraps it.
      while used + columns(of: piece) > width, !piece.contains("\u{1B}") {
        let (head, _) = ColumnWidth.prefix(of: piece, fitting: max(1, width - used))
        guard !head.isEmpty else { break }
        lines.append((indent, start..<head.endIndex))
        piece = piece[head.endIndex...]
        (indent, start, used) = (lead + 2, piece.startIndex, lead + 2)
      }
      used += columns(of: piece)
      end = word.endIndex
      hasWord = true
    }
    if hasWord { lines.append((indent, start..<end)) }
    return lines
  }

  /// The columns text takes on a terminal: SGR sequences (`ESC [ … m`, the highlights) take
  /// none.
  nonisolated static func columns(of text: some StringProtocol) -> Int {
    ColumnWidth.columns(of: withoutSGR(text))
  }

  /// The text without its SGR sequences (`ESC [ … m`): what a terminal shows of it.
  nonisolated static func withoutSGR(_ text: some StringProtocol) -> String {
    guard text.contains("\u{1B}") else { return String(text) }
    var result = ""
    var inSequence = false
    for character in text {
      if character == "\u{1B}" {
        inSequence = true
      } else if inSequence {
        if character == "m" { inSequence = false }
      } else {
        result.append(character)
      }
    }
    return result
  }

  /// Milliseconds rounded to microseconds, for JSON.
  static func milliseconds(_ duration: Duration) -> Double {
    (duration.milliseconds * 1000).rounded() / 1000
  }
}

/// Turns the controller's events into lines, text or JSON, in the order they happen.
///
/// A request's event (`text`, `scope`, `search`) is written when its call ends, not when
/// its decision arrives: an immediate search's reload comes later in the same call and its
/// row count belongs on the request's line, as does the call's wall time. Events that arrive
/// in between are held and written after it, so the request still comes first.
@MainActor
final class EventRenderer {
  /// What caused a request line.
  enum Cause {
    case text(String)
    case scope(Int)
    /// The tokens changed: their attribute conditions.
    case filter(AttributeFilter)
    case search
    /// The search began with text or a scope already set.
    case beginSearch
  }

  /// A request waiting for the end of its call.
  struct Request {
    var cause: Cause
    var reload: SearchEvent.Reload?
    var generation: Int?
    var rows: Int?
    var state: SearchController.ResultsTableState?
    /// Each scope's rows for the same text and tokens, when the scopes are counted.
    var scopeCounts: [Int?]?
  }

  private let output: REPLOutput
  /// The controller whose events these are; read for the bar and the items' text.
  weak var controller: SearchController?
  /// The display text of items about to be deleted: once deleted, the model has no text.
  var doomedText: [ItemID: String] = [:]

  private var pending: Request?
  private var held: [String] = []
  /// A rows state whose reload line, if it follows, says the same thing (text mode).
  private var heldState: SearchController.ResultsTableState?
  private var callStart: ContinuousClock.Instant?
  /// When each generation's request began, for the `ms` of its deferred reload.
  private var starts: [Int: ContinuousClock.Instant] = [:]
  private let clock = ContinuousClock()

  init(output: REPLOutput) { self.output = output }

  /// A controller call begins: its events form one group.
  func beginCall() {
    callStart = clock.now
  }

  /// The call ends: writes the pending request with the call's time, then what was held.
  func endCall() {
    let elapsed = callStart.map { clock.now - $0 }
    callStart = nil
    flushState()
    flushRequest(elapsed: elapsed)
    for line in heldUpdates { put(line) }
    heldUpdates = []
  }

  /// The updates of the call under way, in text mode.
  private var heldUpdates: [String] = []

  /// Renders one event.
  func handle(_ event: SearchEvent) {
    switch event {
    case .willBeginSearch, .willEndSearch, .willShowResultsTable, .willHideResultsTable:
      return
    case .update(let update):
      guard output.updates else { return }
      // In text, a call's update follows the lines of the call, written when it ends.
      if !output.json && callStart != nil {
        heldUpdates.append(updateLine(update))
      } else {
        flushState()
        put(updateLine(update))
      }
    case .didBeginSearch: simple("begin", text: "begin")
    case .didEndSearch: simple("end", text: "end")
    case .didLoadResultsTable: simple("load", text: "load results table")
    case .willUnloadResultsTable: simple("unload", text: "unload results table")
    case .didShowResultsTable: simple("show", text: "show results table")
    case .didHideResultsTable: simple("hide", text: "hide results table")
    case .cancelButtonClicked: simple("cancel", text: "cancel")
    case .textDidChange(let text):
      // While active a decision follows and carries the text; inactive, nothing follows.
      if controller?.searchBar.isActive == false {
        start(
          Request(
            cause: .text(text), reload: SearchEvent.Reload.none, generation: controller?.generation)
        )
      }
    case .scopeDidChange(let scope):
      if controller?.searchBar.isActive == false {
        start(
          Request(
            cause: .scope(scope), reload: SearchEvent.Reload.none,
            generation: controller?.generation))
      }
    case .filterDidChange(let filter):
      if controller?.searchBar.isActive == false {
        start(
          Request(
            cause: .filter(filter), reload: SearchEvent.Reload.none,
            generation: controller?.generation))
      }
    case .searchButtonClicked:
      start(Request(cause: .search))
    case .decision(let trigger, let reload, let generation):
      starts = starts.filter { $0.key > generation - 8 }
      starts[generation] = callStart ?? clock.now
      decide(trigger, reload: reload, generation: generation)
    case .reload(let reload, let generation, let rows):
      let state = controller?.resultsState ?? (rows == 0 ? .noResults : .rows(rows))
      // Events are delivered once their call is complete: the counts are this reload's.
      let counts = controller?.scopeCounts
      if var request = pending, request.generation == generation, request.rows == nil,
        request.reload == .now
      {
        heldState = nil
        request.rows = rows
        request.state = state
        request.scopeCounts = counts
        pending = request
      } else {
        heldState = nil
        put(reloadLine(reload, generation: generation, rows: rows, state: state, counts: counts))
        if !output.json, let counts { put(scopesLine(counts)) }
      }
    case .stateDidChange(let state):
      guard !output.json else { return }
      flushState()
      switch state {
      case .rows, .noResults: heldState = state
      default: put("state: \(state)")
      }
    case .resultsDidChange(let changes, _):
      if !output.json && !changes.isEmpty { put("results table: \(Self.summary(changes))") }
    case .originalDidChange(let changes):
      if !output.json && !changes.isEmpty { put("original table: \(Self.summary(changes))") }
    case .didSelect(let item, _): itemEvent("select", item)
    case .didInsert(let item): itemEvent("insert", item)
    case .didUpdate(let item): itemEvent("update", item)
    case .didDelete(let item): itemEvent("delete", item)
    case .error(let message):
      if output.json {
        var object = JSONObject()
        object.add("event", "error")
        object.add("message", message)
        put(object.json)
      } else {
        put("error: \(message)")
      }
    }
  }

  private func decide(_ trigger: SearchEvent.Trigger, reload: SearchEvent.Reload, generation: Int) {
    switch trigger {
    case .searchString(let text):
      start(Request(cause: .text(text), reload: reload, generation: generation))
    case .searchScope(let scope):
      start(Request(cause: .scope(scope), reload: reload, generation: generation))
    case .searchFilter(let filter):
      start(Request(cause: .filter(filter), reload: reload, generation: generation))
    case .searchButton:
      if var request = pending, case .search = request.cause, request.reload == nil {
        request.reload = reload
        request.generation = generation
        pending = request
      } else {
        start(Request(cause: .search, reload: reload, generation: generation))
      }
    case .begin:
      start(Request(cause: .beginSearch, reload: reload, generation: generation))
    }
  }

  // MARK: Lines

  /// An update: what a list front redraws, with its change set's counts.
  private func updateLine(_ update: SearchController.Update) -> String {
    let rows = controller?.table(update.table).numberOfRows ?? 0
    let changes = update.changes
    let counts: [(String, Int)] = [
      ("deletedSections", changes.deletedSections.count),
      ("insertedSections", changes.insertedSections.count),
      ("deleted", changes.deletedRows.count), ("inserted", changes.insertedRows.count),
      ("moved", changes.movedRows.count), ("reloaded", changes.updatedRows.count),
    ]
    guard output.json else {
      let parts = counts.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
      let tokens = update.filter.isEmpty ? "" : " " + Self.tokens(update.filter)
      return "update \(update.cause.rawValue) #\(update.generation) \"\(update.text)\"\(tokens): "
        + "\(update.table.rawValue) table, \(update.state)"
        + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
    }
    var object = JSONObject()
    object.add("event", "update")
    object.add("cause", update.cause.rawValue)
    object.add("generation", update.generation)
    object.add("text", update.text)
    object.add("scope", update.scope)
    object.add("tokens", raw: Self.tokensJSON(update.filter))
    if let scopeCounts = update.scopeCounts {
      object.add("scopeCounts", raw: Self.countsJSON(scopeCounts))
    }
    object.add("state", update.state.name)
    object.add("table", update.table.rawValue)
    object.add("rows", rows)
    for (key, count) in counts { object.add(key, count) }
    return object.json
  }

  private func simple(_ name: String, text: String) {
    if output.json {
      var object = JSONObject()
      object.add("event", name)
      put(object.json)
    } else {
      put(text)
    }
  }

  private func itemEvent(_ name: String, _ item: ItemID) {
    let text: String
    if let model = controller?.corpus.model, model.contains(item) {
      text = model.display(item)
    } else {
      text = doomedText.removeValue(forKey: item) ?? ""
    }
    if output.json {
      var object = JSONObject()
      object.add("event", name)
      object.add("item", Int(item.rawValue))
      object.add("text", text)
      put(object.json)
    } else {
      put("\(name) #\(item.rawValue) \(text)")
    }
  }

  /// The count of the results of a reload when a server sent only their first rows.
  private func partialResults(_ generation: Int) -> ResultCount? {
    guard let controller, controller.generation == generation,
      let results = controller.results, !results.isComplete
    else { return nil }
    return results.count
  }

  private func reloadLine(
    _ reload: SearchEvent.Reload, generation: Int, rows: Int,
    state: SearchController.ResultsTableState, counts: [Int?]?
  ) -> String {
    let elapsed = output.timing ? starts[generation].map { clock.now - $0 } : nil
    if output.json {
      var object = JSONObject()
      object.add("event", "reload")
      object.add("reload", reload.rawValue)
      object.add("generation", generation)
      object.add("rows", rows)
      if let partial = partialResults(generation) {
        object.add("count", partial.value)
        object.add("countExact", partial.isExact)
        object.add("more", true)
      }
      object.add("state", state.name)
      if let counts { object.add("scopeCounts", raw: Self.countsJSON(counts)) }
      if let elapsed { object.add("ms", REPLOutput.milliseconds(elapsed)) }
      return object.json
    }
    let of = partialResults(generation).map { " of \($0) (more loads the next page)" } ?? ""
    return "reload \(reload.rawValue) (generation \(generation)): \(Self.rows(rows))\(of)"
      + Self.time(elapsed)
  }

  private func requestLine(_ request: Request, elapsed: Duration?) -> String? {
    let elapsed = output.timing ? elapsed : nil
    if output.json {
      var object = JSONObject()
      switch request.cause {
      case .text(let text):
        object.add("event", "text")
        object.add("text", text)
      case .scope(let scope):
        object.add("event", "scope")
        object.add("scope", scope)
        object.add("scopeTitle", scopeTitle(scope))
      case .filter(let filter):
        object.add("event", "tokens")
        object.add("tokens", raw: Self.tokensJSON(filter))
      case .search:
        object.add("event", "search")
      case .beginSearch:
        // The search that began with text already set: only its reload is an event.
        guard request.reload == .now else { return nil }
        object.add("event", "reload")
      }
      object.add("reload", (request.reload ?? SearchEvent.Reload.none).rawValue)
      if let generation = request.generation { object.add("generation", generation) }
      if let rows = request.rows, let state = request.state {
        object.add("rows", rows)
        object.add("state", state.name)
        if let counts = request.scopeCounts {
          object.add("scopeCounts", raw: Self.countsJSON(counts))
        }
      }
      if let elapsed { object.add("ms", REPLOutput.milliseconds(elapsed)) }
      return object.json
    }
    let head: String
    switch request.cause {
    case .text(let text): head = "text \(Self.quoted(text))"
    case .scope(let scope): head = "scope \(scope) \(Self.quoted(scopeTitle(scope)))"
    case .filter(let filter): head = "tokens " + (filter.isEmpty ? "none" : Self.tokens(filter))
    case .search: head = "search"
    case .beginSearch: head = "search on begin"
    }
    var line = head + " → "
    switch request.reload ?? SearchEvent.Reload.none {
    case .now: line += "reload now"
    case .deferred: line += "reload deferred"
    case .none: line += "no reload"
    }
    if let generation = request.generation { line += " (generation \(generation))" }
    if let rows = request.rows { line += ": " + Self.rows(rows) }
    return line + Self.time(elapsed)
  }

  // MARK: Ordering

  private func start(_ request: Request) {
    flushState()
    flushRequest(elapsed: nil)
    pending = request
  }

  private func put(_ line: String) {
    flushState()
    if pending != nil { held.append(line) } else { output.event(line) }
  }

  private func flushState() {
    guard let state = heldState else { return }
    heldState = nil
    let line = "state: \(state)"
    if pending != nil { held.append(line) } else { output.event(line) }
  }

  private func flushRequest(elapsed: Duration?) {
    if let request = pending, let line = requestLine(request, elapsed: elapsed) {
      output.event(line)
      if !output.json, request.rows != nil, let counts = request.scopeCounts {
        output.event(scopesLine(counts))
      }
    }
    pending = nil
    for line in held { output.event(line) }
    held = []
  }

  // MARK: Formatting

  /// The scopes' counts in text: `scopes: All 1,204 · Europe 310 · …`; a scope that is not
  /// counted (it restricts the fields searched) is left out.
  private func scopesLine(_ counts: [Int?]) -> String {
    let parts = counts.enumerated().compactMap { scope, count in
      count.map { "\(scopeTitle(scope)) \(grouped($0))" }
    }
    return "scopes: " + parts.joined(separator: " · ")
  }

  /// The tokens' conditions as the command line writes them, in one stable order.
  static func tokens(_ filter: AttributeFilter) -> String {
    filter.conditions.map(\.description).sorted().joined(separator: " ")
  }

  /// The tokens' conditions as a JSON array of strings, in one stable order.
  static func tokensJSON(_ filter: AttributeFilter) -> String {
    JSONObject.array(filter.conditions.map(\.description).sorted().map(JSONObject.quoted))
  }

  /// Counts by scope as a JSON array: null for a scope that is not counted.
  static func countsJSON(_ counts: [Int?]) -> String {
    JSONObject.array(counts.map { $0.map(String.init) ?? "null" })
  }

  private func scopeTitle(_ scope: Int) -> String {
    let titles = controller?.searchBar.scopeTitles ?? []
    return titles.indices.contains(scope) ? titles[scope] : ""
  }

  static func rows(_ count: Int) -> String {
    switch count {
    case 0: "no results"
    case 1: "1 row"
    default: "\(grouped(count)) rows"
    }
  }

  private static func time(_ elapsed: Duration?) -> String {
    guard let elapsed else { return "" }
    return String(format: " (%.2f ms)", elapsed.milliseconds)
  }

  /// Text in double quotes, with quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String { JSONObject.quoted(text) }

  /// A table change as the paths UIKit's batch update would get: "deleted 1.5; inserted 0.2".
  static func summary(_ changes: TableChanges) -> String {
    var parts: [String] = []
    func paths(_ name: String, _ list: [String]) {
      if !list.isEmpty { parts.append(name + " " + list.joined(separator: ", ")) }
    }
    paths("deleted sections", changes.deletedSections.map(String.init))
    paths("inserted sections", changes.insertedSections.map(String.init))
    paths("deleted", changes.deletedRows.map(\.description))
    paths("inserted", changes.insertedRows.map(\.description))
    paths("moved", changes.movedRows.map(\.description))
    paths("updated", changes.updatedRows.map(\.description))
    return parts.joined(separator: "; ")
  }
}

/// A count with thousands separators: 34,006.
func grouped(_ count: Int) -> String {
  let digits = String(count.magnitude)
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
    result.append(digit)
  }
  return count < 0 ? "-" + result : result
}
