import SearchEngine

extension SearchController.Update {
  /// Brings a table view that shows the rows on screen up to date: reloads it when the
  /// table on screen switched between the original and the results (as UIKit shows another
  /// table view then), else applies ``changes`` as one batch.
  @MainActor
  public func apply(to table: some TableBatchUpdating) {
    if switchedTable { table.reloadData() } else { changes.apply(to: table) }
  }
}
