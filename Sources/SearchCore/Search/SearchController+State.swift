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
  /// A change of ``SearchConfiguration/ranksResults`` re-orders the results on screen at once
  /// (an update with the cause ``SearchController/Update/Cause/orderChanged``); other changes apply
  /// from the next request.
  public var configuration: SearchConfiguration {
    get { machine.configuration }
    set {
      let reorders = newValue.ranksResults != machine.configuration.ranksResults
      machine.configuration = newValue
      buildWordIndexInBackground()
      if reorders { reorderResults() }
    }
  }

  /// Lays the displayed results out again in the order the configuration asks for.
  private func reorderResults() {
    guard let shown = results else { return }
    // The same items as the table on screen, which was laid out with the same layout: it
    // cannot fail; if it did, the old order would stay.
    guard
      let table = try? resultsLayout.resultsTable(
        shown, corpus: corpus, ranks: machine.configuration.ranksResults)
    else { return }
    tables.reorderResults(table)
    delivery.noteCause(.orderChanged)
    perform([])
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
