// The QueryLanguage guide's swift block, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder, and drives this one).
import SearchCore

/// A search field that reads words: nothing typed is an operator.
@MainActor
func queryLanguageExample(products: SearchCorpus, normalizer: Normalizer) throws
  -> (query: SearchQuery, controller: SearchController)
{
  let query = try SearchQuery("!mül", syntax: .words, normalizer: normalizer)  // the word "!mül"
  let controller = try SearchController(
    corpus: products, configuration: SearchConfiguration(querySyntax: .words, typos: .off))
  controller.begin()
  controller.setText("!ipad")  // no product has "!ipad"; in extended syntax, 41 lack "ipad"
  return (query, controller)
}

/// The same guide's block on typos: a words query that tolerates them, and a stricter rule.
func queryLanguageTyposExample(normalizer: Normalizer) throws -> (SearchQuery, TypoTolerance) {
  let query = try SearchQuery("calfornia", syntax: .words, typos: .default, normalizer: normalizer)
  let strict = try TypoTolerance(oneTypoFrom: 6, twoTyposFrom: 12)
  return (query, strict)
}
