import SearchEngine

/// The questions a table asks its data source (UIKit's `UITableViewDataSource`), answered
/// with model identities: both the original table and the results table conform.
///
/// A data source is a value: a snapshot of one table at one moment. Rows are views into the
/// model (identities), never copies of items.
public protocol TableDataSource: Sendable {
  /// The number of sections (at least 1, as UIKit's default; an empty table has one empty
  /// section).
  var numberOfSections: Int { get }
  /// The number of rows in a section.
  func numberOfRows(inSection section: Int) -> Int
  /// The model item shown at an index path, or nil when the path is outside the table.
  func item(at indexPath: TableIndexPath) -> ItemID?
  /// Where the table shows an item, or nil when it does not show it.
  func indexPath(of item: ItemID) -> TableIndexPath?
  /// The title above a section, or nil for none.
  func titleForHeader(inSection section: Int) -> String?
  /// The title below a section, or nil for none.
  func titleForFooter(inSection section: Int) -> String?
  /// The titles of the index down the side of the table ("A", "B", …), or nil for no index.
  var sectionIndexTitles: [String]? { get }
  /// The section that an index title jumps to.
  func section(forSectionIndexTitle title: String, at index: Int) -> Int
  /// Whether the row at an index path may be edited (deleted).
  func canEditRow(at indexPath: TableIndexPath) -> Bool
}

extension TableDataSource {
  /// The number of rows in all sections.
  public var numberOfRows: Int {
    (0..<numberOfSections).reduce(0) { $0 + numberOfRows(inSection: $1) }
  }
}
