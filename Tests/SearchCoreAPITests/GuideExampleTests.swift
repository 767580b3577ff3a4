import Foundation
import SearchCore
import SearchDataSets
import TestSupport
import Testing

/// The DocC guides' ```swift blocks: every block of every guide of SearchEngine.docc,
/// SearchCore.docc and SearchPostgres.docc must appear, whole and verbatim, in a file of `GuideExamples/`, where
/// it compiles against the public API only. A block that is not meant to compile (a fragment,
/// UIKit or SwiftUI code) is a plain ``` block instead.
enum Guides {
  /// The package's root, found from this file's path.
  static let root: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // SearchCoreAPITests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// The documentation catalogues whose guides are checked.
  static let catalogues = [
    "Sources/SearchEngine/SearchEngine.docc", "Sources/SearchCore/SearchCore.docc",
    "Sources/SearchPostgres/SearchPostgres.docc",
  ]

  /// The folder of the examples' source files.
  static let examplesFolder = "Tests/SearchCoreAPITests/GuideExamples"

  /// A fenced code block of a guide.
  struct Block: CustomStringConvertible {
    /// The guide, relative to the package's root.
    var guide: String
    /// The line of the opening fence, from 1.
    var line: Int
    /// The fence's language ("swift", "json"; empty for a plain fence).
    var language: String
    /// The block's lines, without the fences and without the fence's indentation.
    var lines: [String]

    var description: String { "\(guide):\(line)" }
  }

  /// The files under `folder` (relative to the root) whose names end with `suffix`, sorted.
  static func files(in folder: String, endingWith suffix: String) throws -> [String] {
    let base = root.appendingPathComponent(folder)
    let names = try FileManager.default.subpathsOfDirectory(atPath: base.path)
    return names.filter { $0.hasSuffix(suffix) }.sorted().map { folder + "/" + $0 }
  }

  /// The lines of a file relative to the root.
  static func lines(of path: String) throws -> [String] {
    let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
    }
  }

  /// The fenced code blocks of a Markdown text (``` or ~~~ fences, CommonMark's rules: a
  /// block ends at a fence of the same character at least as long, or at the end of the text).
  ///
  /// `unclosed` lists the blocks that reached the end of the text.
  static func blocks(of lines: [String], guide: String) -> (blocks: [Block], unclosed: [Block]) {
    var blocks: [Block] = []
    var open: (block: Block, fence: Substring, indent: Int)?
    for (number, line) in zip(1..., lines) {
      let indent = line.prefix { $0 == " " }.count
      let body = line.dropFirst(indent)
      let fence = body.prefix { $0 == "`" || $0 == "~" }.prefix { $0 == body.first }
      if let current = open {
        if fence.count >= current.fence.count, fence.first == current.fence.first,
          body.dropFirst(fence.count).allSatisfy(\.isWhitespace)
        {
          blocks.append(current.block)
          open = nil
        } else {
          open?.block.lines.append(String(line.dropFirst(min(indent, current.indent))))
        }
      } else if fence.count >= 3 {
        let info = body.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
        // A backtick fence's info string has no backtick: "``` x `y`" is inline code.
        guard !(fence.first == "`" && info.contains("`")) else { continue }
        let language = info.split(separator: " ").first.map(String.init) ?? ""
        open = (Block(guide: guide, line: number, language: language, lines: []), fence, indent)
      }
    }
    let unclosed = open.map { [$0.block] } ?? []
    return (blocks + unclosed, unclosed)
  }

  /// Whether `block` appears in `lines` as one run of consecutive lines, every line indented
  /// by the same white space (as a block in a function's body is); empty lines of the block
  /// match blank lines.
  ///
  /// Leading and trailing empty lines of the block are ignored.
  static func contains(_ lines: [String], block: [String]) -> Bool {
    let block = Array(
      block.drop { $0.allSatisfy(\.isWhitespace) }.reversed().drop {
        $0.allSatisfy(\.isWhitespace)
      }.reversed())
    guard let first = block.first, block.count <= lines.count else { return false }
    for start in 0...(lines.count - block.count) {
      let candidate = lines[start]
      guard candidate.hasSuffix(first) else { continue }
      let indent = candidate.dropLast(first.count)
      guard indent.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
      let matches = block.indices.allSatisfy { offset in
        let line = lines[start + offset]
        let wanted = block[offset]
        return wanted.allSatisfy(\.isWhitespace)
          ? line.allSatisfy(\.isWhitespace) : line == indent + wanted
      }
      if matches { return true }
    }
    return false
  }
}

/// A label, as the examples' observers set UIKit's `UILabel.text`; it keeps every text it
/// showed.
@MainActor
final class StatusLabel {
  private(set) var shown: [String] = []
  var text: String? {
    didSet { if let text { shown.append(text) } }
  }
}

/// The committed data sets the examples search.
enum GuideData {
  /// A committed data set, by its manifest's path under `Corpus/` without ".manifest.json".
  static func model(_ name: String) throws -> SearchModel {
    let path = Guides.root.appendingPathComponent("Corpus/\(name).manifest.json").path
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
    #expect(report.rejected.isEmpty, "the committed \(name) data set loads cleanly")
    return model
  }

  /// The 45 products of Corpus/products (scopes All, Device, Desktop, Portable).
  static func products() throws -> SearchCorpus {
    try SearchCorpus(model: try model("products/products"), normalizer: try Normalizer())
  }

  /// The Spanish words of the committed words sample, in one field, "word".
  static func spanishWords() throws -> SearchCorpus {
    let sample = try model("words/sample")
    let language = try #require(sample.schema.attributeIndex(named: "language"))
    let word = try #require(sample.schema.fieldIndex(named: "word"))
    var model = SearchModel(
      schema: SearchModel.Schema(fields: [SearchModel.Schema.Field(name: "word")]))
    for id in sample.ids where sample.attribute(language, of: id) == "Spanish" {
      _ = try model.append(SearchModel.Record(fields: [sample.values(of: id, field: word)]))
    }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }
}

@MainActor
@Suite(.tags(.plainSwift, .concurrent)) struct GuideExampleTests {
  /// Every ```swift block of every guide, found by listing the catalogues, is in a file of
  /// GuideExamples as a whole.
  @Test func everySwiftBlockOfTheGuidesIsCompiledHere() throws {
    let examples = try Guides.files(in: Guides.examplesFolder, endingWith: ".swift").map {
      ($0, try Guides.lines(of: $0))
    }
    #expect(!examples.isEmpty)
    var guides: [String] = []
    var swiftBlocks = 0
    for catalogue in Guides.catalogues {
      let found = try Guides.files(in: catalogue, endingWith: ".md")
      #expect(!found.isEmpty, "\(catalogue) has guides")
      guides += found
    }
    for guide in guides {
      let (blocks, unclosed) = Guides.blocks(of: try Guides.lines(of: guide), guide: guide)
      for block in unclosed {
        Issue.record("\(block): a code block that is never closed")
      }
      for block in blocks where block.language.lowercased() == "swift" {
        swiftBlocks += 1
        let home = examples.first { Guides.contains($0.1, block: block.lines) }
        #expect(
          home != nil,
          """
          \(block): this swift block is not, whole and verbatim, in any file of \
          \(Guides.examplesFolder) (make it compile there, or make it a plain ``` block if it \
          is not meant to compile)
          """)
      }
    }
    #expect(guides.contains("Sources/SearchCore/SearchCore.docc/Articles/GettingStarted.md"))
    #expect(guides.contains("Sources/SearchEngine/SearchEngine.docc/Articles/QueryLanguage.md"))
    #expect(guides.contains("Sources/SearchPostgres/SearchPostgres.docc/ScalingOut.md"))
    #expect(swiftBlocks > 0)
  }

  /// The check finds a block at any uniform indentation, and only as a whole.
  @Test func aBlockIsFoundOnlyWholeAndUniformlyIndented() {
    let file = [
      "func f() {", "  let a = 1", "", "  let b = a", "    .description", "}",
    ]
    #expect(Guides.contains(file, block: ["let a = 1", "", "let b = a", "  .description"]))
    #expect(Guides.contains(file, block: ["", "func f() {", "  let a = 1", ""]))
    #expect(!Guides.contains(file, block: ["let a = 1", "let b = a"]))  // not consecutive
    #expect(!Guides.contains(file, block: ["let b = a", ".description"]))  // indented unevenly
    #expect(!Guides.contains(file, block: ["let a = 1", "", "let b = a", "  .description", "x"]))
    let markdown = [
      "Text", "```swift", "let a = 1", "```", "  ```", "  plain", "  ```", "~~~~ swift", "x",
      "~~~", "y", "~~~~", "```json", "{}",
    ]
    let (blocks, unclosed) = Guides.blocks(of: markdown, guide: "G.md")
    #expect(blocks.map(\.language) == ["swift", "", "swift", "json"])
    #expect(blocks.map(\.lines) == [["let a = 1"], ["plain"], ["x", "~~~", "y"], ["{}"]])
    #expect(blocks.map(\.line) == [2, 5, 8, 13])
    #expect(unclosed.map(\.line) == [13])
  }

  /// BackgroundSearch.md: the search of "i" is superseded and dropped; the label shows the
  /// one deferred reload, of "ip", generation 2, 15 rows.
  @Test func backgroundSearch() async throws {
    let label = StatusLabel()
    let (controller, token) = try backgroundSearchExample(
      products: try GuideData.products(), statusLabel: label)
    // The example returns before any search can finish (they finish on the main actor).
    let reloads = ReloadLog()
    let observation = controller.observe { event in
      if case .reload = event { reloads.events.append(event) }
    }
    try await Self.settle(controller)
    #expect(reloads.events == [.reload(.deferred, generation: 2, rows: 15)])
    #expect(label.shown == ["15 results"])
    #expect(controller.discardedSearches == 1)
    #expect(controller.resultsState == .rows(15))
    #expect(controller.resultsTable.numberOfRows == 15)
    token.cancel()
    observation.cancel()
  }

  /// DataSources.md: Spanish's index, the first section, and a row's item and back.
  @Test func dataSources() throws {
    let spanishWords = try GuideData.spanishWords()
    let example = try dataSourcesExample(spanishWords: spanishWords)
    let titles = try #require(example.titles)
    let n = try #require(titles.firstIndex(of: "N"))
    #expect(titles.first == "A" && titles.last == "#" && titles.count == 28)  // A–Z, Ñ, #
    #expect(titles[n + 1] == "Ñ" && titles[n + 2] == "O")
    #expect(example.header == "A")
    // The words under A, counted apart from the engine: Foundation's folding, first letter.
    let model = spanishWords.model
    let underA = model.ids.map { model.display($0) }.filter {
      $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).hasPrefix("a")
    }
    #expect(example.rows == underA.count && example.rows == 46)
    #expect(underA.contains("árbitro"))
    let table = example.words.originalTable
    let section = (0..<example.rows).compactMap {
      table.item(at: TableIndexPath(section: 0, row: $0)).map { model.display($0) }
    }
    #expect(Set(section) == Set(underA))
    let item = try #require(example.item)
    #expect(model.display(item) == section.first)
    #expect(example.path == TableIndexPath(section: 0, row: 0))
  }

  /// QueryLanguage.md: "!mül" is one word, and "!ipad" finds nothing as words; in extended
  /// syntax, 41 products lack "ipad".
  @Test func queryLanguage() throws {
    let products = try GuideData.products()
    let (query, controller) = try queryLanguageExample(
      products: products, normalizer: products.normalizer)
    #expect(query.sets.count == 1 && query.sets[0].terms.count == 1)
    let term = try #require(query.sets.first?.terms.first)
    #expect(term.text == "!mül" && !term.isInverse && term.kind == .exact)
    #expect(controller.resultsState == .noResults)
    let extended = try SearchController(corpus: products)
    extended.begin()
    extended.setText("!ipad")
    #expect(extended.resultsState == .rows(41))
  }

  /// QueryLanguage.md, typos: the words query keeps its tolerance, and the stricter rule's
  /// budgets are those it names.
  @Test func queryLanguageTypos() throws {
    let normalizer = try Normalizer()
    let (query, strict) = try queryLanguageTyposExample(normalizer: normalizer)
    #expect(query.typos == .default && query.syntax == .words)
    #expect([5, 6, 11, 12].map { strict.budget(forLength: $0) } == [0, 1, 1, 2])
  }

  /// ScopeBars.md: the products' scope titles, and the states the label shows.
  @Test func scopeBars() throws {
    let label = StatusLabel()
    let (controller, titles, token) = try scopeBarsExample(
      products: try GuideData.products(), statusLabel: label)
    #expect(titles == ["All", "Device", "Desktop", "Portable"])
    #expect(label.shown == ["Dimmed", "22 results", "4 results", "No Results"])
    #expect(controller.searchBar.selectedScope == 3)
    token.cancel()
  }

  /// SearchEngine.md: "CAFE" matches "café" in "Un café", on whole characters.
  @Test func overview() throws {
    let (text, ranges) = try overviewExample()
    #expect(ranges.map { text.original[$0] } == ["café"])
  }

  /// RankingRules.md: the schema's ranking puts population after exactness, before position.
  @Test func rankingRules() throws {
    let schema = rankingRulesExample()
    #expect(
      schema.ranking.rules == [
        .words, .typos, .field, .exactness, .attribute("population", .descending), .position,
        .length,
      ])
    var model = SearchModel(schema: schema)
    for (name, people) in [("Zuru", "4000"), ("Zürich", "341730")] {
      try model.append(SearchModel.Record(fields: [[name], []], attributes: [people]))
    }
    let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
    let found = try Fixtures.search(
      try SearchQuery("zur", normalizer: corpus.normalizer), in: corpus)
    let ranked = corpus.ranked(found)
    #expect(ranked.map { corpus.model.values(of: $0, field: 0)[0] } == ["Zürich", "Zuru"])
  }

  /// Waits until the controller is idle, as `waitUntilIdle()` does, but fails the test after
  /// `limit` instead of hanging the run (a bound, not a timing assertion).
  static func settle(_ controller: SearchController, within limit: Duration = .seconds(120))
    async throws
  {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while !controller.isIdle {
      guard clock.now < deadline else {
        Issue.record("the controller is not idle after \(limit)")
        return
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }
}

/// The reload events a test's own observer heard.
@MainActor
private final class ReloadLog {
  var events: [SearchEvent] = []
}
