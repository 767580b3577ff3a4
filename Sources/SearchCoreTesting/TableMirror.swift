import SearchCore

/// The rows a front shows, kept up to date only by applying change sets as UIKit's batch
/// updates do: what an app's test compares with the table to check that its table view would
/// show the right rows.
///
/// First come deletions and move sources at old paths (rows, then whole sections), then
/// inserted sections (with the new table's rows, which UIKit asks the data source for),
/// inserted rows and move destinations at new paths, in ascending order. Each step UIKit would
/// reject is recorded in ``problems``.
public struct TableMirror: Sendable {
  /// The rows after the change sets applied so far.
  public private(set) var sections: [SectionedTable.Section]
  /// What UIKit would have rejected, in order, one sentence each; empty when every change set
  /// applied cleanly.
  public private(set) var problems: [String] = []

  /// A mirror showing `table`'s rows.
  public init(_ table: SectionedTable) { sections = table.sections }

  /// Applies `changes`, asking `new` (the data source after the batch) for inserted rows.
  public mutating func apply(_ changes: TableChanges, new: SectionedTable) {
    let old = sections
    func item(at path: TableIndexPath) -> ItemID? {
      guard old.indices.contains(path.section) else { return nil }
      let rows = old[path.section].items
      return rows.indices.contains(path.row) ? rows[path.row] : nil
    }
    let deletedSections = Set(changes.deletedSections)
    let insertedSections = Set(changes.insertedSections)
    if deletedSections.count != changes.deletedSections.count {
      problems.append("a section is deleted twice")
    }
    if insertedSections.count != changes.insertedSections.count {
      problems.append("a section is inserted twice")
    }
    var removed: [Int: Set<Int>] = [:]
    for path in changes.deletedRows + changes.movedRows.map(\.from) {
      if item(at: path) == nil { problems.append("\(path) is not a row of the old table") }
      if deletedSections.contains(path.section) {
        problems.append("\(path) is in a deleted section")
      }
      if !removed[path.section, default: []].insert(path.row).inserted {
        problems.append("\(path) is removed twice")
      }
    }
    for (section, rows) in removed where sections.indices.contains(section) {
      sections[section].items = sections[section].items.enumerated()
        .filter { !rows.contains($0.offset) }.map(\.element)
    }
    for section in changes.deletedSections.sorted(by: >) {
      guard sections.indices.contains(section) else {
        problems.append("deleted section \(section) is not in the old table")
        return
      }
      sections.remove(at: section)
    }
    for section in changes.insertedSections.sorted() {
      guard section <= sections.count, new.sections.indices.contains(section) else {
        problems.append("inserted section \(section) is out of range")
        return
      }
      sections.insert(new.sections[section], at: section)
    }
    var insertions: [(path: TableIndexPath, item: ItemID?)] = changes.insertedRows.map {
      ($0, new.item(at: $0))
    }
    insertions += changes.movedRows.map { ($0.to, item(at: $0.from)) }
    if Set(insertions.map(\.path)).count != insertions.count {
      problems.append("a new path is given twice")
    }
    for (path, item) in insertions.sorted(by: { $0.path < $1.path }) {
      if insertedSections.contains(path.section) {
        problems.append("\(path) is in an inserted section")
      }
      guard let item, sections.indices.contains(path.section),
        path.row <= sections[path.section].items.count
      else {
        problems.append("cannot insert at \(path)")
        return
      }
      sections[path.section].items.insert(item, at: path.row)
    }
    // Reloads name rows of the new table.
    for path in changes.updatedRows where new.item(at: path) == nil {
      problems.append("reloaded \(path) is not a row of the new table")
    }
  }
}
