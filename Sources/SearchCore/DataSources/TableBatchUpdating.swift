import SearchEngine

/// A table view that takes batch updates, as UIKit's `UITableView` does: what
/// ``TableChanges/apply(to:)`` drives, so that a front animates a change set in one call.
///
/// A `UITableView` conforms in a few lines, each forwarding to its own method (map
/// ``TableIndexPath`` to `IndexPath(row:section:)` and `[Int]` to `IndexSet`); a terminal or a
/// test conforms with a list of its own.
@MainActor
public protocol TableBatchUpdating: AnyObject {
  /// Reloads every row from the data source (`reloadData`).
  func reloadData()
  /// Runs `updates` as one animated batch (`performBatchUpdates`).
  func performBatchUpdates(_ updates: () -> Void)
  /// Deletes sections, by their old indices.
  func deleteSections(_ sections: [Int])
  /// Inserts sections, by their new indices.
  func insertSections(_ sections: [Int])
  /// Deletes rows, by their old paths.
  func deleteRows(at indexPaths: [TableIndexPath])
  /// Inserts rows, by their new paths.
  func insertRows(at indexPaths: [TableIndexPath])
  /// Moves a row from its old path to its new one.
  func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath)
  /// Redraws rows, by their paths after the batch.
  func reloadRows(at indexPaths: [TableIndexPath])
}

extension TableChanges {
  /// Applies the changes to a table view: deletions, insertions and moves in one batch, then
  /// the reloads of updated rows, which UIKit reads by their paths after the batch.
  @MainActor
  public func apply(to table: some TableBatchUpdating) {
    table.performBatchUpdates {
      if !deletedSections.isEmpty { table.deleteSections(deletedSections) }
      if !insertedSections.isEmpty { table.insertSections(insertedSections) }
      if !deletedRows.isEmpty { table.deleteRows(at: deletedRows) }
      if !insertedRows.isEmpty { table.insertRows(at: insertedRows) }
      for move in movedRows { table.moveRow(at: move.from, to: move.to) }
    }
    if !updatedRows.isEmpty { table.reloadRows(at: updatedRows) }
  }
}
