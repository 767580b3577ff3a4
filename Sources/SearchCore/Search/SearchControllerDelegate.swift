import SearchEngine

/// The delegate of a ``SearchController``: the two reload decisions of UIKit's
/// `UISearchDisplayDelegate` and the lifecycle callbacks of it and of `UISearchBarDelegate`.
///
/// Every method has a default: the decisions return nil (the controller's default policy
/// decides, see ``SearchConfiguration``), the callbacks do nothing.
@MainActor
public protocol SearchControllerDelegate: AnyObject {
  /// `shouldReloadTableForSearchString`: the text changed; return ``SearchEvent/Reload/now`` to search
  /// and reload inside this call (*yes*), ``SearchEvent/Reload/deferred`` to search in the background and
  /// reload when it finishes (*no*), ``SearchEvent/Reload/none`` to run no search (*no*), or nil for the
  /// default policy.
  func searchController(_ controller: SearchController, shouldReloadForSearchString text: String)
    -> SearchEvent.Reload?
  /// `shouldReloadTableForSearchScope`: the scope changed; answers as for the text.
  func searchController(_ controller: SearchController, shouldReloadForSearchScope scope: Int)
    -> SearchEvent.Reload?
  /// The tokens in the field changed (their attribute conditions); answers as for the scope.
  func searchController(
    _ controller: SearchController, shouldReloadForSearchFilter filter: AttributeFilter
  ) -> SearchEvent.Reload?
  /// The bar is about to get focus.
  func searchControllerWillBeginSearch(_ controller: SearchController)
  /// The search is active.
  func searchControllerDidBeginSearch(_ controller: SearchController)
  /// The search is about to end.
  func searchControllerWillEndSearch(_ controller: SearchController)
  /// The search ended.
  func searchControllerDidEndSearch(_ controller: SearchController)
  /// The results table was created.
  func searchControllerDidLoadResultsTable(_ controller: SearchController)
  /// The results table is about to be released.
  func searchControllerWillUnloadResultsTable(_ controller: SearchController)
  /// The results table is about to appear.
  func searchControllerWillShowResultsTable(_ controller: SearchController)
  /// The results table appeared.
  func searchControllerDidShowResultsTable(_ controller: SearchController)
  /// The results table is about to disappear.
  func searchControllerWillHideResultsTable(_ controller: SearchController)
  /// The results table disappeared.
  func searchControllerDidHideResultsTable(_ controller: SearchController)
  /// The text changed (`searchBar:textDidChange:`).
  func searchController(_ controller: SearchController, textDidChange text: String)
  /// The scope changed (`searchBar:selectedScopeButtonIndexDidChange:`).
  func searchController(_ controller: SearchController, scopeDidChange scope: Int)
  /// The tokens in the field changed: their attribute conditions.
  func searchController(_ controller: SearchController, filterDidChange filter: AttributeFilter)
  /// The search button was pressed (`searchBarSearchButtonClicked:`).
  func searchControllerSearchButtonClicked(_ controller: SearchController)
  /// The cancel button was pressed (`searchBarCancelButtonClicked:`).
  func searchControllerCancelButtonClicked(_ controller: SearchController)
}

extension SearchControllerDelegate {
  /// The default: nil, the controller's policy decides.
  public func searchController(
    _ controller: SearchController, shouldReloadForSearchString text: String
  ) -> SearchEvent.Reload? { nil }
  /// The default: nil, the controller's policy decides.
  public func searchController(
    _ controller: SearchController, shouldReloadForSearchScope scope: Int
  )
    -> SearchEvent.Reload?
  { nil }
  /// The default: nil, the controller's policy decides.
  public func searchController(
    _ controller: SearchController, shouldReloadForSearchFilter filter: AttributeFilter
  ) -> SearchEvent.Reload? { nil }
  /// Does nothing.
  public func searchControllerWillBeginSearch(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerDidBeginSearch(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerWillEndSearch(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerDidEndSearch(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerDidLoadResultsTable(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerWillUnloadResultsTable(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerWillShowResultsTable(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerDidShowResultsTable(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerWillHideResultsTable(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerDidHideResultsTable(_ controller: SearchController) {}
  /// Does nothing.
  public func searchController(_ controller: SearchController, textDidChange text: String) {}
  /// Does nothing.
  public func searchController(_ controller: SearchController, scopeDidChange scope: Int) {}
  /// Does nothing.
  public func searchController(
    _ controller: SearchController, filterDidChange filter: AttributeFilter
  ) {}
  /// Does nothing.
  public func searchControllerSearchButtonClicked(_ controller: SearchController) {}
  /// Does nothing.
  public func searchControllerCancelButtonClicked(_ controller: SearchController) {}
}

extension SearchControllerDelegate {
  /// Calls the callback that matches a lifecycle event; other events have none.
  func receive(_ event: SearchEvent, from controller: SearchController) {
    switch event {
    case .willBeginSearch: searchControllerWillBeginSearch(controller)
    case .didBeginSearch: searchControllerDidBeginSearch(controller)
    case .willEndSearch: searchControllerWillEndSearch(controller)
    case .didEndSearch: searchControllerDidEndSearch(controller)
    case .didLoadResultsTable: searchControllerDidLoadResultsTable(controller)
    case .willUnloadResultsTable: searchControllerWillUnloadResultsTable(controller)
    case .willShowResultsTable: searchControllerWillShowResultsTable(controller)
    case .didShowResultsTable: searchControllerDidShowResultsTable(controller)
    case .willHideResultsTable: searchControllerWillHideResultsTable(controller)
    case .didHideResultsTable: searchControllerDidHideResultsTable(controller)
    case .textDidChange(let text): searchController(controller, textDidChange: text)
    case .scopeDidChange(let scope): searchController(controller, scopeDidChange: scope)
    case .filterDidChange(let filter): searchController(controller, filterDidChange: filter)
    case .searchButtonClicked: searchControllerSearchButtonClicked(controller)
    case .cancelButtonClicked: searchControllerCancelButtonClicked(controller)
    case .decision, .reload, .stateDidChange, .resultsDidChange, .originalDidChange, .didSelect,
      .didInsert, .didUpdate, .didDelete, .update, .error:
      break
    }
  }
}
