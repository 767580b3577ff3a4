import SearchEngine

// What a front reads of the controller: the bar, the configuration, the state and the tables.

extension SearchController {
  // MARK: State

  /// The search bar's hint while its text is empty ("Search 34,006 cities"): a front that
  /// shows a count sets it again when the count changes.
  ///
  /// It changes no state and fires no event.
  public var placeholder: String {
    get { machine.bar.placeholder }
    set { machine.bar.placeholder = newValue }
  }

  /// The search bar: text, placeholder, scope titles, selected scope, active.
  public var searchBar: SearchController.SearchBarState { machine.bar }

  /// When and how searches run.
  ///
  /// A change of ``SearchConfiguration/ranksResults`` re-orders the results on screen (an
  /// update with the cause ``SearchController/Update/Cause/orderChanged``): inside the call in
  /// the immediate mode, else in the background, as a search runs; other changes apply from the
  /// next request.
  public var configuration: SearchConfiguration {
    get { machine.configuration }
    set {
      let reorders = newValue.ranksResults != machine.configuration.ranksResults
      machine.configuration = newValue
      buildWordIndexInBackground()
      if reorders { reorderResults(inCall: newValue.mode == .immediate) }
    }
  }

  /// Lays the displayed results out again in the order the configuration asks for: inside
  /// the call, or in the background, then shown unless other results or another order came
  /// first.
  func reorderResults(inCall: Bool) {
    guard let shown = results else { return }
    let (layout, corpus, ranks) = (resultsLayout, corpus, machine.configuration.ranksResults)
    let version = tables.resultsVersion
    // The same items as the table on screen, which was laid out with the same layout: it
    // cannot fail; if it did, the old order would stay.
    let work = { @Sendable in try? layout.resultsTable(shown, corpus: corpus, ranks: ranks) }
    let install = { @MainActor (controller: SearchController, table: SectionedTable?) in
      guard let table, controller.tables.resultsVersion == version,
        controller.machine.configuration.ranksResults == ranks
      else { return }
      controller.tables.reorderResults(table)
      controller.delivery.noteCause(.orderChanged)
    }
    if inCall {
      install(self, work())
      perform([])
    } else {
      runs.started()
      scheduler.runInBackground(work) { [weak self] table in
        guard let self else { return }
        self.runs.returned()
        install(self, table)
        self.perform([])  // sends the update, if any, and hands out idle waiters
      }
    }
  }

  /// What the results table shows.
  public var resultsState: SearchController.ResultsTableState { machine.state }

  /// The newest request's generation.
  public var generation: Int { machine.generation }

  /// Whether a search runs or waits for its quiet interval.
  public var isSearchPending: Bool { machine.isSearchPending }

  /// The table a front shows now: the results table while it is on screen, else the original.
  public var visibleTable: SearchController.TableKind {
    machine.state.showsResultsTable ? .results : .original
  }

  /// One of the two tables.
  public func table(_ kind: SearchController.TableKind) -> SectionedTable {
    tables.table(kind)
  }
}
