import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The promises of ``SearchController/Update`` that were once broken, each as the timeline that
/// broke it: a generation names one set of rows, text of only white space is empty text, and
/// an update goes out when the text it reports changes.
///
/// Products: 45 items; 22 are Devices (scope 1); "ip" is in 15 names.
@MainActor
@Suite(.tags(.concurrent)) struct SearchUpdateContractTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  private var newIPad: SearchModel.Record {
    SearchModel.Record(
      fields: [["iPad (9th generation)"]], attributes: ["Device", "2021", "329.00"])
  }

  /// Cancel showed every item under #2, and the begin after it searched the scope under #2
  /// too: one generation labelled every item and the 22 Devices.
  ///
  /// A begin that asks the delegate is a request, with its own generation.
  @Test func aBeginAfterCancelSearchesUnderANewGeneration() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try marbles.run("b s=1 R")
    #expect(marbles.updates.last?.hasPrefix("u(searchFinished,#1,\"\"@1,rows 22,results)") == true)
    _ = try marbles.run("X")
    #expect(marbles.updates.count == 1)
    #expect(marbles.updates.first?.hasPrefix("u(ended,#2,\"\"@1,hidden,original)") == true)
    #expect(try marbles.run("b") == "wb db ?^=deferred#3")
    #expect(marbles.updates == [])
    _ = try marbles.run("R")
    #expect(marbles.updates.count == 1)
    #expect(marbles.updates.first?.hasPrefix("u(searchFinished,#3,\"\"@1,rows 22,results)") == true)
  }

  /// Before any search began, every insert or removal said #0, each with other rows.
  ///
  /// A model change takes a generation whether or not a search is under way.
  @Test func aModelChangeBeforeTheSearchBeginsTakesANewGeneration() throws {
    let marbles = try Marbles(corpus: corpus)
    let id = try marbles.controller.insert(newIPad)
    try marbles.controller.remove(id)
    #expect(
      marbles.updates == [
        "u(modelChanged,#1,\"\"@0,hidden,original){ins 0.45}",
        "u(modelChanged,#2,\"\"@0,hidden,original){del 0.45}",
      ])
  }

  /// A model change while the first search of a begin ran labelled the changed original
  /// table with the generation the restarted search then installed its results under (seen
  /// after cancel and begin in a scope over 20,000 items: #487 hidden, then #487 with 606
  /// rows).
  ///
  /// The rows on screen take one generation, the restarted search the next.
  @Test func aModelChangeDuringTheFirstSearchLabelsTheRowsOnScreenApart() throws {
    // Dimmed: the search of "ip" runs, the original table is on screen.
    let dimmed = try Marbles(
      corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try dimmed.run("b t=ip")
    dimmed.updates = []
    _ = try dimmed.controller.insert(newIPad)
    #expect(dimmed.updates == ["u(modelChanged,#2,\"\"@0,dimmed,original){ins 0.45}"])
    _ = try dimmed.run("R")
    #expect(dimmed.updates.count == 1)
    #expect(
      dimmed.updates.first?.hasPrefix("u(searchFinished,#3,\"ip\"@0,rows 16,results)") == true)

    // Hidden: cancel, then begin in a scope; the search of the scope runs.
    let hidden = try Marbles(
      corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try hidden.run("b s=1 R X b")
    hidden.updates = []
    _ = try hidden.controller.insert(newIPad)
    #expect(hidden.updates == ["u(modelChanged,#4,\"\"@1,hidden,original){ins 0.45}"])
    _ = try hidden.run("R")
    #expect(hidden.updates.count == 1)
    #expect(hidden.updates.first?.hasPrefix("u(searchFinished,#5,\"\"@1,rows 23,results)") == true)
  }

  /// A single space searched, and the results table showed every item.
  ///
  /// White space alone is empty text: dimmed, the original table on screen, no search.
  @Test func whiteSpaceAloneIsEmptyText() throws {
    let marbles = try Marbles(corpus: corpus)
    _ = try marbles.run("b")
    marbles.events = []
    marbles.controller.setText(" ")
    #expect(marbles.events == ["text( )", "?\" \"=none#1"])
    #expect(marbles.controller.resultsState == .dimmed)
    #expect(marbles.controller.visibleTable == .original)
    #expect(marbles.controller.results == nil)
    // From results, too: the rows go and every item shows again.
    _ = try marbles.run("t=mac")
    marbles.controller.setText(" \t ")
    #expect(marbles.controller.resultsState == .dimmed)
    #expect(marbles.controller.visibleTable == .original)
    #expect(marbles.mirror.sections.map(\.items.count) == [45])
    // In the background, nothing runs either.
    let background = try Marbles(
      corpus: corpus, configuration: SearchConfiguration(mode: .background))
    _ = try background.run("b")
    background.controller.setText("  ")
    #expect(!background.controller.isSearchPending)
    #expect(background.scheduler.pendingSearches == 0)
    #expect(background.controller.resultsState == .dimmed)
  }

  /// Below the minimum length, "a" then "b" changed neither the rows nor the state, so no
  /// update went out and a front still said the rows answered "a".
  ///
  /// An update goes out when the text it reports changes, even if the rows do not.
  @Test func belowTheMinimumLengthEveryKeystrokeIsAnUpdate() throws {
    let marbles = try Marbles(corpus: corpus, configuration: SearchConfiguration(minimumLength: 3))
    _ = try marbles.run("b t=a")
    #expect(
      marbles.updates.last?.hasPrefix("u(textChanged,#1,\"a\"@0,below 2,results){del ") == true)
    _ = try marbles.run("t=b")
    #expect(marbles.updates == ["u(textChanged,#2,\"b\"@0,below 2,results){}"])
  }
}
