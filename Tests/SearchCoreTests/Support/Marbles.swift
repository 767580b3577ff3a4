import SearchCoreTesting
import Testing

@testable import SearchCore
@testable import SearchEngine

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
///
/// Updates (``SearchEvent/update(_:)``) are kept apart, in ``updates``, as
/// `u(CAUSE,#GEN,"TEXT"@SCOPE,STATE,TABLE){CHANGES}`. Every update's change set is applied to
/// a mirror of the rows on screen, which must then equal the visible table; and at every
/// event the results table must agree with the state, and two updates of one generation must
/// show the same rows: a test that drives a controller through `Marbles` checks all three
/// without saying so.
@MainActor
final class Marbles {
  let controller: SearchController
  let scheduler: ManualSearchScheduler
  var events: [String] = []
  var updates: [String] = []
  private(set) var mirror: TableMirror
  /// The rows of every generation an update reported.
  private var rowsOfGeneration: [Int: Set<ItemID>] = [:]
  private var token: SearchController.ObservationToken?

  init(
    corpus: SearchCorpus, configuration: SearchConfiguration = SearchConfiguration(),
    tableOptions: SearchController.TableOptions = SearchController.TableOptions()
  ) throws {
    scheduler = ManualSearchScheduler()
    controller = try SearchController(
      corpus: corpus, configuration: configuration, tableOptions: tableOptions,
      scheduler: scheduler)
    mirror = TableMirror(controller.originalTable)
    token = controller.observe { [weak self] event in self?.receive(event) }
  }

  private func receive(_ event: SearchEvent) {
    let rows = controller.resultsTable.numberOfRows
    switch controller.resultsState {
    case .rows(let count): #expect(rows == count, "results table agrees with the state")
    default: #expect(rows == 0, "an empty results table in state \(controller.resultsState)")
    }
    guard case .update(let update) = event else {
      events.append(Self.compact(event))
      return
    }
    #expect(update.table == controller.visibleTable)
    #expect(update.state == controller.resultsState)
    mirror.apply(update.changes, new: controller.table(update.table))
    #expect(mirror.problems == [], "UIKit would reject \(Self.compact(update))")
    #expect(
      mirror.sections == controller.table(update.table).sections,
      "the mirror equals the visible table after \(Self.compact(update))")
    // A generation names one set of rows (turning ranking on or off re-orders them).
    let shown = Set(controller.table(update.table).sections.flatMap(\.items))
    if let seen = rowsOfGeneration[update.generation] {
      #expect(
        seen.symmetricDifference(shown).isEmpty,
        "generation #\(update.generation) names two sets of rows")
    }
    rowsOfGeneration[update.generation] = shown
    updates.append(Self.compact(update))
  }

  static func compact(_ update: SearchController.Update) -> String {
    "u(\(update.cause.rawValue),#\(update.generation),\"\(update.text)\"@\(update.scope),"
      + "\(compact(update.state)),\(update.table.rawValue)){\(compact(update.changes))}"
  }

  /// Runs the inputs and returns the events they caused, joined by spaces.
  func run(_ marbles: String) throws -> String {
    events = []
    updates = []
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
    case .filterDidChange(let filter): "tokens(\(filter.conditions.map(\.description).sorted()))"
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
    case .update(let update): compact(update)
    }
  }

  static func compact(_ trigger: SearchEvent.Trigger) -> String {
    switch trigger {
    case .searchString(let text): "\"\(text)\""
    case .searchScope(let scope): "@\(scope)"
    case .searchFilter(let filter): "&\(filter.conditions.count)"
    case .searchButton: "!"
    case .begin: "^"
    }
  }

  static func compact(_ state: SearchController.ResultsTableState) -> String {
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
