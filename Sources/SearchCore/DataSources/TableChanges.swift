import SearchEngine

/// What changed from one table to the next, in the terms of a UIKit batch update
/// (`performBatchUpdates`): what a list front needs to animate rather than reload.
///
/// As in UIKit, deletions and move sources are paths of the old table, insertions and move
/// destinations paths of the new one. Every array is sorted ascending; a front that deletes
/// one by one outside a batch should walk deletions from the end.
///
/// Sections are matched by title (a plain table's one section matches itself), rows by
/// ``/SearchEngine/ItemID``. The rows of a deleted or inserted section are not listed: they go and come
/// with the section, so an item whose section goes while it stays in the table is an
/// insertion in its new section, and one that moves into a new section is a deletion from its
/// old one. Sections never move: when sections that remain change their order, which only
/// happens between tables of different collations, the fewest of them are deleted and
/// inserted again.
public struct TableChanges: Hashable, Sendable {
  /// A row that moved: from its old path to its new one.
  public struct Move: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The row's path in the old table.
    public var from: TableIndexPath
    /// The row's path in the new table.
    public var to: TableIndexPath

    /// Creates a move.
    public init(from: TableIndexPath, to: TableIndexPath) {
      self.from = from
      self.to = to
    }

    /// Orders by the old path, then the new one.
    public static func < (lhs: Move, rhs: Move) -> Bool {
      (lhs.from, lhs.to) < (rhs.from, rhs.to)
    }

    /// "old->new", such as "0.3->1.0".
    public var description: String { "\(from)->\(to)" }
  }

  /// The sections deleted, by their old index, ascending.
  public var deletedSections: [Int]
  /// The sections inserted, by their new index, ascending.
  public var insertedSections: [Int]
  /// The rows deleted from sections that remain, by their old paths, ascending.
  public var deletedRows: [TableIndexPath]
  /// The rows inserted into sections that remained, by their new paths, ascending.
  public var insertedRows: [TableIndexPath]
  /// The rows that moved, within a section or across sections, ascending by old path.
  public var movedRows: [Move]
  /// The rows, by new path, ascending, of items in both tables whose content changed: to
  /// reload (or reconfigure) after the batch, since UIKit reads reload paths as old ones.
  public var updatedRows: [TableIndexPath]

  /// Whether nothing changed.
  public var isEmpty: Bool {
    deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty
      && insertedRows.isEmpty && movedRows.isEmpty && updatedRows.isEmpty
  }

  /// Creates a change set from its parts, which must already be sorted ascending.
  public init(
    deletedSections: [Int] = [], insertedSections: [Int] = [],
    deletedRows: [TableIndexPath] = [], insertedRows: [TableIndexPath] = [],
    movedRows: [Move] = [], updatedRows: [TableIndexPath] = []
  ) {
    self.deletedSections = deletedSections
    self.insertedSections = insertedSections
    self.deletedRows = deletedRows
    self.insertedRows = insertedRows
    self.movedRows = movedRows
    self.updatedRows = updatedRows
  }

  /// The changes that turn `old` into `new`, with the fewest moves.
  ///
  /// - Parameters:
  ///   - old: The table shown now.
  ///   - new: The table to show.
  ///   - updated: The items whose content changed; those in both tables are reported in
  ///     ``updatedRows``.
  /// - Complexity: O(*n* log *n*) for *n* rows.
  public init(from old: SectionedTable, to new: SectionedTable, updated: Set<ItemID> = []) {
    let (newOfOld, oldOfNew) = Self.matchSections(
      old.sections.map(\.title), new.sections.map(\.title))
    deletedSections = old.sections.indices.filter { newOfOld[$0] == nil }
    insertedSections = new.sections.indices.filter { oldOfNew[$0] == nil }
    deletedRows = []
    insertedRows = []
    movedRows = []
    // Each table's locator, taken once: a keystroke's tables have as many rows as the list.
    let (oldRows, newRows) = (old.rowLocator, new.rowLocator)

    for (section, target) in newOfOld.enumerated() {
      guard let target else { continue }
      // Rows staying in the section, in old order, with their new rows: those off the
      // longest increasing run are the fewest that must move.
      var staying: [(row: Int, newRow: Int)] = []
      for (row, id) in old.sections[section].items.enumerated() {
        let from = TableIndexPath(section: section, row: row)
        guard let to = new.indexPath(of: id, in: newRows), oldOfNew[to.section] != nil else {
          deletedRows.append(from)
          continue
        }
        if to.section == target {
          staying.append((row, to.row))
        } else {
          movedRows.append(Move(from: from, to: to))
        }
      }
      for (entry, kept) in zip(staying, Self.increasingRun(staying.map(\.newRow))) where !kept {
        movedRows.append(
          Move(
            from: TableIndexPath(section: section, row: entry.row),
            to: TableIndexPath(section: target, row: entry.newRow)))
      }
    }
    for (section, source) in oldOfNew.enumerated() where source != nil {
      for (row, id) in new.sections[section].items.enumerated() {
        if let from = old.indexPath(of: id, in: oldRows), newOfOld[from.section] != nil {
          continue
        }
        insertedRows.append(TableIndexPath(section: section, row: row))
      }
    }
    updatedRows = updated.compactMap { id in
      old.indexPath(of: id, in: oldRows) == nil ? nil : new.indexPath(of: id, in: newRows)
    }
    deletedRows.sort()
    insertedRows.sort()
    movedRows.sort()
    updatedRows.sort()
  }

  /// The sections that remain, given the old and new section titles: matched by title, and
  /// among those the longest run that keeps its order, because batch updates here have no
  /// section moves.
  ///
  /// For each old section its new index, for each new section its old one, or nil for a section
  /// deleted or inserted.
  ///
  /// - Complexity: O(*s* log *s*) for *s* sections.
  static func matchSections(_ old: [String?], _ new: [String?]) -> (
    newOfOld: [Int?], oldOfNew: [Int?]
  ) {
    var newSectionOfTitle: [String?: Int] = [:]
    for (index, title) in new.enumerated() { newSectionOfTitle[title] = index }
    let matched = old.indices.compactMap { index in
      newSectionOfTitle[old[index]].map { (old: index, new: $0) }
    }
    var newOfOld = [Int?](repeating: nil, count: old.count)
    var oldOfNew = [Int?](repeating: nil, count: new.count)
    for (pair, kept) in zip(matched, increasingRun(matched.map(\.new))) where kept {
      newOfOld[pair.old] = pair.new
      oldOfNew[pair.new] = pair.old
    }
    return (newOfOld, oldOfNew)
  }

  /// The changes that empty `old`, as `TableChanges(from: old, to: empty)` gives them, where
  /// `empty` is a table without rows (one untitled section), without comparing the two: the
  /// titled sections go whole, the rows of an untitled one go one by one.
  ///
  /// - Complexity: O(*n*) for *n* rows, with no lookup.
  static func emptying(_ old: SectionedTable) -> TableChanges {
    let kept = old.sections.firstIndex { $0.title == nil }
    var changes = TableChanges(
      deletedSections: old.sections.indices.filter { $0 != kept },
      insertedSections: kept == nil ? [0] : [])
    if let kept {
      changes.deletedRows = old.sections[kept].items.indices.map {
        TableIndexPath(section: kept, row: $0)
      }
    }
    return changes
  }

  /// Marks a longest strictly increasing subsequence of `values` (patience sorting).
  ///
  /// - Complexity: O(*n* log *n*).
  static func increasingRun(_ values: [Int]) -> [Bool] {
    // Most often (a narrowed or widened list, an edit) the values already increase.
    if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) {
      return [Bool](repeating: true, count: values.count)
    }
    // tails[k]: the index of the smallest last value of an increasing run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: values.count)
    for (index, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[index] = tails[low - 1] }
      if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    var kept = [Bool](repeating: false, count: values.count)
    var index = tails.last ?? -1
    while index >= 0 {
      kept[index] = true
      index = previous[index]
    }
    return kept
  }
}
