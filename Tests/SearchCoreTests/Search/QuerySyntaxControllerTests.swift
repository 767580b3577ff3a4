import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The controller reads its text in the configured syntax (products: 4 of the 45 names
/// contain "ipad").
@MainActor
@Suite(.tags(.concurrent)) struct QuerySyntaxControllerTests {
  @Test func extendedIsTheDefault() {
    #expect(SearchConfiguration().querySyntax == .extended)
  }

  @Test func theConfigurationChoosesTheSyntax() throws {
    let corpus = try Fixtures.corpus("products/products")
    let marbles = try Marbles(
      corpus: corpus, configuration: SearchConfiguration(querySyntax: .words, typos: .off))
    _ = try marbles.run("b t=!ipad")
    #expect(marbles.controller.resultsState.description == "No Results")
    _ = try marbles.run("t=ipad")
    #expect(marbles.controller.resultsTable.numberOfRows == 4)
    // With typos (the default), "!ipad" is five characters one edit away from "ipad".
    marbles.controller.configuration.statedTypos = nil
    _ = try marbles.run("t=!ipad")
    let rows = marbles.controller.resultsTable.sections.flatMap(\.items)
    #expect(rows.count == 4)
    #expect(rows.allSatisfy { marbles.controller.typos(of: $0) == 1 })
    marbles.controller.configuration.querySyntax = .extended
    _ = try marbles.run("t=!ipad")
    #expect(marbles.controller.resultsTable.numberOfRows == 41)
  }
}
