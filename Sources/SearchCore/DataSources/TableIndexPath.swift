import SearchEngine

/// A row of a table: its section and its row inside the section, both counted from 0, as
/// UIKit's `IndexPath` addresses a table view's rows.
///
/// (Named apart from Foundation's `IndexPath`, so that a file may import both modules.)
public struct TableIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The section, from 0.
  public var section: Int
  /// The row inside the section, from 0.
  public var row: Int

  /// Creates an index path.
  public init(section: Int, row: Int) {
    self.section = section
    self.row = row
  }

  /// Orders by section, then row.
  public static func < (lhs: TableIndexPath, rhs: TableIndexPath) -> Bool {
    (lhs.section, lhs.row) < (rhs.section, rhs.row)
  }

  /// "section.row", as the REPL writes it: "0.3".
  public var description: String { "\(section).\(row)" }
}
