/// Answers a sequence of searches as a user types, reusing earlier results.
///
/// When the new query narrows an earlier one (same scope, a filter with at least its
/// conditions, see ``SearchQuery/narrows(_:matchingNumbers:)`` and ``AttributeFilter/narrows(_:)``),
/// only the earlier results are checked; a query seen before (after a backspace) is answered from a
/// small stack of earlier results. Any change of the corpus clears the stack. Whatever path is
/// taken, the result equals a full scan: that invariant is what the tests check.
public struct IncrementalFilter: Sendable {
  /// How many earlier results are kept: enough for a word typed and erased again.
  public static let defaultDepth = 32
  /// How many item identities the kept results may hold together, as a multiple of the
  /// corpus's items: bounds the memory of the stack (4 bytes an identity) to a small multiple
  /// of the model's own.
  ///
  /// The newest result is always kept.
  public static let itemBudgetFactor = 1

  /// The most recent results, oldest first.
  private var stack: [SearchResult] = []
  private let depth: Int

  /// Creates a filter with an empty stack.
  public init(depth: Int = IncrementalFilter.defaultDepth) { self.depth = max(depth, 1) }

  /// The earlier results kept, oldest first.
  public var cachedResults: [SearchResult] { stack }

  /// Forgets every earlier result.
  public mutating func reset() { stack.removeAll() }

  /// Runs `query` in `scope` over `corpus`; nil when `isCancelled` said stop (the stack is
  /// then unchanged).
  public mutating func search(
    _ query: SearchQuery, scope: Int, in corpus: SearchCorpus,
    isCancelled: @Sendable () -> Bool = { false }
  ) -> SearchResult? {
    // The empty filter names no attribute: nothing to refuse.
    (try? search(query, scope: scope, filter: .none, in: corpus, isCancelled: isCancelled)) ?? nil
  }

  /// Runs `query` in `scope`, among the items `filter` admits, over `corpus`.
  ///
  /// With `countingScopes`, it also counts the results of every scope of the bar (see
  /// ``SearchResult/scopeCounts``) in the same pass: the search then runs in scope "All",
  /// whose results are kept for later searches, and the scope's results are taken from
  /// them.
  ///
  /// nil when `isCancelled` said stop (the stack is then unchanged).
  ///
  /// - Throws: ``AttributeFilter/Error`` when the filter names an attribute the model lacks.
  public mutating func search(
    _ query: SearchQuery, scope: Int, filter: AttributeFilter, countingScopes: Bool = false,
    in corpus: SearchCorpus, isCancelled: @Sendable () -> Bool = { false }
  ) throws(AttributeFilter.Error) -> SearchResult? {
    let plan = self.plan(
      query, scope: scope, filter: filter, countingScopes: countingScopes, corpus: corpus)
    guard
      let result = try Self.run(
        plan, query: query, scope: scope, filter: filter, countingScopes: countingScopes,
        in: corpus, isCancelled: isCancelled)
    else { return nil }
    record(result, itemBudget: Self.itemBudget(of: corpus))
    return result
  }

  /// What a search of `query` would start from.
  public enum Plan: Sendable {
    /// The same search was answered before.
    case cached(SearchResult)
    /// Check only the items of an earlier result.
    case narrow(SearchResult)
    /// Scan the whole scope.
    case fullScan
  }

  /// Decides where a search of `query` in `scope` starts, without running it.
  public func plan(_ query: SearchQuery, scope: Int, corpus: SearchCorpus) -> Plan {
    plan(query, scope: scope, filter: .none, corpus: corpus)
  }

  /// Decides where a search of `query` in `scope` among the items `filter` admits starts,
  /// without running it; with `countingScopes`, where its search in scope "All" starts.
  ///
  /// An earlier result is answered again when its terms and filter are the same; it is
  /// narrowed when the query narrows its query and the filter holds every condition of its
  /// filter (a token added narrows, a token removed widens).
  public func plan(
    _ query: SearchQuery, scope: Int, filter: AttributeFilter, countingScopes: Bool = false,
    corpus: SearchCorpus
  ) -> Plan {
    let scope = Self.searchedScope(scope, countingScopes: countingScopes, corpus: corpus)
    let current = stack.filter { $0.modelVersion == corpus.model.version && $0.scope == scope }
    if let same = current.last(where: { Self.sameTerms($0.query, query) && $0.filter == filter }) {
      return .cached(same)
    }
    // The smallest earlier result the query narrows.
    // (An empty query's result without a filter is the whole scope: a full scan is the same
    // work, done better.)
    let numbers = !corpus.numberCodes.isEmpty
    let narrowed = current.filter {
      !($0.query.isEmpty && $0.filter.isEmpty) && filter.narrows($0.filter)
        && query.narrows($0.query, matchingNumbers: numbers)
    }
    if let best = narrowed.min(by: { $0.items.count < $1.items.count }) { return .narrow(best) }
    // A word that may now have more typos (its fifth or ninth character typed): the earlier
    // results and the items the word index finds for it.
    let widened = current.filter {
      !($0.query.isEmpty && $0.filter.isEmpty) && filter.narrows($0.filter)
        && query.typoWidening(of: $0.query, matchingNumbers: numbers) != nil
    }
    if let best = widened.min(by: { $0.items.count < $1.items.count }) { return .narrow(best) }
    return .fullScan
  }

  /// The scope a search runs in: "All" when the scopes are counted, unless the scope
  /// restricts the fields searched (its results are then not a part of "All"'s).
  static func searchedScope(_ scope: Int, countingScopes: Bool, corpus: SearchCorpus) -> Int {
    guard countingScopes, corpus.scopeBar.scopes.indices.contains(scope),
      corpus.scopeBar.scopes[scope].fields == nil
    else { return scope }
    return 0
  }

  /// Runs a plan; a pure function of its arguments, so a background task can run it.
  public static func run(
    _ plan: Plan, query: SearchQuery, scope: Int, in corpus: SearchCorpus,
    isCancelled: @Sendable () -> Bool = { false }
  ) -> SearchResult? {
    (try? run(plan, query: query, scope: scope, filter: .none, in: corpus, isCancelled: isCancelled))
      ?? nil
  }

  /// Runs a plan made by ``plan(_:scope:filter:countingScopes:corpus:)`` with the same
  /// arguments; a pure function of its arguments, so a background task can run it.
  ///
  /// - Throws: ``AttributeFilter/Error`` when the filter names an attribute the model lacks.
  public static func run(
    _ plan: Plan, query: SearchQuery, scope: Int, filter: AttributeFilter,
    countingScopes: Bool = false, in corpus: SearchCorpus,
    isCancelled: @Sendable () -> Bool = { false }
  ) throws(AttributeFilter.Error) -> SearchResult? {
    let searched = searchedScope(scope, countingScopes: countingScopes, corpus: corpus)
    let compiled = try corpus.compile(filter)
    let evaluator = QueryEvaluator(corpus: corpus, query: query, scope: searched, filter: compiled)
    let items: [ItemID]
    let path: SearchResult.Path
    // What the search learnt of the typos of the items, for the counts of the typos.
    var typoOnly: [Int: TypoMatches] = [:]
    switch plan {
    case .cached(let earlier):
      (items, path) = (earlier.items, .cached)
      // The same terms and typo rules, searched in the same scope of the same model.
      typoOnly = earlier.typoOnly
    case .narrow(let earlier):
      var candidates: [ItemID]? = earlier.items
      var evaluator = evaluator
      let numbers = !corpus.numberCodes.isEmpty
      if let widened = query.typoWidening(of: earlier.query, matchingNumbers: numbers),
        !widened.isEmpty
      {
        // The items the widened words find with typos join the candidates, and the evaluator
        // keeps what the word index gave for them. Too many candidates: a scan, which reads
        // the same matches.
        let matches = evaluator.findTypoMatches(at: widened)
        let most = earlier.items.count + matches.reduce(0) { $0 + $1.count }
        if most * QueryEvaluator.scanRatio >= corpus.model.count {
          candidates = nil
        } else {
          var added = Set(matches.flatMap(\.items).map { ItemID(rawValue: $0) })
          for item in earlier.items { added.remove(item) }
          if !added.isEmpty {
            var merged = earlier.items + added
            corpus.sortedByPosition(&merged)
            candidates = merged
          }
        }
      }
      guard
        let found = evaluator.evaluateCountingTypos(
          candidates: candidates, isCancelled: isCancelled)
      else { return nil }

      (items, typoOnly) = (found.items, found.typoOnly)
      path = candidates == nil ? .fullScan : .narrowed(from: earlier.query.text)
    case .fullScan:
      guard let found = evaluator.evaluateCountingTypos(candidates: nil, isCancelled: isCancelled)
      else { return nil }
      (items, path, typoOnly) = (found.items, .fullScan, found.typoOnly)
    }
    let scoped = searched == scope ? items : corpus.items(of: items, inScope: scope)
    var unscoped: [ItemID]?
    if countingScopes {
      if searched == 0 {
        unscoped = items
      } else {
        // A scope that restricts the fields: "All"'s results by a second search.
        let all = QueryEvaluator(corpus: corpus, query: query, scope: 0, filter: compiled)
        guard let found = all.evaluate(candidates: nil, isCancelled: isCancelled) else {
          return nil
        }
        unscoped = found
      }
    }
    return SearchResult(
      query: query, scope: scope, filter: filter, items: scoped, path: path,
      modelVersion: corpus.model.version,
      scopeCounts: unscoped.map {
        corpus.scopeCounts(of: $0, selected: scope, selectedCount: scoped.count)
      },
      unscopedItems: unscoped, typoOnly: typoOnly)
  }

  /// The most item identities the kept results may hold for `corpus`: ``itemBudgetFactor``
  /// times its items.
  public static func itemBudget(of corpus: SearchCorpus) -> Int {
    corpus.model.count * itemBudgetFactor
  }

  /// Keeps a result for later searches, dropping the oldest beyond the depth or the item
  /// budget (``itemBudget(of:)`` is the one searches use), and any result of another model
  /// version.
  ///
  /// The empty query's result without a filter is not kept: it narrows nothing, and answering
  /// it again is a copy of the scope's items, while keeping it would spend the whole budget. A partial
  /// result (a backend's first page) is not kept either: what it lacks cannot be narrowed.
  public mutating func record(_ result: SearchResult, itemBudget: Int = .max) {
    if (result.query.isEmpty && result.filter.isEmpty) || !result.isComplete { return }
    // A result taken from the search in scope "All" (the scopes counted) keeps that one.
    let result =
      result.unscopedItems.map {
        SearchResult(
          query: result.query, scope: 0, filter: result.filter, items: $0, path: result.path,
          modelVersion: result.modelVersion)
      } ?? result
    stack.removeAll {
      $0.modelVersion != result.modelVersion
        || ($0.scope == result.scope && $0.filter == result.filter
          && Self.sameTerms($0.query, result.query))
    }
    stack.append(result)
    if stack.count > depth { stack.removeFirst(stack.count - depth) }
    var total = stack.reduce(0) { $0 + $1.items.count }
    while stack.count > 1 && total > itemBudget {
      total -= stack.removeFirst().items.count
    }
  }

  /// Whether two queries have the same terms (kinds, inverse flags, folded text, typo rules),
  /// however they were typed ("ca" and " ca ").
  static func sameTerms(_ a: SearchQuery, _ b: SearchQuery) -> Bool {
    // The same words find other items with other typo budgets, or as a prefix ("calif" while
    // typed, "calif " once done).
    guard a.sets.count == b.sets.count, a.typoRules == b.typoRules else { return false }
    for (x, y) in zip(a.sets, b.sets) {
      guard x.terms.count == y.terms.count else { return false }
      for (s, t) in zip(x.terms, y.terms)
      where s.kind != t.kind || s.isInverse != t.isInverse || s.pattern.utf8 != t.pattern.utf8 {
        return false
      }
    }
    return true
  }
}
