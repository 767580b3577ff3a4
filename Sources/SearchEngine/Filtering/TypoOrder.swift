/// How many typos each item of a query's results needed, and the order a list that does not
/// rank shows them in: the items that contain every word exactly first, then those found
/// with one typo, then two and more, each group in model order.
///
/// A set of the query costs an item nothing when one of its words occurs in the item exactly
/// (or a number equals a number attribute, or an inverse word is missing); otherwise the
/// fewest edits with which one of its words found a word of the item. The item's count is the
/// sum over the sets, as the ranking counts it (``SearchCorpus/ranked(_:)``).
struct TypoCounter: Sendable {
  /// The query's sets that have a word with a typo budget; the other sets cost nothing.
  private let sets: [[TermMatcher]]
  private let fields: [FieldText]
  private let model: Model

  /// The counter of `query`'s results in `scope`; nil when no word of the query may have a
  /// typo, so that every result is exact.
  init?(corpus: SearchCorpus, query: Query, scope: Int) {
    let sets = zip(query.sets, query.typoRules).map { set, rules in
      zip(set.terms, rules).map { term, rule in
        var matcher = TermMatcher(term)
        matcher.numberMatches = corpus.numberMatches(of: matcher.number)
        matcher.typo = TypoWord(term, rule: rule)
        return matcher
      }
    }
    .filter { set in set.contains { $0.typo != nil } }
    guard !sets.isEmpty else { return nil }
    self.sets = sets
    self.fields = corpus.scopeFields[scope].compactMap { field in
      corpus.index.fields[field].map { FieldText(values: $0, map: corpus.model.valueMaps[field]) }
    }
    self.model = corpus.model
  }

  /// The typos `item` needed: 0 when it contains every word exactly.
  func typos(of item: Int32) -> Int {
    var total = 0
    for set in sets { total += typos(of: item, set: set) }
    return total
  }

  private func typos(of item: Int32, set: [TermMatcher]) -> Int {
    var fewest: Int?
    for term in set {
      if occursExactly(term, in: item) != term.isInverse { return 0 }
      guard let typo = term.typo, let found = typo.best(ofItem: item, fields: fields)?.typos else {
        continue
      }
      fewest = min(fewest ?? found, found)
    }
    // An item of the results matched the set some way; a set it did not match costs nothing.
    return fewest ?? 0
  }

  private func occursExactly(_ term: TermMatcher, in item: Int32) -> Bool {
    if !term.numberMatches.isEmpty,
      SearchCorpus.hasNumber(Int(item), matches: term.numberMatches, model: model)
    {
      return true
    }
    return fields.contains { field in
      let range = field.map.range(of: Int(item))
      return term.matches(field.values, first: range.lowerBound, end: range.upperBound)
    }
  }

  /// `items` grouped by their typo counts, fewest first, each group in the order given.
  func exactFirst(_ items: [ItemID]) -> [ItemID] {
    guard !items.isEmpty else { return items }
    let chunkCount =
      items.count < QueryEvaluator.parallelThreshold ? 1 : Parallel.activeProcessorCount * 4
    let ranges = Parallel.ranges(
      count: items.count, size: (items.count + chunkCount - 1) / chunkCount)
    let counts = Parallel.map(chunks: ranges.count) { chunk in
      items[ranges[chunk]].map { UInt8(clamping: typos(of: $0.rawValue)) }
    }
    .flatMap { $0 }
    guard counts.contains(where: { $0 > 0 }) else { return items }
    // A counting sort keeps each group in the order given.
    var starts = [Int](repeating: 0, count: 257)
    for count in counts { starts[Int(count) + 1] += 1 }
    for index in 1..<starts.count { starts[index] += starts[index - 1] }
    var ordered = items
    for (item, count) in zip(items, counts) {
      ordered[starts[Int(count)]] = item
      starts[Int(count)] += 1
    }
    return ordered
  }
}

extension SearchCorpus {
  /// How many typos an item of the results of `query` in `scope` needed: over the query's
  /// words, the fewest edits with which each found a word of the item, summed; 0 when the item
  /// contains every word exactly, and for a query without typo tolerance (``Query/typos``).
  ///
  /// A list labels the rows found with typos by it ("did you mean"), and the ranking orders by
  /// it first (``ranked(_:)``).
  ///
  /// - Parameters:
  ///   - id: An item of the query's results.
  ///   - query: The query the results are of.
  ///   - scope: The scope searched.
  public func typos(of id: ItemID, for query: Query, scope: Int = 0) -> Int {
    guard model.contains(id), let counter = TypoCounter(corpus: self, query: query, scope: scope)
    else { return 0 }
    return counter.typos(of: id.rawValue)
  }

  /// The items of a result in the order a list that does not rank them shows: those that
  /// contain every word of the query exactly first, then those found with one typo, then two
  /// and more, each group in model order. The result's own order (model order) for a query
  /// without typo tolerance, or when every item is exact.
  ///
  /// ``SearchResult/items`` stay in model order, which narrowing the next keystroke needs;
  /// this is the order of the rows.
  public func exactFirst(_ result: SearchResult) -> [ItemID] {
    guard let counter = TypoCounter(corpus: self, query: result.query, scope: result.scope)
    else { return result.items }
    return counter.exactFirst(result.items)
  }
}
