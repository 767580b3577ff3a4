import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Highlights fold again only the values the index says a term matches: they are those of
/// folding every value, on real cities with many alternate names in many scripts.
@Suite struct HighlightPrefilterTests {
  @Test func foldingTheMatchedValuesGivesTheHighlightsOfFoldingThemAll() throws {
    let corpus = try Fixtures.corpus("cities/cities")
    var random = SplitMix64(seed: 0x4A11)
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let syntaxes: [SearchQuery.Syntax] = [.words, .extended, .literal]
    var compared = 0
    var withTypos = 0
    for _ in 0..<300 {
      // A piece of a value of a random city: a name, or one of its alternate names.
      let item = corpus.model.id(at: pick(corpus.model.count))
      let field = pick(corpus.model.schema.fields.count)
      let values = corpus.model.values(of: item, field: field)
      guard !values.isEmpty else { continue }
      var characters = Array(values[pick(values.count)])
      guard !characters.isEmpty else { continue }
      let start = pick(characters.count)
      characters = Array(characters[start..<min(characters.count, start + 1 + pick(8))])
      if characters.count >= 6, pick(2) == 0 {
        // A typo: a letter changed, which the words syntax may still find.
        characters[characters.count / 2] = "x"
      }
      var text = String(characters)
      let syntax = syntaxes[pick(syntaxes.count)]
      if syntax == .extended { text = ["", "^", "'", "!zz "][pick(4)] + text }
      guard
        let query = try? SearchQuery(
          text, syntax: syntax, typos: .default, normalizer: corpus.normalizer),
        let result = try? Fixtures.search(query, scope: 0, in: corpus)
      else { continue }
      for id in result.items.prefix(4) {
        let prefiltered = try corpus.highlights(
          of: id, for: query, scope: 0, foldingEveryValue: false)
        let reference = try corpus.highlights(of: id, for: query, scope: 0, foldingEveryValue: true)
        #expect(prefiltered == reference, "\(text) (\(syntax)) in item \(id.rawValue)")
        // Those of one field (a row's display) are the same, when no typos are looked for.
        if !query.typoRules.joined().contains(where: { $0.budget > 0 }) {
          let names = try corpus.highlights(
            of: id, for: query, scope: 0, foldingEveryValue: false, in: [0])
          #expect(names == reference.filter { $0.field == 0 }, "\(text) in \(id.rawValue)")
        }
        if reference.contains(where: { !$0.ranges.isEmpty }) { compared += 1 }
        if query.typoRules.joined().contains(where: { $0.budget > 0 }) { withTypos += 1 }
      }
    }
    #expect(compared > 400 && withTypos > 20, "\(compared) compared, \(withTypos) with typos")
  }
}
