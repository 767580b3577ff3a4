@testable import SearchEngine

extension SearchCorpus {
  /// The results of each query of `queries`, in every scope in turn, by a full evaluation of
  /// the corpus (no earlier results): what corpora that must agree are compared by.
  func fullResults(of queries: [String]) throws -> [[ItemID]] {
    try queries.flatMap { text in
      let query = try SearchQuery(text, normalizer: normalizer)
      return scopeBar.scopes.indices.map { scope in
        QueryEvaluator(corpus: self, query: query, scope: scope)
          .evaluate(candidates: nil, isCancelled: { false }) ?? []
      }
    }
  }
}
