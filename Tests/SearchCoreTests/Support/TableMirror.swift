import Testing

@testable import SearchCore
@testable import SearchEngine

/// The rows a front shows, kept up to date only by applying change sets as UIKit's batch
/// updates do.
///
/// First come deletions and move sources at old paths (rows, then whole sections), then
/// inserted sections (with the new table's rows, which UIKit asks the data source for),
/// inserted rows and move destinations at new paths, in ascending order. Records any step
/// UIKit would reject.
struct TableMirror {
  var sections: [SectionedTable.Section]

  init(_ table: SectionedTable) { sections = table.sections }

  /// Applies `changes`, asking `new` (the data source after the batch) for inserted rows.
  mutating func apply(_ changes: TableChanges, new: SectionedTable) {
    let old = sections
    func item(at path: TableIndexPath) -> ItemID? {
      guard old.indices.contains(path.section) else { return nil }
      let rows = old[path.section].items
      return rows.indices.contains(path.row) ? rows[path.row] : nil
    }
    let deletedSections = Set(changes.deletedSections)
    let insertedSections = Set(changes.insertedSections)
    #expect(deletedSections.count == changes.deletedSections.count)
    #expect(insertedSections.count == changes.insertedSections.count)
    var removed: [Int: Set<Int>] = [:]
    for path in changes.deletedRows + changes.movedRows.map(\.from) {
      #expect(item(at: path) != nil, "\(path) is a row of the old table")
      #expect(!deletedSections.contains(path.section), "\(path) is in a deleted section")
      #expect(removed[path.section, default: []].insert(path.row).inserted, "\(path) twice")
    }
    for (section, rows) in removed where sections.indices.contains(section) {
      sections[section].items = sections[section].items.enumerated()
        .filter { !rows.contains($0.offset) }.map(\.element)
    }
    for section in changes.deletedSections.sorted(by: >) {
      guard sections.indices.contains(section) else {
        Issue.record("deleted section \(section) is not in the old table")
        return
      }
      sections.remove(at: section)
    }
    for section in changes.insertedSections.sorted() {
      guard section <= sections.count, new.sections.indices.contains(section) else {
        Issue.record("inserted section \(section) is out of range")
        return
      }
      sections.insert(new.sections[section], at: section)
    }
    var insertions: [(path: TableIndexPath, item: ItemID?)] = changes.insertedRows.map {
      ($0, new.item(at: $0))
    }
    insertions += changes.movedRows.map { ($0.to, item(at: $0.from)) }
    #expect(Set(insertions.map(\.path)).count == insertions.count, "a new path given twice")
    for (path, item) in insertions.sorted(by: { $0.path < $1.path }) {
      #expect(!insertedSections.contains(path.section), "\(path) is in an inserted section")
      guard let item, sections.indices.contains(path.section),
        path.row <= sections[path.section].items.count
      else {
        Issue.record("cannot insert at \(path)")
        return
      }
      sections[path.section].items.insert(item, at: path.row)
    }
    // Reloads name rows of the new table.
    for path in changes.updatedRows {
      #expect(new.item(at: path) != nil, "reloaded \(path) is a row of the new table")
    }
  }
}
