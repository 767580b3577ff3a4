import SearchEngine

// The driver: feeds inputs to the state machine and performs its actions in order.

extension SearchController {
  // MARK: The driver

  func send(_ input: SearchStateMachine.Input, cause: SearchController.Update.Cause) {
    self.cause = cause
    perform(machine.handle(input))
  }

  /// Performs actions in order; an action that feeds an input back performs the resulting
  /// actions before the rest.
  ///
  /// Events wait until the actions are done (or the delegate is asked a question), then go out with
  /// the update they make, if any.
  func perform(_ actions: [SearchStateMachine.Action]) {
    var queue = actions
    newestGeneration.store(machine.generation)
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
        backendSearches.cancel(generation)
        if heldSearch?.generation == generation { heldSearch = nil }
      case .scheduleQuietInterval(let generation, let delay):
        scheduler.schedule(after: delay) { [weak self] in
          self?.send(.quietIntervalElapsed(generation: generation), cause: .searchFinished)
        }
      case .install(let generation):
        if let outcome = finished.removeValue(forKey: generation) {
          results = outcome.result
          completions = outcome.completions
          let oldVersion = versions.results
          resultsTable = outcome.table
          if let known = outcome.changes, known.from == oldVersion {
            knownResultsStep = (oldVersion, versions.results, known.changes)
          }
          filter.record(outcome.result, itemBudget: IncrementalFilter.itemBudget(of: corpus))
        }
      case .discard(let generation):
        finished[generation] = nil
        discardedSearches += 1
      case .clearResults:
        results = nil
        completions = []
        if resultsTable.numberOfRows > 0 || resultsTable.numberOfSections != 1 {
          let old = resultsTable
          let oldVersion = versions.results
          resultsTable = emptyResultsTable()
          knownResultsStep = (oldVersion, versions.results, TableChanges.emptying(old))
        }
      case .refreshResults(let generation):
        let rows = refreshResults()
        next = machine.handle(.resultsRefreshed(generation: generation, rows: rows))
        if let changes = pendingResultsChanges {
          pendingResultsChanges = nil
          emit(.resultsDidChange(changes, generation: generation))
        }
      }
      newestGeneration.store(machine.generation)
      queue.insert(contentsOf: next, at: 0)
    }
    publish()
    deliver()
    if isIdle && !idleWaiters.isEmpty {
      let waiters = idleWaiters
      idleWaiters = []
      for waiter in waiters { waiter.resume() }
    }
  }

  private func emptyResultsTable() -> SectionedTable {
    // An empty flat table needs no name and no collator: it cannot fail.
    (try? resultsLayout.table([], of: corpus.model)) ?? resultsTable
  }
}
