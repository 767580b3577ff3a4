import SearchEngine

// The search bar's inputs (begin, text, scope, search button, cancel, end) and the delegate's
// answers to whether they reload.

extension SearchController {
  // MARK: The search bar

  /// The bar gets focus: will-begin, active, did-begin.
  public func begin() { send(.begin, cause: .began) }

  /// Sets the text (a keystroke, a paste or code): text-did-change, then the reload decision.
  public func setText(_ text: String) { send(.setText(text), cause: .textChanged) }

  /// Selects a scope button: scope-did-change, then the reload decision.
  ///
  /// - Throws: ``SearchController/Error/noSuchScope(_:titles:)`` for an index outside the bar.
  public func selectScope(_ scope: Int) throws(SearchController.Error) {
    guard machine.bar.scopeTitles.indices.contains(scope) else {
      throw .noSuchScope(String(scope), titles: machine.bar.scopeTitles)
    }
    send(.selectScope(scope), cause: .scopeChanged)
  }

  /// Sets the tokens in the field, as their attribute conditions (``ItemSearch/tokens`` sets
  /// them from the app's tokens): filter-did-change, then the reload decision.
  ///
  /// A token added narrows the results, a token removed widens them; either is a new search, as a
  /// scope is.
  public func setFilter(_ filter: AttributeFilter) {
    send(.setFilter(filter), cause: .filterChanged)
  }

  /// Presses the search button; in the search-button-only mode this runs the search.
  public func clickSearchButton() { send(.searchButton, cause: .searchButton) }

  /// Presses cancel: the search ends, its running search is dropped, the text is cleared.
  public func cancel() { send(.cancel, cause: .ended) }

  /// Ends the search without the cancel button; the text stays.
  public func end() { send(.end, cause: .ended) }

  // MARK: The delegate's reload decisions

  func answer(_ trigger: SearchEvent.Trigger) -> SearchEvent.Reload? {
    guard let delegate else { return nil }
    switch trigger {
    case .searchString(let text):
      return delegate.searchController(self, shouldReloadForSearchString: text)
    case .searchScope(let scope):
      return delegate.searchController(self, shouldReloadForSearchScope: scope)
    case .searchFilter(let filter):
      return delegate.searchController(self, shouldReloadForSearchFilter: filter)
    case .begin:
      return delegate.searchController(self, shouldReloadForSearchString: machine.bar.text)
    case .searchButton:
      return nil
    }
  }
}
