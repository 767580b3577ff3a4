import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Each row of the event table of the guide SearchBehavior.md, as marble timelines over the products data set
/// (45 products; model order is the file's: 28 iPad, 31 iPad mini, 32 iPad Air, 35 iPad Pro;
/// 17 names contain "mac"; 22 products are Devices, scope 1).
@MainActor
@Suite(.tags(.concurrent)) struct SearchControllerTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  @Test func beginWithEmptyTextIsDimmed() throws {
    let marbles = try Marbles(corpus: corpus)
    #expect(try marbles.run("b") == "wb db [dimmed]")
    #expect(marbles.controller.searchBar.isActive)
    #expect(marbles.controller.visibleTable == .original)
    #expect(try marbles.run("b") == "")  // already active
  }

  @Test func minimumLengthAnswersNoThenReloadsNow() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(minimumLength: 3))
    #expect(
      try marbles.run("b t=m t=ma t=mac")
        == "wb db [dimmed] text(m) ?\"m\"=none#1 load show+ show [below 2] "
        + "text(ma) ?\"ma\"=none#2 [below 1] "
        + "text(mac) ?\"mac\"=now#3 [rows 17] reload(now,#3,17)")
    #expect(marbles.controller.resultsTable.numberOfRows == 17)
    #expect(marbles.controller.resultsState.description == "17 results")
    // Back below the threshold: the rows go, the hint comes back.
    #expect(try marbles.run("t=ma") == "text(ma) ?\"ma\"=none#4 [below 1]")
    #expect(marbles.controller.resultsTable.numberOfRows == 0)
    #expect(marbles.controller.resultsState.description == "Type 1 more character")
    // Emptying the text goes back to the dimmed original.
    #expect(try marbles.run("t=") == "text() ?\"\"=none#5 hide+ hide [dimmed]")
  }

  @Test func settingTextWhileInactiveFiresOnlyTextDidChange() throws {
    let marbles = try Marbles(corpus: corpus)
    #expect(try marbles.run("t=ipad") == "text(ipad)")
    #expect(marbles.controller.searchBar.text == "ipad")
    // Beginning with text already set asks the string question at once, as a new request.
    #expect(
      try marbles.run("b") == "wb db ?^=now#2 load show+ show [rows 4] reload(now,#2,4)")
  }

  @Test func aScopeFiltersEvenWithEmptyText() throws {
    let marbles = try Marbles(corpus: corpus)
    #expect(
      try marbles.run("b s=1")
        == "wb db [dimmed] scope(1) ?@1=now#1 load show+ show [rows 22] reload(now,#1,22)")
    #expect(try marbles.run("t=ipad") == "text(ipad) ?\"ipad\"=now#2 [rows 4] reload(now,#2,4)")
    #expect(try marbles.run("s=2") == "scope(2) ?@2=now#3 [noResults] reload(now,#3,0)")
    #expect(marbles.controller.resultsState.description == "No Results")
    #expect(
      try marbles.run("t= s=0") == "text() ?\"\"=now#4 [rows 13] reload(now,#4,13) "
        + "scope(0) ?@0=none#5 hide+ hide [dimmed]")
    #expect(throws: SearchController.Error.noSuchScope("4", titles: corpus.scopeBar.titles)) {
      try marbles.controller.selectScope(4)
    }
  }

  @Test func searchButtonOnlyModeSearchesOnTheButton() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .onSubmit))
    #expect(try marbles.run("b t=mac") == "wb db [dimmed] text(mac) ?\"mac\"=none#1")
    #expect(marbles.controller.resultsTable.numberOfRows == 0)
    #expect(
      try marbles.run("S") == "button ?!=now#2 load show+ show [rows 17] reload(now,#2,17)")
    // In the other modes the button only tells the delegate.
    marbles.controller.configuration.mode = .immediate
    #expect(try marbles.run("S") == "button")
  }

  @Test func backgroundSearchReloadsLaterAndDropsSupersededGenerations() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    #expect(
      try marbles.run("b t=i t=ip")
        == "wb db [dimmed] text(i) ?\"i\"=deferred#1 text(ip) ?\"ip\"=deferred#2")
    #expect(marbles.scheduler.pendingSearches == 2)
    // The first search is superseded: it stops and is never delivered.
    #expect(try marbles.run("r") == "")
    #expect(marbles.controller.discardedSearches == 1)
    // ip: iPod x6, iPhone x5, iPad x4 (and no other name has "ip").
    #expect(try marbles.run("r") == "load show+ show [rows 15] reload(deferred,#2,15)")
    #expect(marbles.controller.isSearchPending == false)
  }

  @Test func cancelDropsTheRunningSearchAndEnds() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    #expect(
      try marbles.run("b t=ipad R") == "wb db [dimmed] text(ipad) ?\"ipad\"=deferred#1 "
        + "load show+ show [rows 4] reload(deferred,#1,4)")
    #expect(
      try marbles.run("t=mac X")
        == "text(mac) ?\"mac\"=deferred#2 cancel we hide+ hide unload [hidden] de")
    #expect(marbles.controller.searchBar.text == "")
    #expect(!marbles.controller.searchBar.isActive)
    #expect(marbles.controller.resultsTable.numberOfRows == 0)
    #expect(try marbles.run("R") == "")  // nothing arrives after did-end
    #expect(marbles.controller.discardedSearches == 1)
  }

  @Test func endKeepsTheText() throws {
    let marbles = try Marbles(corpus: corpus)
    #expect(try marbles.run("b t=ipad E").hasSuffix("we hide+ hide unload [hidden] de"))
    #expect(marbles.controller.searchBar.text == "ipad")
  }

  @Test func coalescingWaitsForAQuietInterval() throws {
    let marbles = try Marbles(
      corpus: corpus, configuration: SearchConfiguration(coalescingInterval: .milliseconds(100)))
    #expect(
      try marbles.run("b t=i +50 t=ip +50")
        == "wb db [dimmed] text(i) ?\"i\"=deferred#1 text(ip) ?\"ip\"=deferred#2")
    // 100 ms after the first keystroke its timer fires, but a newer one came: nothing.
    #expect(try marbles.run("+49") == "")
    #expect(try marbles.run("+1") == "load show+ show [rows 15] reload(deferred,#2,15)")
  }

  @Test func modelChangesUpdateBothTablesRowByRow() throws {
    let marbles = try Marbles(corpus: corpus)
    _ = try marbles.run("b t=ipad")
    let controller = marbles.controller
    #expect(controller.resultsTable.sections[0].items.map(\.rawValue) == [28, 31, 32, 35])
    marbles.events = []
    let added = try controller.insert(
      SearchModel.Record(
        fields: [["iPad (9th generation)"]], attributes: ["Device", "2021", "329.00"]))
    #expect(added.rawValue == 45)
    #expect(marbles.events.joined(separator: " ") == "+45 orig{ins 0.45} res#2{ins 0.4} [rows 5]")
    #expect(try marbles.run("") == "")
    // Delete a row of the results table: the model loses it, and so do both tables.
    marbles.events = []
    let deleted = try controller.deleteRow(at: TableIndexPath(section: 0, row: 1), in: .results)
    #expect(deleted.rawValue == 31)  // iPad mini
    #expect(marbles.events.joined(separator: " ") == "-31 orig{del 0.31} res#3{del 0.1} [rows 4]")
    #expect(!controller.corpus.model.contains(deleted))
    // An update that still matches is an updated row; one that no longer matches leaves.
    marbles.events = []
    try controller.update(
      ItemID(rawValue: 32),
      with: SearchModel.Record(fields: [["iPad Air 2"]], attributes: ["Device", "2014", "499.00"]))
    try controller.update(
      ItemID(rawValue: 28),
      with: SearchModel.Record(fields: [["Tablet"]], attributes: ["Device", "2010", "499.00"]))
    #expect(
      marbles.events.joined(separator: " ")
        == "~32 orig{upd 0.31} res#4{upd 0.1} ~28 orig{upd 0.28} res#5{del 0.0} [rows 3]")
    // Whatever the changes, the results equal a fresh search.
    var fresh = IncrementalFilter()
    let query = try SearchQuery("ipad", normalizer: controller.corpus.normalizer)
    #expect(
      controller.results?.items == fresh.search(query, scope: 0, in: controller.corpus)?.items)
  }

  @Test func aModelChangeRestartsTheSearchInFlight() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try marbles.run("b t=ipad")
    marbles.events = []
    _ = try marbles.controller.insert(
      SearchModel.Record(
        fields: [["iPad (9th generation)"]], attributes: ["Device", "2021", "329.00"]))
    // The old search (#1) read the model before the change; #2 names the changed original
    // table on screen, and #3 runs the search again on the new model.
    #expect(try marbles.run("R") == "load show+ show [rows 5] reload(deferred,#3,5)")
    #expect(marbles.controller.discardedSearches == 1)
  }

  @Test func selectingARowGivesTheModelItem() throws {
    let marbles = try Marbles(corpus: corpus)
    _ = try marbles.run("b t=ipad")
    let item = try marbles.controller.selectRow(
      at: TableIndexPath(section: 0, row: 2), in: .results)
    #expect(marbles.controller.corpus.model.display(item) == "iPad Air (2013)")
    #expect(marbles.events.last == "select(results,32)")
    #expect(
      throws: SearchController.Error.noSuchRow(TableIndexPath(section: 0, row: 4), table: .results)
    ) {
      try marbles.controller.selectRow(at: TableIndexPath(section: 0, row: 4), in: .results)
    }
    // Every row of either table maps to its item and back.
    for kind in SearchController.TableKind.allCases {
      let table = marbles.controller.table(kind)
      for section in 0..<table.numberOfSections {
        for row in 0..<table.numberOfRows(inSection: section) {
          let path = TableIndexPath(section: section, row: row)
          let item = try #require(table.item(at: path))
          #expect(table.indexPath(of: item) == path)
        }
      }
    }
  }
}
