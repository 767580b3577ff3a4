import SearchEngine

// Paging a backend's answer: the first page of a background search, then more as the list
// scrolls (SearchConfiguration.backendPageSize).

extension SearchController {
  /// Whether the results on screen are the first rows of a backend's answer, with more to
  /// load (``loadMoreResults()``).
  ///
  /// Their ``/SearchEngine/SearchResult/count`` says how many match in all.
  public var hasMoreResults: Bool { results.map { !$0.isComplete } ?? false }

  /// Asks the backend for the next page of the results on screen, when it sent only their
  /// first rows (``hasMoreResults``): call it as the list scrolls near its last row.
  ///
  /// The rows come in a deferred reload whose change set inserts them (a search of the same query
  /// under a new generation, for one more page than the list shows); the rows on screen stay until
  /// then. Does nothing when every result is shown, or while a search runs (its rows replace these
  /// anyway).
  public func loadMoreResults() {
    guard let shown = results, !shown.isComplete, !machine.isSearchPending,
      let page = machine.configuration.backendPageSize
    else { return }
    runs.loadMore(generation: machine.generation + 1, limit: shown.items.count + page)
    send(.loadMore, cause: .searchFinished)
  }
}
