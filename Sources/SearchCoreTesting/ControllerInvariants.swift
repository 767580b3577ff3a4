import SearchCore

/// Watches a controller's events and records every break of the promises a front relies on,
/// however the keystrokes, model changes and background searches interleave.
///
/// - A reload belongs to the newest generation when it arrives, and says the results table's
///   row count.
/// - Each update's change set, applied to a ``TableMirror``, keeps it equal to the table the
///   update names, and a generation names one set of rows.
/// - No reload arrives after ``end()`` (call it right after `cancel()`).
///
/// ```swift
/// let invariants = ControllerInvariants(watching: controller)
/// // … type, change the model, cancel …
/// invariants.end()
/// await controller.waitUntilIdle()
/// #expect(invariants.problems == [])
/// ```
@MainActor
public final class ControllerInvariants {
  /// Every broken promise, in order, one sentence each.
  public private(set) var problems: [String] = []
  /// The reloads seen.
  public private(set) var reloads = 0
  /// The updates seen.
  public private(set) var updates = 0
  /// The messages of the error events seen.
  public private(set) var errors: [String] = []

  private var ended = false
  private var mirror: TableMirror
  private var rowsOfGeneration: [Int: [SectionedTable.Section]] = [:]
  private var token: SearchController.ObservationToken?

  /// Starts watching `controller`; it stops when this object goes.
  public init(watching controller: SearchController) {
    mirror = TableMirror(controller.originalTable)
    token = controller.observe { [weak self, unowned controller] event in
      self?.receive(event, from: controller)
    }
  }

  /// Marks the end of the session: a reload after this is a problem.
  public func end() { ended = true }

  private func receive(_ event: SearchEvent, from controller: SearchController) {
    switch event {
    case .update(let update):
      updates += 1
      let table = controller.table(update.table)
      mirror.apply(update.changes, new: table)
      if !mirror.problems.isEmpty {
        problems += mirror.problems.map { "update #\(update.generation): \($0)" }
        mirror = TableMirror(table)
      } else if mirror.sections != table.sections {
        problems.append("the mirror differs from the table after update #\(update.generation)")
        mirror = TableMirror(table)
      }
      if let seen = rowsOfGeneration[update.generation], seen != table.sections {
        problems.append("generation #\(update.generation) names two sets of rows")
      }
      rowsOfGeneration[update.generation] = table.sections
    case .reload(_, let generation, let rows):
      reloads += 1
      if ended { problems.append("reload #\(generation) after the end") }
      if generation != controller.generation {
        problems.append("reload #\(generation) while #\(controller.generation) is newest")
      }
      if rows != controller.resultsTable.numberOfRows {
        problems.append("reload #\(generation) says \(rows) rows, the table has another count")
      }
    case .error(let message):
      errors.append(message)
    default:
      break
    }
  }
}
