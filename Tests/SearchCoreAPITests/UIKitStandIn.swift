import Foundation
import SearchCore
import Testing

/// UIKit's `UITableView`, as far as the GettingStarted guide's conformance reaches, with
/// UIKit's own signatures (an optional, escaping batch closure; `IndexSet`, `IndexPath` and a
/// row animation), so that the guide's block compiles here as it does in an app.
///
/// It records the calls it gets.
@MainActor
class UITableView {
  enum RowAnimation { case automatic, fade, none }

  private(set) var calls: [String] = []

  func reloadData() { calls.append("reloadData") }
  func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
    calls.append("begin")
    updates?()
    calls.append("end")
    completion?(true)
  }
  func deleteSections(_ sections: IndexSet, with animation: RowAnimation) {
    calls.append("deleteSections \(Array(sections))")
  }
  func insertSections(_ sections: IndexSet, with animation: RowAnimation) {
    calls.append("insertSections \(Array(sections))")
  }
  func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
    calls.append("deleteRows \(indexPaths.map(Self.text))")
  }
  func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) {
    calls.append("insertRows \(indexPaths.map(Self.text))")
  }
  func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) {
    calls.append("moveRow \(Self.text(indexPath)) \(Self.text(newIndexPath))")
  }
  func reconfigureRows(at indexPaths: [IndexPath]) {
    calls.append("reconfigureRows \(indexPaths.map(Self.text))")
  }

  private static func text(_ path: IndexPath) -> String { "\(path.section).\(path.row)" }
}

/// UIKit's `IndexPath(row:section:)`.
extension IndexPath {
  init(row: Int, section: Int) { self.init(indexes: [section, row]) }
  var row: Int { self[1] }
  var section: Int { self[0] }
}

@MainActor
@Suite struct UIKitConformanceTests {
  /// The guide's conformance forwards a change set to UIKit's methods in one batch, the
  /// reloads after it, with UIKit's index paths.
  @Test func theGuidesConformanceForwardsEveryChange() {
    let tableView = UITableView()
    let changes = TableChanges(
      deletedSections: [2], insertedSections: [0],
      deletedRows: [TableIndexPath(section: 0, row: 3)],
      insertedRows: [TableIndexPath(section: 1, row: 0)],
      movedRows: [
        .init(from: TableIndexPath(section: 1, row: 4), to: TableIndexPath(section: 1, row: 1))
      ],
      updatedRows: [TableIndexPath(section: 1, row: 2)])
    changes.apply(to: tableView)
    #expect(
      tableView.calls == [
        "begin", "deleteSections [2]", "insertSections [0]", "deleteRows [\"0.3\"]",
        "insertRows [\"1.0\"]", "moveRow 1.4 1.1", "end", "reconfigureRows [\"1.2\"]",
      ])
  }
}
