/// How many typos each item of a query's results needed, and the order a list that does not
/// rank shows them in: the items that contain every word exactly first, then those found
/// with one typo, then two and more, each group in model order.
///
/// A set of the query costs an item nothing when one of its words occurs in the item exactly
/// (or a number equals a number attribute, or an inverse word is missing); otherwise the
/// fewest edits with which one of its words found a word of the item. The item's count is the
/// sum over the sets, as the ranking counts it (``SearchCorpus/ranked(_:)``).
struct TypoCounter: Sendable {
  /// The query's sets that have a word with a typo budget, with their index in the query; the
  /// other sets cost nothing.
  private let sets: [(index: Int, terms: [TermMatcher])]
  private let fields: [FieldText]
  private let model: SearchModel

  /// The counter of `query`'s results in `scope`; nil when no word of the query may have a
  /// typo, so that every result is exact.
  init?(corpus: SearchCorpus, query: SearchQuery, scope: Int) {
    let sets = zip(query.sets, query.typoRules).enumerated().map { index, set in
      let terms = zip(set.0.terms, set.1).map { term, rule in
        var matcher = TermMatcher(term)
        matcher.numberMatches = corpus.numberMatches(of: matcher.number)
        matcher.typo = TypoWord(term, rule: rule)
        return matcher
      }
      return (index: index, terms: terms)
    }
    .filter { set in set.terms.contains { $0.typo != nil } }
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
    for set in sets { total += typos(of: item, set: set.terms) }
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

  /// The items of `result` that needed typos, and how many each: items absent from it
  /// contain every word exactly.
  ///
  /// Only the items the word index finds for a word with typos can have needed one, so this
  /// costs a look at those, not at every result: a short word that most items contain exactly
  /// is cheap. A set that the search scanned tells them itself (``SearchResult/typoOnly``);
  /// for another one the word index is searched again, and each item it finds among the
  /// results is checked for an exact match.
  func counts(of result: SearchResult, corpus: SearchCorpus) -> TypoMatches {
    guard !result.items.isEmpty else { return TypoMatches() }
    var results = Bitset(capacity: model.identityLimit)
    for id in result.items { results.insert(Int(id.rawValue)) }
    // The sum so far by identity (saturating), and the items with one.
    var total = [UInt8](repeating: 0, count: model.identityLimit)
    var found: [Int32] = []
    func add(_ typos: UInt8, to item: Int32) {
      guard typos > 0 else { return }
      let sum = total[Int(item)]
      if sum == 0 { found.append(item) }
      total[Int(item)] = UInt8(clamping: Int(sum) + Int(typos))
    }
    for set in sets {
      if let known = result.typoOnly[set.index] {
        for (item, typos) in zip(known.items, known.typos) where results.contains(Int(item)) {
          add(typos, to: item)
        }
        continue
      }
      var fewest: TypoMatches?
      for term in set.terms {
        guard let typo = term.typo else { continue }
        let matches = corpus.typoMatches(of: term.needle, rule: typo.rule, scope: result.scope)
        fewest = fewest.map { $0.merging(matches) } ?? matches
      }
      for (item, typos) in zip(fewest?.items ?? [], fewest?.typos ?? [])
      where results.contains(Int(item)) && !matchesExactly(set.terms, item: item) {
        add(typos, to: item)
      }
    }
    return TypoMatches(found: found, best: total)
  }

  /// Whether one of the set's words occurs in the item exactly (or an inverse one does not).
  private func matchesExactly(_ set: [TermMatcher], item: Int32) -> Bool {
    set.contains { occursExactly($0, in: item) != $0.isInverse }
  }
}

/// Items grouped by the typos each needed: exact ones first.
package struct TypoCounts: Sendable {
  /// The typos by identity, up to the last item that needed some.
  private let table: [UInt8]

  /// The grouping by `counts` (absent items: 0).
  package init(_ counts: TypoMatches) {
    var table = [UInt8](repeating: 0, count: counts.items.last.map { Int($0) + 1 } ?? 0)
    for (item, typos) in zip(counts.items, counts.typos) { table[Int(item)] = typos }
    self.table = table
  }

  /// `items` grouped by their typos, fewest first, each group in the order given.
  package func exactFirst(_ items: [ItemID]) -> [ItemID] {
    guard !table.isEmpty else { return items }
    var groups = [[ItemID]](repeating: [], count: Int(UInt8.max) + 1)
    groups[0].reserveCapacity(items.count)
    for item in items {
      let index = Int(item.rawValue)
      groups[index < table.count ? Int(table[index]) : 0].append(item)
    }
    return Array(groups.joined())
  }

  /// `items` grouped by `counts`, fewest first, each group in the order given.
  package static func exactFirst(_ items: [ItemID], counts: TypoMatches) -> [ItemID] {
    TypoCounts(counts).exactFirst(items)
  }
}

extension SearchCorpus {
  /// How many typos an item of the results of `query` in `scope` needed: over the query's
  /// words, the fewest edits with which each found a word of the item, summed; 0 when the item
  /// contains every word exactly, and for a query without typo tolerance (``SearchQuery/typos``).
  ///
  /// A list labels the rows found with typos by it ("did you mean"), and the ranking orders by
  /// it first (``ranked(_:)``).
  ///
  /// - Parameters:
  ///   - id: An item of the query's results.
  ///   - query: The query the results are of.
  ///   - scope: The scope searched.
  public func typos(of id: ItemID, for query: SearchQuery, scope: Int = 0) -> Int {
    guard model.contains(id), let counter = TypoCounter(corpus: self, query: query, scope: scope)
    else { return 0 }
    return counter.typos(of: id.rawValue)
  }

  /// The items of a result in the order a list that does not rank them shows: those that
  /// contain every word of the query exactly first, then those found with one typo, then two
  /// and more, each group in model order.
  ///
  /// The result's own order (model order) for a query without typo tolerance, or when every item is
  /// exact.
  ///
  /// ``SearchResult/items`` stay in model order, which narrowing the next keystroke needs;
  /// this is the order of the rows.
  public func exactFirst(_ result: SearchResult) -> [ItemID] {
    TypoCounts.exactFirst(result.items, counts: typoCounts(of: result))
  }

  /// The items of a result that needed typos, and how many each (see
  /// ``typos(of:for:scope:)``); empty when every item contains every word exactly.
  package func typoCounts(of result: SearchResult) -> TypoMatches {
    guard let counter = TypoCounter(corpus: self, query: result.query, scope: result.scope)
    else { return TypoMatches() }
    return counter.counts(of: result, corpus: self)
  }
}

extension SearchCorpus {
  /// The word index of the searched fields, built now if it is not yet.
  var wordIndex: WordIndex {
    wordIndexCache.index { WordIndex(index: index, model: model) }
  }

  /// Builds the word index that typo tolerance reads, unless it is built: what the first
  /// query with a typo budget would otherwise do (a benchmark times it apart).
  package func prepareWordIndex() { _ = wordIndex }

  /// Whether the word index is built.
  package var wordIndexIsBuilt: Bool { wordIndexCache.current != nil }

  /// The items of `scope` that the folded word `word` finds with typos under `rule` (none
  /// when its budget is 0): those with a word of a searched field of the scope within the
  /// budget, at distance 1 or more.
  func typoMatches(of word: [UInt8], rule: TypoRule, scope: Int) -> TypoMatches {
    guard rule.budget > 0 else { return TypoMatches() }
    let words = wordIndex
    let query = words.codes(of: String(decoding: word, as: UTF8.self))
    let searched = scopeFields[scope]
    let members = scopeMembers[scope]
    let model = self.model
    // The fewest edits of each item found, by identity (0: not found; a word at distance 0
    // is never reported), and the items in the order found.
    var best = [UInt8](repeating: 0, count: model.identityLimit)
    var found: [Int32] = []
    for (field, value, distance) in words.postings(
      of: query, budget: rule.budget, prefix: rule.isPrefix)
    {
      guard searched.contains(field), value < model.columns[field].valueCount else { continue }
      let owner = model.valueMaps[field].owner(of: value)
      guard distance > 0, owner >= 0, model.isAlive[Int(owner)],
        members?.contains(Int(owner)) ?? true
      else { continue }
      let known = best[Int(owner)]
      if known == 0 { found.append(owner) } else if Int(known) <= distance { continue }
      best[Int(owner)] = UInt8(clamping: distance)
    }
    return TypoMatches(found: found, best: best)
  }
}
