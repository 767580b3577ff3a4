import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The update stream: one update per visible change, sent when the tables agree with it, with
/// a change set from the rows on screen before.
///
/// Each test reproduces a way a front went wrong when it trusted the lifecycle events alone.
/// Products: 45 items; "mac" is in 17 names; "ipad" in 4 (28, 31, 32, 35); "ipa" in the same 4.
@MainActor
@Suite(.tags(.concurrent)) struct SearchUpdateTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  /// A front that redrew on `reload` alone kept the "mac" rows under "Type 1 more character":
  /// clearing the table is an update with its deletions.
  @Test func goingBelowTheThresholdIsAnUpdateThatDeletesTheRows() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(minimumLength: 3))
    _ = try marbles.run("b t=m")
    // Begin dims the original, then "m" goes from it (45 rows) to the empty results table
    // under the hint.
    #expect(marbles.updates.count == 2)
    #expect(marbles.updates[0] == "u(began,#0,\"\"@0,dimmed,original){}")
    #expect(marbles.updates[1].hasPrefix("u(textChanged,#1,\"m\"@0,below 2,results){del 0.0 "))
    #expect(try marbles.run("t=mac") == "text(mac) ?\"mac\"=now#2 [rows 17] reload(now,#2,17)")
    #expect(marbles.updates.count == 1)
    #expect(marbles.updates[0].hasPrefix("u(textChanged,#2,\"mac\"@0,rows 17,results){ins 0.0 "))
    _ = try marbles.run("t=ma")
    #expect(marbles.updates.count == 1)
    #expect(marbles.updates[0].hasPrefix("u(textChanged,#3,\"ma\"@0,below 1,results){del 0.0 "))
    #expect(marbles.mirror.sections.map(\.items.count) == [0])
    // Empty text: back to the dimmed original, all 45 rows inserted again.
    _ = try marbles.run("t=")
    #expect(marbles.updates.count == 1)
    #expect(marbles.updates[0].hasPrefix("u(textChanged,#4,\"\"@0,dimmed,original){ins 0.0 "))
    #expect(marbles.mirror.sections.map(\.items.count) == [45])
  }

  /// Turning ranking on re-orders the results on screen at once: one update, whose change
  /// set brings a mirror of the table to the ranked order; off brings model order back.
  @Test func rankingOnOrOffReordersTheResultsAtOnce() throws {
    let marbles = try Marbles(corpus: corpus)
    _ = try marbles.run("b t=mac")
    let shown = try #require(marbles.controller.results)
    #expect(marbles.controller.resultsTable.sections[0].items == shown.items)
    let before = marbles.updates.count
    marbles.controller.configuration.ranksResults = true
    let ranked = corpus.ranked(shown)
    #expect(ranked != shown.items, "the test needs an order that changes")
    #expect(marbles.controller.resultsTable.sections[0].items == ranked)
    #expect(marbles.updates.count == before + 1)
    #expect(marbles.updates.last?.hasPrefix("u(orderChanged,#1,\"mac\"@0,rows 17,results)") == true)
    #expect(marbles.mirror.sections.map(\.items) == [ranked])
    marbles.controller.configuration.ranksResults = false
    #expect(marbles.controller.resultsTable.sections[0].items == shown.items)
    #expect(marbles.mirror.sections.map(\.items) == [shown.items])
    #expect(marbles.updates.count == before + 2)
    // With no results on screen there is nothing to re-order.
    _ = try marbles.run("t=")
    let cleared = marbles.updates.count
    marbles.controller.configuration.ranksResults = true
    #expect(marbles.updates.count == cleared)
  }

  /// In the background mode the new order is laid out away from the main actor.
  ///
  /// Nothing changes until that job returns, then one update re-orders the rows. A search that
  /// started before the order changed shows its results in the new order too.
  @Test func rankingInTheBackgroundModeReordersWhenItsJobReturns() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try marbles.run("b t=mac R")
    let shown = try #require(marbles.controller.results)
    let ranked = corpus.ranked(shown)
    #expect(ranked != shown.items, "the test needs an order that changes")
    let before = marbles.updates.count
    marbles.controller.configuration.ranksResults = true
    #expect(marbles.updates.count == before)
    #expect(marbles.controller.resultsTable.sections[0].items == shown.items)
    _ = try marbles.run("R")
    #expect(marbles.updates.count == 1)
    #expect(marbles.updates.last?.hasPrefix("u(orderChanged,#1,\"mac\"@0,rows 17,results)") == true)
    #expect(marbles.mirror.sections.map(\.items) == [ranked])
    // "ip" searched without ranking; ranking turned on before its search ran.
    marbles.controller.configuration.ranksResults = false
    _ = try marbles.run("R t=ip")
    marbles.controller.configuration.ranksResults = true
    _ = try marbles.run("R")
    let found = try #require(marbles.controller.results)
    #expect(found.query.text == "ip" && corpus.ranked(found) != found.items)
    #expect(marbles.controller.resultsTable.sections[0].items == corpus.ranked(found))
    #expect(marbles.mirror.sections.map(\.items) == [corpus.ranked(found)])
  }

  /// A keystroke whose search runs in the background changes nothing on screen: no update;
  /// the deferred reload is one, with the rows' change set from the previous results.
  @Test func backgroundSearchesUpdateOnlyWhenTheirResultsArrive() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try marbles.run("b t=ip R")
    // ip: iPod x6, iPhone x5, iPad x4.
    #expect(
      marbles.updates.last?.hasPrefix("u(searchFinished,#1,\"ip\"@0,rows 15,results)") == true)
    _ = try marbles.run("t=ipa")
    #expect(marbles.updates == [])
    _ = try marbles.run("R")
    // The 11 iPods and iPhones go; the 4 iPads stay where they were relative to each other.
    #expect(marbles.updates.count == 1)
    let update = try #require(marbles.updates.first)
    #expect(update.hasPrefix("u(searchFinished,#2,\"ipa\"@0,rows 4,results){del "))
    #expect(!update.contains("ins") && !update.contains("mov"))
    #expect(update.components(separatedBy: "del ").count - 1 == 11)
  }

  /// One generation labelled two result sets: the refresh of the displayed "ipa" rows after a
  /// model change and the restarted "ipad" search both said #3.
  ///
  /// Now each set has its own.
  @Test func aGenerationNamesOneResultSet() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try marbles.run("b t=ipa R t=ipad")
    #expect(marbles.controller.generation == 2)
    marbles.events = []
    marbles.updates = []
    _ = try marbles.controller.insert(
      SearchModel.Record(
        fields: [["iPad (9th generation)"]], attributes: ["Device", "2021", "329.00"]))
    // The displayed "ipa" rows take the new item under #3, answering "ipa"; the restarted
    // "ipad" search is #4.
    #expect(marbles.events.joined(separator: " ") == "+45 orig{ins 0.45} res#3{ins 0.4} [rows 5]")
    #expect(marbles.updates == ["u(modelChanged,#3,\"ipa\"@0,rows 5,results){ins 0.4}"])
    #expect(marbles.controller.generation == 4)
    _ = try marbles.run("R")
    #expect(marbles.events == ["reload(deferred,#4,5)"])
    #expect(marbles.updates == ["u(searchFinished,#4,\"ipad\"@0,rows 5,results){}"])
  }

  /// During did-insert/update/delete the model was new but both tables old, so a deleted
  /// row's path still resolved to an empty record.
  ///
  /// Now every event sees the finished change.
  @Test func eventsOfAModelChangeSeeBothTablesUpToDate() throws {
    let controller = try SearchController(corpus: corpus, scheduler: ManualSearchScheduler())
    controller.begin()
    controller.setText("ipad")
    var checked = 0
    let token = controller.observe { event in
      switch event {
      case .didInsert(let id), .didUpdate(let id):
        #expect(controller.corpus.model.contains(id))
        #expect(controller.originalTable.indexPath(of: id) != nil)
        #expect(
          (controller.resultsTable.indexPath(of: id) != nil)
            == controller.corpus.model.display(id).lowercased().contains("ipad"))
        checked += 1
      case .didDelete(let id):
        #expect(!controller.corpus.model.contains(id))
        #expect(controller.originalTable.indexPath(of: id) == nil)
        #expect(controller.resultsTable.indexPath(of: id) == nil)
        checked += 1
      default: break
      }
    }
    let added = try controller.insert(
      SearchModel.Record(
        fields: [["iPad (9th generation)"]], attributes: ["Device", "2021", "329.00"]))
    try controller.update(
      added,
      with: SearchModel.Record(fields: [["Tablet"]], attributes: ["Device", "2021", "329.00"]))
    _ = try controller.deleteRow(at: TableIndexPath(section: 0, row: 0), in: .results)
    #expect(checked == 3)
    withExtendedLifetime(token) {}
  }

  /// `willHideResultsTable` saw no rows after `setText("")` but the old rows after
  /// `cancel()`.
  ///
  /// Both paths now show the pair the same, finished table: the empty one.
  @Test func willAndDidHideSeeTheSameTableOnEveryPath() throws {
    for path in ["t=", "X", "E"] {
      let marbles = try Marbles(corpus: corpus)
      _ = try marbles.run("b t=ipad")
      var seen: [String: Int] = [:]
      let token = marbles.controller.observe { event in
        switch event {
        case .willHideResultsTable: seen["will"] = marbles.controller.resultsTable.numberOfRows
        case .didHideResultsTable: seen["did"] = marbles.controller.resultsTable.numberOfRows
        default: break
        }
      }
      _ = try marbles.run(path)
      #expect(seen == ["will": 0, "did": 0], "\(path)")
      withExtendedLifetime(token) {}
    }
  }
}
