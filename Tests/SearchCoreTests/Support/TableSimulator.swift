import Testing

@testable import SearchCore

/// Applies changes to the old table as UIKit's batch updates do: first deletions and move
/// sources at old paths (rows, then whole sections), then inserted sections (with the new
/// table's rows, which UIKit asks the data source for), inserted rows and move destinations at
/// new paths, in ascending order. Records any step UIKit would reject.
func simulate(
  _ changes: TableChanges, from old: SectionedTable, to new: SectionedTable
) -> [SectionedTable.Section] {
  var sections = old.sections
  let deletedSections = Set(changes.deletedSections)
  let insertedSections = Set(changes.insertedSections)
  #expect(deletedSections.count == changes.deletedSections.count)
  #expect(insertedSections.count == changes.insertedSections.count)
  var removed: [Int: Set<Int>] = [:]
  let sources = changes.deletedRows + changes.movedRows.map(\.from)
  for path in sources {
    #expect(old.item(at: path) != nil, "\(path) is a row of the old table")
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
      return sections
    }
    sections.remove(at: section)
  }
  for section in changes.insertedSections.sorted() {
    guard section <= sections.count, new.sections.indices.contains(section) else {
      Issue.record("inserted section \(section) is out of range")
      return sections
    }
    sections.insert(new.sections[section], at: section)
  }
  var insertions: [(path: TableIndexPath, item: ItemID?)] = changes.insertedRows.map {
    ($0, new.item(at: $0))
  }
  insertions += changes.movedRows.map { ($0.to, old.item(at: $0.from)) }
  #expect(Set(insertions.map(\.path)).count == insertions.count, "a new path given twice")
  for (path, item) in insertions.sorted(by: { $0.path < $1.path }) {
    #expect(!insertedSections.contains(path.section), "\(path) is in an inserted section")
    guard let item, sections.indices.contains(path.section),
      path.row <= sections[path.section].items.count
    else {
      Issue.record("cannot insert at \(path)")
      return sections
    }
    sections[path.section].items.insert(item, at: path.row)
  }
  return sections
}
