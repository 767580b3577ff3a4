import SearchEngine

// Updates and event delivery: what changed on screen since the last update, and the events of a
// call sent in order once its changes are complete.

extension SearchController {
  // MARK: Updates

  /// Adds an update to the events of the call when what is on screen changed since the last
  /// one: the rows, the state, or the text or scope they answer (below the minimum length,
  /// "a" then "b" leaves the rows and the hint as they were, but not the text).
  func publish() {
    let kind = visibleTable
    let state = machine.state
    let request = machine.displayed
    let screen = UpdateDelivery.Screen(
      table: kind, version: tables.version(kind), snapshot: tables.table(kind), state: state,
      request: request)
    guard let publication = delivery.publish(screen, knownStep: tables.knownStep(kind)) else {
      return
    }
    // The machine's displayed request names the rows: a generation labels one set of rows.
    let update = SearchController.Update(
      cause: publication.cause, generation: request.generation, text: request.text,
      scope: request.scope, filter: request.filter, scopeCounts: scopeCounts,
      completions: visibleTable == .results ? completions : [], state: state,
      table: kind, previousTable: publication.previousTable,
      originalChanges: publication.originalChanges, changes: publication.diff)
    emit(.update(update))
  }

  /// With ``SearchConfiguration/countsScopes``: how many rows each scope of the bar would
  /// show for the rows on screen, by scope index ("All" first).
  ///
  /// For results, the counts their search made for the same text and tokens; for the whole list,
  /// the size of each scope. nil when the scopes are not counted (the configuration, or a backend),
  /// or when no results are shown for the text (below the minimum length). A scope that restricts
  /// the fields searched and is not selected has no count (nil): its results are not a part of
  /// "All"'s.
  public var scopeCounts: [Int?]? {
    guard machine.configuration.countsScopes, backend == nil else { return nil }
    switch visibleTable {
    case .results: return results?.scopeCounts
    case .original:
      if case .belowThreshold = machine.state { return nil }
      return corpus.scopeSizes()
    }
  }

  // MARK: Events

  /// Queues an event of the call under way; ``deliver()`` sends it.
  func emit(_ event: SearchEvent) {
    delivery.emit(event)
  }

  /// Sends the queued events in order.
  ///
  /// An observer that changes the controller while it hears of an event queues that call's events
  /// behind the rest, so the order holds.
  func deliver() {
    guard delivery.beginDelivery() else { return }
    let observers = delivery.observers
    while let event = delivery.nextEvent() {
      delegate?.receive(event, from: self)
      observers.send(event)
    }
    delivery.endDelivery()
  }
}
