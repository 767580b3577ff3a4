/// Answers a sequence of searches as a user types, reusing earlier results.
///
/// When the new query narrows an earlier one (same scope, see ``Query/narrows(_:matchingNumbers:)``), only the
/// earlier results are checked; a query seen before (after a backspace) is answered from a
/// small stack of earlier results. Any change of the corpus clears the stack. Whatever path is
/// taken, the result equals a full scan: that invariant is what the tests check.
public struct IncrementalFilter: Sendable {
  /// How many earlier results are kept: enough for a word typed and erased again.
  public static let defaultDepth = 32
  /// How many item identities the kept results may hold together, as a multiple of the
  /// corpus's items: bounds the memory of the stack (4 bytes an identity) to a small multiple
  /// of the model's own. The newest result is always kept.
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
    _ query: Query, scope: Int, in corpus: SearchCorpus,
    isCancelled: @Sendable () -> Bool = { false }
  ) -> SearchResult? {
    let plan = self.plan(query, scope: scope, corpus: corpus)
    guard
      let result = Self.run(plan, query: query, scope: scope, in: corpus, isCancelled: isCancelled)
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
  public func plan(_ query: Query, scope: Int, corpus: SearchCorpus) -> Plan {
    let current = stack.filter { $0.modelVersion == corpus.model.version && $0.scope == scope }
    if let same = current.last(where: { Self.sameTerms($0.query, query) }) { return .cached(same) }
    // The smallest earlier result the query narrows.
    // (An empty query's result is the whole scope: a full scan is the same work, done better.)
    let numbers = !corpus.numberCodes.isEmpty
    let narrowed = current.filter {
      !$0.query.isEmpty && query.narrows($0.query, matchingNumbers: numbers)
    }
    if let best = narrowed.min(by: { $0.items.count < $1.items.count }) { return .narrow(best) }
    return .fullScan
  }

  /// Runs a plan; a pure function of its arguments, so a background task can run it.
  public static func run(
    _ plan: Plan, query: Query, scope: Int, in corpus: SearchCorpus,
    isCancelled: @Sendable () -> Bool = { false }
  ) -> SearchResult? {
    let evaluator = QueryEvaluator(corpus: corpus, query: query, scope: scope)
    switch plan {
    case .cached(let earlier):
      return SearchResult(
        query: query, scope: scope, items: earlier.items, path: .cached,
        modelVersion: corpus.model.version)
    case .narrow(let earlier):
      guard let items = evaluator.evaluate(candidates: earlier.items, isCancelled: isCancelled)
      else { return nil }
      return SearchResult(
        query: query, scope: scope, items: items, path: .narrowed(from: earlier.query.text),
        modelVersion: corpus.model.version)
    case .fullScan:
      guard let items = evaluator.evaluate(candidates: nil, isCancelled: isCancelled) else {
        return nil
      }
      return SearchResult(
        query: query, scope: scope, items: items, path: .fullScan,
        modelVersion: corpus.model.version)
    }
  }

  /// The most item identities the kept results may hold for `corpus`: ``itemBudgetFactor``
  /// times its items.
  public static func itemBudget(of corpus: SearchCorpus) -> Int {
    corpus.model.count * itemBudgetFactor
  }

  /// Keeps a result for later searches, dropping the oldest beyond the depth or the item
  /// budget (``itemBudget(of:)`` is the one searches use), and any result of another model
  /// version.
  /// The empty query's result is not kept: it narrows nothing, and answering it again is a
  /// copy of the scope's items, while keeping it would spend the whole budget. A partial
  /// result (a backend's first page) is not kept either: what it lacks cannot be narrowed.
  public mutating func record(_ result: SearchResult, itemBudget: Int = .max) {
    if result.query.isEmpty || !result.isComplete { return }
    stack.removeAll {
      $0.modelVersion != result.modelVersion
        || ($0.scope == result.scope && Self.sameTerms($0.query, result.query))
    }
    stack.append(result)
    if stack.count > depth { stack.removeFirst(stack.count - depth) }
    var total = stack.reduce(0) { $0 + $1.items.count }
    while stack.count > 1 && total > itemBudget {
      total -= stack.removeFirst().items.count
    }
  }

  /// Whether two queries have the same terms (kinds, inverse flags, folded text), however
  /// they were typed ("ca" and " ca ").
  static func sameTerms(_ a: Query, _ b: Query) -> Bool {
    guard a.sets.count == b.sets.count else { return false }
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
