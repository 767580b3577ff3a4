import SearchEngine

// The driver: feeds inputs to the state machine and performs its actions in order.

extension SearchController {
  // MARK: The driver

  func send(_ input: SearchStateMachine.Input, cause: SearchController.Update.Cause) {
    delivery.noteCause(cause)
    perform(machine.handle(input))
  }

  /// Performs actions in order; an action that feeds an input back performs the resulting
  /// actions before the rest.
  ///
  /// Events wait until the actions are done (or the delegate is asked a question), then go out with
  /// the update they make, if any.
  func perform(_ actions: [SearchStateMachine.Action]) {
    var queue = actions
    runs.newestGeneration.store(machine.generation)
    while !queue.isEmpty {
      let action = queue.removeFirst()
      var next: [SearchStateMachine.Action] = []
      switch action {
      case .emit(let event):
        emit(event)
      case .askDelegate(let trigger):
        deliver()  // the delegate hears of the change before it is asked about it
        next = machine.handle(.delegateAnswered(answer(trigger)))
      case .searchNow(let request):
        let outcome = search(request, isCancelled: { false })
        next = finish(request.generation, outcome)
      case .searchInBackground(let request):
        next = startInBackground(request)
      case .cancelSearch(let generation):
        // The newest generation moved: an in-memory search stops at its next chunk, a
        // backend's request is cancelled.
        runs.backendSearches.cancel(generation)
        batching.dropHeldSearch(generation)
      case .scheduleQuietInterval(let generation, let delay):
        scheduler.schedule(after: delay) { [weak self] in
          self?.send(.quietIntervalElapsed(generation: generation), cause: .searchFinished)
        }
      case .install(let generation):
        if let outcome = runs.takeFinished(generation) {
          tables.showResults(
            outcome.result, completions: outcome.completions, table: outcome.table,
            changes: outcome.changes)
          filter.record(outcome.result, itemBudget: IncrementalFilter.itemBudget(of: corpus))
          // Started before the order changed: laid out again, away from the main actor.
          if outcome.ranks != machine.configuration.ranksResults { reorderResults(inCall: false) }
        }
      case .discard(let generation):
        runs.discard(generation)
      case .clearResults:
        tables.clearResults(of: corpus.model)
      case .refreshResults(let generation):
        let rows = refreshResults()
        next = machine.handle(.resultsRefreshed(generation: generation, rows: rows))
        if let changes = delivery.takeResultsChanges() {
          emit(.resultsDidChange(changes, generation: generation))
        }
      }
      runs.newestGeneration.store(machine.generation)
      queue.insert(contentsOf: next, at: 0)
    }
    publish()
    deliver()
    for waiter in runs.takeIdleWaiters(searchPending: machine.isSearchPending) {
      waiter.resume()
    }
  }
}
