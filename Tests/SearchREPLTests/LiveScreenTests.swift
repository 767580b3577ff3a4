import TestSupport
import Testing

@testable import SearchREPL

/// The live view's pure parts: how far the table scrolls, and the scope bar when its titles
/// do not fit.
@Suite(.tags(.plainSwift)) struct TableLayoutTests {
  /// 45 rows, no headers, 20 lines: the products at 80×24.
  private let products = TableLayout(rowCounts: [45], titled: [false])

  /// The selection moves the screen line by line: row 19 is the last line of the first
  /// screen, row 20 scrolls it by one row, and going back up scrolls it back only when the
  /// selection passes the top.
  @Test func theSelectionScrollsLineByLine() {
    #expect(products.top(keeping: 19, from: 0, height: 20) == 0)
    #expect(products.top(keeping: 20, from: 0, height: 20) == 1)
    #expect(products.top(keeping: 21, from: 1, height: 20) == 2)
    #expect(products.top(keeping: 5, from: 2, height: 20) == 2)
    #expect(products.top(keeping: 1, from: 2, height: 20) == 1)
  }

  /// A page key moves the top and the selection by a page; past the end, the screen keeps a
  /// full page (rows 25–44) instead of a page with a few rows and empty lines.
  @Test func pagesNeverEndHalfEmpty() {
    #expect(products.top(keeping: 40, from: 40, height: 20) == 25)
    #expect(products.top(keeping: 44, from: 45, height: 20) == 25)
    #expect(products.top(keeping: 44, from: 1_000, height: 20) == 25)
    // A table shorter than the screen never scrolls.
    let short = TableLayout(rowCounts: [6], titled: [false])
    #expect(short.top(keeping: 5, from: 3, height: 20) == 0)
  }

  /// Headers take lines: sections of 3, 0 and 4 rows, each titled, the empty one drawing
  /// nothing.
  @Test func headersTakeLines() {
    let layout = TableLayout(rowCounts: [3, 0, 4], titled: [true, true, true])
    #expect(layout.rowCount == 7)
    #expect(layout.section(of: 2) == 0)
    #expect(layout.section(of: 3) == 2)
    // Rows 0–6, the first section's header, and the third's: 9 lines.
    #expect(layout.lines(from: 0, through: 6) == 9)
    #expect(layout.lines(from: 3, through: 6) == 5)
    #expect(layout.lines(from: 1, through: 2) == 3)
    // 5 lines keep row 6 in view from row 3 (header + 4 rows); from row 2 they would need 7.
    #expect(layout.top(keeping: 6, from: 0, height: 5) == 3)
    // One line: the selected row alone, whatever header it has.
    #expect(layout.top(keeping: 4, from: 0, height: 1) == 4)
  }

  @Test func anEmptyTableHasNoTop() {
    let empty = TableLayout(rowCounts: [0], titled: [true])
    #expect(empty.rowCount == 0)
    #expect(empty.top(keeping: 3, from: 7, height: 20) == 0)
  }
}

@Suite(.tags(.plainSwift)) struct ScopeBarTests {
  private let titles = ["All", "Device", "Desktop", "Portable"]

  @Test func titlesThatFitAreAllShown() {
    let line = LiveScreen.scopeBar(titles: titles, selected: 1, width: 80)
    #expect(REPLOutput.withoutSGR(line.text) == " All   Device   Desktop   Portable ")
  }

  /// Titles cut on the right end with "›" at the right edge.
  @Test func aCutOnTheRightIsMarked() {
    let narrow = LiveScreen.scopeBar(titles: titles, selected: 0, width: 12)
    #expect(REPLOutput.withoutSGR(narrow.text) == " All   Dev ›")
    #expect(narrow.columns == 12)
    let wider = LiveScreen.scopeBar(titles: titles, selected: 1, width: 24)
    #expect(REPLOutput.withoutSGR(wider.text) == " All   Device   Deskto ›")
  }

  /// Titles before the selected one are left out, with "‹", when it would not be in view;
  /// the last title needs no "›".
  @Test func aCutOnTheLeftIsMarked() {
    let line = LiveScreen.scopeBar(titles: titles, selected: 3, width: 20)
    #expect(REPLOutput.withoutSGR(line.text) == "‹  Portable ")
    let middle = LiveScreen.scopeBar(titles: titles, selected: 2, width: 20)
    #expect(REPLOutput.withoutSGR(middle.text) == "‹  Desktop   Porta ›")
  }
}

@Suite struct LiveTokensTests {
  /// Counted scopes carry their counts; one without a count (it restricts the fields
  /// searched) keeps its bare title; no counts, no change.
  @Test func scopeTitlesCarryTheirCounts() {
    let titles = ["All", "Europe", "Name"]
    #expect(
      LiveScreen.scopeTitles(titles, counts: [1_204, 310, nil]) == [
        "All 1,204", "Europe 310", "Name",
      ])
    #expect(LiveScreen.scopeTitles(titles, counts: nil) == titles)
    let line = LiveScreen.scopeBar(
      titles: LiveScreen.scopeTitles(titles, counts: [1_204, 310, nil]), selected: 0, width: 80)
    #expect(REPLOutput.withoutSGR(line.text) == " All 1,204   Europe 310   Name ")
  }

  /// The tokens' line lists them in the order added, and is cut at the edge.
  @Test func tokensLineListsTheTokens() {
    let line = LiveScreen.tokens(["type=Desktop", "year>=2007"], width: 80)
    #expect(REPLOutput.withoutSGR(line.text) == "Tokens: [type=Desktop] [year>=2007]")
    #expect(LiveScreen.tokens(["type=Desktop", "year>=2007"], width: 20).columns == 20)
  }

  /// The tokens' line takes a line from the table, and only when there are tokens.
  @Test func tokensTakeALineFromTheTable() {
    #expect(LiveLayout(rows: 24, hasScopes: true).tableHeight == 20)
    let layout = LiveLayout(rows: 24, hasScopes: true, hasTokens: true)
    #expect(layout.showsTokens && layout.tableHeight == 19)
    #expect(!LiveLayout(rows: 24, hasScopes: true).showsTokens)
  }
}
