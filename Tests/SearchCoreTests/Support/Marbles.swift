import SearchCore

/// Drives a search controller from a marble string and writes its events compactly, so that
/// a test reads as a timeline: `"b t=mac +100 r"` in, `"wb db text(mac) …"` out.
///
/// Inputs, separated by spaces: `b` begin, `t=TEXT` set the whole text (`t=` empties it),
/// `s=N` select scope N, `S` search button, `X` cancel, `E` end, `+MS` advance the manual
/// clock, `r` run the next background search, `R` run them all.
///
/// Events: `wb` `db` `we` `de` will/did begin and end, `load` `unload`, `show+` `show`
/// `hide+` `hide` (will/did), `text(T)`, `scope(N)`, `button`, `cancel`,
/// `?TRIGGER=RELOAD#GEN` a decision (TRIGGER `"text"`, `@N`, `!` button, `^` begin),
/// `reload(RELOAD,#GEN,ROWS)`, `[STATE]` a state change (`[rows 5]`, `[below 2]`),
/// `+ID` `~ID` `-ID` insert, update, delete, `orig{…}` `res#GEN{…}` table changes.
@MainActor
final class Marbles {
  let controller: SearchController
  let scheduler: ManualSearchScheduler
  var events: [String] = []
  private var token: ObservationToken?

  init(
    corpus: SearchCorpus, configuration: SearchConfiguration = SearchConfiguration(),
    tableOptions: SearchController.TableOptions = SearchController.TableOptions()
  ) throws {
    scheduler = ManualSearchScheduler()
    controller = try SearchController(
      corpus: corpus, configuration: configuration, tableOptions: tableOptions,
      scheduler: scheduler)
    token = controller.observe { [weak self] in self?.events.append(Self.compact($0)) }
  }

  /// Runs the inputs and returns the events they caused, joined by spaces.
  func run(_ marbles: String) throws -> String {
    events = []
    for token in marbles.split(separator: " ") {
      switch token.first {
      case "b": controller.begin()
      case "t": controller.setText(String(token.dropFirst(2)))
      case "s": try controller.selectScope(Int(token.dropFirst(2)) ?? -1)
      case "S": controller.clickSearchButton()
      case "X": controller.cancel()
      case "E": controller.end()
      case "+": scheduler.advance(by: .milliseconds(Int(token.dropFirst()) ?? 0))
      case "r": scheduler.runNextSearch()
      case "R": scheduler.runAllSearches()
      default: preconditionFailure("unknown marble \(token)")
      }
    }
    return events.joined(separator: " ")
  }

  static func compact(_ event: SearchEvent) -> String {
    switch event {
    case .willBeginSearch: "wb"
    case .didBeginSearch: "db"
    case .willEndSearch: "we"
    case .didEndSearch: "de"
    case .didLoadResultsTable: "load"
    case .willUnloadResultsTable: "unload"
    case .willShowResultsTable: "show+"
    case .didShowResultsTable: "show"
    case .willHideResultsTable: "hide+"
    case .didHideResultsTable: "hide"
    case .textDidChange(let text): "text(\(text))"
    case .scopeDidChange(let scope): "scope(\(scope))"
    case .searchButtonClicked: "button"
    case .cancelButtonClicked: "cancel"
    case .decision(let trigger, let reload, let generation):
      "?\(compact(trigger))=\(reload.rawValue)#\(generation)"
    case .reload(let reload, let generation, let rows):
      "reload(\(reload.rawValue),#\(generation),\(rows))"
    case .stateDidChange(let state): "[\(compact(state))]"
    case .resultsDidChange(let changes, let generation): "res#\(generation){\(compact(changes))}"
    case .originalDidChange(let changes): "orig{\(compact(changes))}"
    case .didSelect(let item, let table): "select(\(table.rawValue),\(item.rawValue))"
    case .didInsert(let item): "+\(item.rawValue)"
    case .didUpdate(let item): "~\(item.rawValue)"
    case .didDelete(let item): "-\(item.rawValue)"
    case .error(let message): "error(\(message))"
    }
  }

  static func compact(_ trigger: SearchTrigger) -> String {
    switch trigger {
    case .searchString(let text): "\"\(text)\""
    case .searchScope(let scope): "@\(scope)"
    case .searchButton: "!"
    case .begin: "^"
    }
  }

  static func compact(_ state: ResultsTableState) -> String {
    switch state {
    case .rows(let count): "rows \(count)"
    case .belowThreshold(let missing): "below \(missing)"
    default: state.name
    }
  }

  /// `ins 0.4 del 0.1 mov 0.1>0.2 upd 0.3`, parts left out when empty.
  static func compact(_ changes: TableChanges) -> String {
    var parts: [String] = []
    if !changes.deletedSections.isEmpty { parts.append("delsec \(changes.deletedSections)") }
    if !changes.insertedSections.isEmpty { parts.append("inssec \(changes.insertedSections)") }
    for path in changes.deletedRows { parts.append("del \(path)") }
    for path in changes.insertedRows { parts.append("ins \(path)") }
    for move in changes.movedRows { parts.append("mov \(move.from)>\(move.to)") }
    for path in changes.updatedRows { parts.append("upd \(path)") }
    return parts.joined(separator: " ")
  }
}
