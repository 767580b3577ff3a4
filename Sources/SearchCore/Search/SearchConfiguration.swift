import SearchEngine

/// How a search controller decides when to search and how it reads the text: its mode,
/// minimum query length, keystroke coalescing and query syntax.
///
/// Every tunable of the controller lives here, with its reason.
public struct SearchConfiguration: Hashable, Sendable {
  /// When searches run.
  public enum Mode: String, Hashable, Sendable, CaseIterable {
    /// On every change of text or scope, inside the call: the answer is *yes* and the results
    /// table reloads at once. Right for small models.
    case immediate
    /// On every change, in the background: the answer is *no*, and the results table reloads
    /// when the search finishes (the deferred reload), unless something newer came first.
    case background
    /// Only when the search button is pressed; typing only changes the text.
    case onSubmit = "submit"
  }

  /// When searches run.
  public var mode: Mode
  /// The fewest characters (of the text without leading and trailing white space) a search
  /// needs.
  ///
  /// Shorter non-empty text runs no search and shows the below-threshold state, as a delegate of
  /// UIKit's controller would answer *no* for one or two letters that match too much. 0 searches
  /// from the first character. An empty text is never below the threshold, and text of white space
  /// alone is empty text (the dimmed state, no search).
  public var minimumLength: Int
  /// A quiet interval: when set, a change of text or scope waits this long for the next one
  /// before searching, so a burst of fast keystrokes costs one search.
  ///
  /// The reload is then always deferred. nil searches on every change.
  public var coalescingInterval: Duration?
  /// Whether results are ordered by relevance (``/SearchEngine/SearchCorpus/ranked(_:)``) instead of the
  /// model's order, which UIKit's samples show and which is the default.
  public var ranksResults: Bool
  /// How the search text is read: the syntax this configuration states, else
  /// ``/SearchEngine/SearchQuery/Syntax/extended`` (fzf's operators), as the command line reads it.
  ///
  /// An app's search field usually wants ``/SearchEngine/SearchQuery/Syntax/words``, where `!` or `|` are
  /// characters to find, and ``ItemSearch`` reads words unless its configuration states another
  /// syntax.
  public var querySyntax: SearchQuery.Syntax {
    get { statedQuerySyntax ?? .extended }
    set { statedQuerySyntax = newValue }
  }
  /// The syntax this configuration states; nil leaves it to whoever searches with it (the
  /// controller reads extended syntax, ``ItemSearch`` words).
  ///
  /// One place decides: a front never overrides a stated syntax.
  public var statedQuerySyntax: SearchQuery.Syntax?
  /// How many typos the words of a ``/SearchEngine/SearchQuery/Syntax/words`` query may have and still
  /// find an item (see ``/SearchEngine/TypoTolerance``).
  ///
  /// It is the tolerance this configuration states, else
  /// ``/SearchEngine/TypoTolerance/default`` (one typo from 5 characters, two from 9), so that
  /// "calfornia" finds "California". The items found with typos come after those that contain
  /// every word exactly, fewest typos first (``SearchController/typos(of:)`` tells them apart).
  /// The literal and extended syntaxes are always exact, whatever this says.
  ///
  /// A controller on a backend searches exactly unless a tolerance is stated: a search server
  /// matches words exactly only, and a stated tolerance there makes each search fail with the
  /// server's refusal rather than answer differently.
  public var typos: TypoTolerance {
    get { statedTypos ?? .default }
    set { statedTypos = newValue }
  }
  /// The tolerance this configuration states; nil leaves it to where the search runs:
  /// ``/SearchEngine/TypoTolerance/default`` in memory, ``/SearchEngine/TypoTolerance/off`` on a
  /// backend.
  public var statedTypos: TypoTolerance?
  /// With a backend: how many results a background search asks for first.
  ///
  /// The results table then shows those rows and ``/SearchEngine/SearchResult/count`` tells how
  /// many match in all (exact, or an estimate to label as one);
  /// ``SearchController/loadMoreResults()`` asks for the next rows as the list scrolls. A list
  /// shows one screen, and a short query on a large data set matches most of it: the first screen
  /// should not wait for every match. nil (the default) asks for every result, as searches in
  /// memory always do; ranked results (``ranksResults``) need every match and ask for all of them.
  public var backendPageSize: Int?
  /// Whether each search also counts, for the same text and tokens, the results of every
  /// scope of the bar ("All 1,204 · Work 310 · Family 12"), delivered with its update
  /// (``SearchController/Update/scopeCounts``).
  ///
  /// The search then runs in scope "All" and takes the selected scope's results from it, in the
  /// same pass. Off by default; ``ItemSearch`` turns it on when it has scopes. Searches on a
  /// backend do not count.
  public var countsScopes: Bool
  /// How many completions of the text each search offers (``SearchController/completions``,
  /// ``SearchController/Update/completions``): the items' own words and values that start with the text,
  /// as folded, those most items hold first, limited to the scope and tokens.
  ///
  /// 0 (the default) offers none. The completion index is built in the background the first time a
  /// search asks for completions (it costs about twice the index's own build); until it is ready,
  /// searches offer none. Searches on a backend offer none.
  public var completionLimit: Int
  /// Whether a background search also works out how the results table changes
  /// (``SearchController/Update/changes``) where it runs, so that the main actor only installs
  /// them.
  ///
  /// On by default, for fronts that animate row changes. A front that reloads, or that diffs
  /// only the rows it shows (a web page's window), turns it off and saves a comparison of every
  /// row at each search; the changes are then worked out on the main actor if they are read.
  public var precomputesChanges = true

  /// Creates a configuration; the defaults search immediately from the first character and
  /// leave the syntax to the front (see ``querySyntax``).
  public init(
    mode: Mode = .immediate, minimumLength: Int = 0, coalescingInterval: Duration? = nil,
    ranksResults: Bool = false, querySyntax: SearchQuery.Syntax? = nil, backendPageSize: Int? = nil,
    countsScopes: Bool = false, completionLimit: Int = 0, typos: TypoTolerance? = nil
  ) {
    self.mode = mode
    self.minimumLength = max(minimumLength, 0)
    self.coalescingInterval = coalescingInterval
    self.ranksResults = ranksResults
    self.statedQuerySyntax = querySyntax
    self.backendPageSize = backendPageSize.map { max($0, 1) }
    self.countsScopes = countsScopes
    self.completionLimit = max(completionLimit, 0)
    self.statedTypos = typos
  }
}

extension SearchConfiguration {
  /// The query a controller with this configuration searches for when the text is `text`:
  /// in memory, or on a backend (`onBackend`), where only a stated tolerance asks for typos.
  func query(_ text: String, normalizer: Normalizer, onBackend: Bool) throws(ICUError)
    -> SearchQuery
  {
    let typos = onBackend ? statedTypos ?? .off : self.typos
    return try SearchQuery(text, syntax: querySyntax, typos: typos, normalizer: normalizer)
  }
}
