import SearchEngine

// Rows: selecting one, deleting one, telling those found with typos.

extension SearchController {
  // MARK: Rows

  /// The model item of a row, telling observers it was selected.
  ///
  /// - Throws: ``SearchController/Error/noSuchRow(_:table:)`` when the table has no such row.
  @discardableResult
  public func selectRow(at indexPath: TableIndexPath, in table: SearchController.TableKind)
    throws(SearchController.Error) -> ItemID
  {
    guard let item = self.table(table).item(at: indexPath) else {
      throw .noSuchRow(indexPath, table: table)
    }
    emit(.didSelect(item: item, table: table))
    deliver()
    return item
  }

  /// Deletes the item of a row from the model, and so from both tables.
  ///
  /// - Throws: ``SearchController/Error/noSuchRow(_:table:)`` when the table has no such row,
  ///   ``SearchController/Error/notEditable(_:table:)`` when it cannot be edited.
  @discardableResult
  public func deleteRow(at indexPath: TableIndexPath, in table: SearchController.TableKind)
    throws(SearchController.Error) -> ItemID
  {
    let source = self.table(table)
    guard let item = source.item(at: indexPath) else { throw .noSuchRow(indexPath, table: table) }
    guard source.canEditRow(at: indexPath) else { throw .notEditable(indexPath, table: table) }
    do { try remove(item) } catch { throw .corpus(error) }
    return item
  }

  /// How many typos an item of the results on screen needed (``SearchConfiguration/typos``):
  /// 0 for an item that contains every word of the text exactly, and while no results are
  /// shown.
  ///
  /// A list labels the others ("Showing close matches"), which come after the exact ones inside
  /// each section, sorted rows too, unless the results are ranked.
  ///
  /// - Parameter id: An item of the results table.
  public func typos(of id: ItemID) -> Int {
    guard visibleTable == .results, let results else { return 0 }
    return corpus.typos(of: id, for: results.query, scope: results.scope)
  }
}
