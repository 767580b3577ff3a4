import Foundation
import SearchCoreTesting
import Testing

@testable import SearchCore

/// The DocC guides' Swift examples, verbatim: each test holds one example, and
/// `everyExampleIsHere` checks that every ```swift block of the controller guides appears in
/// this file, so an example that stops compiling or stops being true fails the tests.
@MainActor
@Suite struct GuideExampleTests {
  let products: SearchCorpus

  init() throws { products = try Fixtures.corpus("products/products") }

  @Test func backgroundSearch() throws {
    let scheduler = ManualSearchScheduler()
    let controller = try SearchController(
      corpus: products, placeholder: "Search products",
      configuration: SearchConfiguration(mode: .background), scheduler: scheduler)
    var reloads: [SearchEvent] = []
    let token = controller.observe { event in
      if case .reload = event { reloads.append(event) }
    }
    controller.begin()
    controller.setText("i")
    controller.setText("ip")  // supersedes the search of "i"
    scheduler.runAllSearches()
    #expect(reloads == [.reload(.deferred, generation: 2, rows: 15)])
    #expect(controller.discardedSearches == 1)
    token.cancel()
  }

  @Test func dataSources() throws {
    var model = Model(
      schema: Schema(fields: [Schema.Field(name: "word")], displayTemplate: "{word}"))
    for word in ["nube", "Ñandú", "mesa", "ñoño", "oso", "árbol", "Nilo"] {
      _ = try model.append(ItemRecord(fields: [[word]], attributes: []))
    }
    let spanishWords = try SearchCorpus(model: model, normalizer: try Normalizer())
    let words = try SearchController(
      corpus: spanishWords,
      tableOptions: SearchController.TableOptions(
        sectioning: .firstLetter(field: "word"), rowOrder: .collation, locale: "es"),
      scheduler: ManualSearchScheduler())
    let table = words.originalTable
    let titles = table.sectionIndexTitles ?? []
    #expect(titles.firstIndex(of: "Ñ") == titles.firstIndex(of: "N").map { $0 + 1 })
    let path = TableIndexPath(section: 0, row: 0)
    let item = try #require(table.item(at: path))
    #expect(table.indexPath(of: item) == path)
    // What the example shows, spelled out.
    #expect(table.sections.map(\.title) == ["A", "M", "N", "Ñ", "O"])
    #expect(titles.count == 28 && titles.last == "#")  // A to Z, Ñ, and "#"
    #expect(table.sections[2].items.map { model.display($0) } == ["Nilo", "nube"])
  }

  @Test func scopeBar() throws {
    let controller = try SearchController(corpus: products, scheduler: ManualSearchScheduler())
    controller.begin()
    #expect(controller.resultsState == .dimmed)
    try controller.selectScope(1)  // "Device", with no text
    #expect(controller.resultsState == .rows(22))
    controller.setText("ipad")
    #expect(controller.resultsTable.numberOfRows == 4)
    try controller.selectScope(0)
    #expect(controller.searchBar.scopeTitles == ["All", "Device", "Desktop", "Portable"])
  }

  @Test func querySyntax() throws {
    let normalizer = products.normalizer
    let query = try Query("!mül", syntax: .words, normalizer: normalizer)  // the word "!mül"
    #expect(query.sets.count == 1 && query.sets[0].terms[0].text == "!mül")
    #expect(!query.sets[0].terms[0].isInverse)
    let controller = try SearchController(
      corpus: products, configuration: SearchConfiguration(querySyntax: .words))
    controller.begin()
    controller.setText("!ipad")  // no product has "!ipad"; in extended syntax, 41 lack "ipad"
    #expect(controller.resultsState == .noResults)
    controller.configuration.querySyntax = .extended
    controller.setText("!ipa")
    #expect(controller.resultsState == .rows(41))
  }

  @Test func everyExampleIsHere() throws {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    var checked = 0
    for guide in ["BackgroundSearch", "DataSources", "QueryLanguage", "ScopeBars"] {
      let path = Fixtures.root + "/Sources/SearchCore/SearchCore.docc/\(guide).md"
      let text = try String(contentsOfFile: path, encoding: .utf8)
      var inExample = false
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
          inExample = line == "```swift"
          continue
        }
        guard inExample, !line.isEmpty else { continue }
        checked += 1
        #expect(
          lines.contains(line.trimmingCharacters(in: .whitespaces)),
          "\(guide).md: \"\(line)\" is in no test")
      }
    }
    #expect(checked > 30)
  }
}
