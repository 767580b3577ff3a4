import SearchEngine

extension SearchController {
  /// What the results table shows.
  public enum ResultsTableState: Hashable, Sendable, CustomStringConvertible {
    /// No search is under way: the original table shows.
    case hidden
    /// The search is active but there is nothing to search for yet (empty text, scope "All"):
    /// the original table shows, dimmed under the search bar.
    case dimmed
    /// The results, with how many rows they have.
    case rows(Int)
    /// The search found nothing: "No Results".
    case noResults
    /// The text is shorter than the minimum length; `missing` more characters are needed.
    case belowThreshold(missing: Int)

    /// The state's name, as the REPL's JSON events write it: `hidden`, `dimmed`, `rows`,
    /// `noResults`, `belowThreshold`.
    public var name: String {
      switch self {
      case .hidden: "hidden"
      case .dimmed: "dimmed"
      case .rows: "rows"
      case .noResults: "noResults"
      case .belowThreshold: "belowThreshold"
      }
    }

    /// Whether the results table is on screen in this state.
    public var showsResultsTable: Bool {
      switch self {
      case .hidden, .dimmed: false
      case .rows, .noResults, .belowThreshold: true
      }
    }

    /// A line for a person: "3 results", "No Results", "Type 2 more characters".
    public var description: String {
      switch self {
      case .hidden: "Hidden"
      case .dimmed: "Dimmed"
      case .rows(let count): count == 1 ? "1 result" : "\(count) results"
      case .noResults: "No Results"
      case .belowThreshold(let missing):
        missing == 1 ? "Type 1 more character" : "Type \(missing) more characters"
      }
    }
  }
}
