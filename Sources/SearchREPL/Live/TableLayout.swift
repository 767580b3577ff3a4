import SearchCore
import SearchEngine

/// Where a table's rows fall on the lines of a screen, and how far the screen scrolls: one
/// line per row, and a header line at the top of the screen and before the first row of each
/// section that has a title.
///
/// Rows are flat positions: section 0's rows first, then section 1's… Pure, so the scrolling
/// rules are tested without a terminal.
struct TableLayout: Sendable {
  /// The flat position of each section's first row, and the row count at the end.
  private let starts: [Int]
  /// Whether each section draws a header.
  private let titled: [Bool]
  /// `headers[s]`: how many of sections 0..<s have rows and a header.
  private let headers: [Int]

  init(table: SectionedTable) {
    self.init(
      rowCounts: (0..<table.numberOfSections).map { table.numberOfRows(inSection: $0) },
      titled: (0..<table.numberOfSections).map { table.titleForHeader(inSection: $0) != nil })
  }

  /// A layout of sections with these row counts, each with a header or not.
  init(rowCounts: [Int], titled: [Bool]) {
    var starts = [0]
    var headers = [0]
    for (count, hasTitle) in zip(rowCounts, titled) {
      starts.append(starts[starts.count - 1] + count)
      headers.append(headers[headers.count - 1] + (count > 0 && hasTitle ? 1 : 0))
    }
    self.starts = starts
    self.titled = titled
    self.headers = headers
  }

  /// The number of rows.
  var rowCount: Int { starts.last ?? 0 }

  /// The section of a row: the last section that starts at or before it (an empty section
  /// starts where the next one does, so it is never the answer).
  func section(of position: Int) -> Int {
    var low = 0
    var high = starts.count - 2
    guard high >= 0 else { return 0 }
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= position { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The lines that rows `first` through `last` take when `first` is at the top of the
  /// screen: the rows, the header of `first`'s section, and the header of every section that
  /// starts after it.
  func lines(from first: Int, through last: Int) -> Int {
    guard first <= last else { return 0 }
    let firstSection = section(of: first)
    let lastSection = section(of: last)
    let topHeader = titled.indices.contains(firstSection) && titled[firstSection] ? 1 : 0
    return last - first + 1 + topHeader + headers[lastSection + 1] - headers[firstSection + 1]
  }

  /// The first row on a screen of `height` table lines that shows `selected`: the screen
  /// moves from `top` only as far as it must (line by line as the selection moves), and
  /// never leaves empty lines at the bottom while rows are above it.
  func top(keeping selected: Int, from top: Int, height: Int) -> Int {
    guard rowCount > 0, height > 0 else { return 0 }
    let selected = min(max(selected, 0), rowCount - 1)
    var top = min(max(top, 0), selected)
    top = max(top, selected - height + 1)
    while top < selected, lines(from: top, through: selected) > height { top += 1 }
    while top > 0, lines(from: top - 1, through: rowCount - 1) <= height { top -= 1 }
    return top
  }
}
