import SearchDataSets
import SearchEngine
import TestSupport
import Testing

/// The README's library example, statement by statement.
@Suite struct ReadmeExampleTests {
  @Test func libraryExample() throws {
    let normalizer = try Normalizer()
    #expect(try normalizer.fold("Straße") == "strasse")

    let text = try normalizer.foldedText("Un café, s’il vous plaît")
    let pattern = try FoldedPattern("CAFE", normalizer: normalizer)
    #expect(pattern.originalRanges(in: text).map { String(text.original[$0]) } == ["café"])
    let match = try #require(pattern.firstMatch(in: text))
    #expect(text.utf16Range(forFolded: match) == 3..<7)

    let turkish = try Normalizer(locale: "tr")
    #expect(try turkish.fold("DİYARBAKIR") == turkish.fold("diyarbakır"))
    let mixed = try Normalizer(folding: [.case, .diacritics, .compatibility, .dotlessI])
    #expect(try mixed.fold("Işık İzmir") == "isik izmir")
    let latin = try Normalizer(folding: [.case, .diacritics, .compatibility, .latin])
    #expect(try latin.fold("Москва") == "moskva")
  }
}

extension ReadmeExampleTests {
  @Test func typingExample() throws {
    let normalizer = try Normalizer()
    let path = Fixtures.root + "/Corpus/words/sample.manifest.json"
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
    #expect(report.rejected.isEmpty)
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    #expect(corpus.scopeBar.titles[4] == "German")
    var filter = IncrementalFilter()
    var counts: [Int] = []
    var paths: [SearchResult.Path] = []
    for text in ["ü", "üb", "übe", "über"] {
      let query = try SearchQuery(text, normalizer: normalizer)
      let found = filter.search(query, scope: 4, in: corpus)
      let result = try #require(found)
      counts.append(result.items.count)
      paths.append(result.path)
    }
    #expect(
      paths == [.fullScan, .narrowed(from: "ü"), .narrowed(from: "üb"), .narrowed(from: "übe")])
    #expect(counts == counts.sorted(by: >))
    #expect(counts[3] > 0)
  }
}
