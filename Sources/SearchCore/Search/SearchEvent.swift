import SearchEngine

/// Something a search controller did, in the order it happened: what observers, the REPL's
/// JSON lines and the tests see.
///
/// The lifecycle events are those of UIKit's `UISearchDisplayDelegate` and
/// `UISearchBarDelegate`; ``decision(_:reload:generation:)`` is the answer to
/// `shouldReloadTableForSearchString` / `shouldReloadTableForSearchScope`, and
/// ``reload(_:generation:rows:)`` is the results table reloading.
public enum SearchEvent: Hashable, Sendable {
  /// The bar is about to get focus.
  case willBeginSearch
  /// The search is active.
  case didBeginSearch
  /// The search is about to end.
  case willEndSearch
  /// The search ended; the original table shows. Nothing of that search arrives after this.
  case didEndSearch
  /// The results table was created (first shown in a search).
  case didLoadResultsTable
  /// The results table is about to be released (the search ends).
  case willUnloadResultsTable
  /// The results table is about to appear over the original one.
  case willShowResultsTable
  /// The results table appeared.
  case didShowResultsTable
  /// The results table is about to disappear.
  case willHideResultsTable
  /// The results table disappeared.
  case didHideResultsTable
  /// The search text changed: typed, pasted, or set in code.
  case textDidChange(String)
  /// Another scope button was selected.
  case scopeDidChange(Int)
  /// The tokens in the field changed: their attribute conditions.
  case filterDidChange(AttributeFilter)
  /// The search button was pressed.
  case searchButtonClicked
  /// The cancel button was pressed.
  case cancelButtonClicked
  /// The answer to a should-reload question: whether the results table reloads now (*yes*),
  /// later when a search finishes (*no*, deferred), or not at all (*no*). `generation` is the
  /// request's; a deferred reload arrives with the same one.
  case decision(SearchEvent.Trigger, reload: SearchEvent.Reload, generation: Int)
  /// The results table reloaded with the results of `generation`, which was the newest request
  /// at that moment.
  case reload(SearchEvent.Reload, generation: Int, rows: Int)
  /// The results table's state changed.
  case stateDidChange(SearchController.ResultsTableState)
  /// The model changed during a search: the results table's rows changed as described,
  /// found by re-evaluating only the changed items.
  case resultsDidChange(TableChanges, generation: Int)
  /// The model changed: the original table's rows changed as described.
  case originalDidChange(TableChanges)
  /// A row was selected; `item` is the model item it shows.
  case didSelect(item: ItemID, table: SearchController.TableKind)
  /// An item was inserted into the model.
  case didInsert(ItemID)
  /// An item of the model was updated.
  case didUpdate(ItemID)
  /// An item was deleted from the model (and from both tables).
  case didDelete(ItemID)
  /// What is on screen changed: the last event of the call that changed it (see
  /// ``SearchController/Update``).
  case update(SearchController.Update)
  /// Something went wrong that the caller could not see in a return value (a background
  /// search that failed); the search goes on.
  case error(String)
}

extension SearchEvent {
  /// What asked the reload question.
  public enum Trigger: Hashable, Sendable {
    /// `shouldReloadForSearchString`: the text changed.
    case searchString(String)
    /// `shouldReloadForSearchScope`: the scope changed.
    case searchScope(Int)
    /// The tokens in the field changed (their attribute conditions); no UIKit counterpart.
    case searchFilter(AttributeFilter)
    /// The search button, in the search-button-only mode.
    case searchButton
    /// The search began with text or a scope already set.
    case begin
  }
}

extension SearchEvent {
  /// When the results table reloads after a question.
  public enum Reload: String, Hashable, Sendable, CaseIterable {
    /// Inside the call: the answer was *yes*.
    case now
    /// When the background search finishes, if nothing newer came first: the answer was *no*.
    case deferred
    /// Not at all: the answer was *no* and no search runs.
    case none
  }
}

extension SearchController {
  /// Which of the two tables a row belongs to.
  public enum TableKind: String, Hashable, Sendable, CaseIterable {
    /// The table of the whole model.
    case original
    /// The table of the current results.
    case results
  }
}
