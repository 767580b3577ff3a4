/// The items that match a query in a scope: identities into the model, in model order (or in
/// rank order when ranking was asked for).
///
/// A view, never a copy of the items.
public struct SearchResult: Sendable {
  /// The query that was run.
  public let query: SearchQuery
  /// The scope it was run in.
  public let scope: Int
  /// The matching items.
  public let items: [ItemID]
  /// How the result was found.
  public let path: Path
  /// The model version the result reflects.
  public let modelVersion: Int
  /// Whether ``items`` holds every match.
  ///
  /// A backend asked for a first page answers with the first matches in model order only: every
  /// match up to the last of ``items``, none after.
  public let isComplete: Bool
  /// How many items match in all: `items.count` for a complete result, else what the
  /// backend counted or estimated.
  public let count: ResultCount
  /// The attribute conditions the items meet besides the query (a search field's tokens).
  public let filter: AttributeFilter
  /// When asked for: how many items each scope of the bar would show for the same query and
  /// filter, by scope index ("All" first); nil for a scope that restricts the fields searched,
  /// whose results are not a part of "All"'s.
  public let scopeCounts: [Int?]?
  /// The results in scope "All", when the scopes were counted: what ``scopeCounts`` were
  /// taken from (and ``items`` too, unless the scope restricts the fields searched), and what
  /// later searches narrow.
  package let unscopedItems: [ItemID]?
  /// What the search learnt of the typos its items needed: by the index of each set of the
  /// query that a scan evaluated with the word index, the items of the scope (not only of
  /// ``items``) that the set's words found only with typos, with the fewest edits.
  ///
  /// A set not listed was checked item by item; ``SearchCorpus/typoCounts(of:)`` counts it then.
  package let typoOnly: [Int: TypoMatches]

  package init(
    query: SearchQuery, scope: Int, filter: AttributeFilter = .none, items: [ItemID], path: Path,
    modelVersion: Int, partialCount: ResultCount? = nil, scopeCounts: [Int?]? = nil,
    unscopedItems: [ItemID]? = nil, typoOnly: [Int: TypoMatches] = [:]
  ) {
    self.query = query
    self.scope = scope
    self.filter = filter
    self.items = items
    self.path = path
    self.modelVersion = modelVersion
    self.isComplete = partialCount == nil
    self.count = partialCount ?? .exact(items.count)
    self.scopeCounts = scopeCounts
    self.unscopedItems = unscopedItems
    self.typoOnly = typoOnly
  }

  /// How a result was found.
  public enum Path: Hashable, Sendable {
    /// Every item of the scope was scanned.
    case fullScan
    /// Only the results of an earlier query, which this one narrows, were checked.
    case narrowed(from: String)
    /// The same query and scope were answered before (after a backspace, say).
    case cached
    /// An earlier result was brought up to date after a model change by checking only the
    /// items that changed.
    case refreshed
    /// A ``SearchBackend`` answered.
    case backend
  }
}
