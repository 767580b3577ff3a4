import SearchEngine

extension ItemSearch {
  /// One visible change of an ``ItemSearch``: the rows now on screen, as the app's items, and
  /// the change set from the rows on screen before (see ``SearchController/Update``, which this wraps).
  public struct Update: Sendable {
    /// The engine's update: cause, generation, table and change sets.
    public let base: SearchController.Update
    /// The scope the rows answer; nil is "All".
    public let scope: Scope?
    /// The rows on screen now.
    public let sections: [ItemSection<Item>]

    /// What started the change.
    public var cause: SearchController.Update.Cause { base.cause }
    /// The generation of the request the rows answer; one generation names one set of rows.
    public var generation: Int { base.generation }
    /// The text the rows answer (the query of the results shown, else the bar's text when the
    /// table on screen was last set); an update goes out whenever it changes.
    public var text: String { base.text }
    /// How many rows each scope would show for the same text and tokens, by the scope bar's
    /// index ("All" first); see ``ItemSearch/scopeCounts``.
    public var scopeCounts: [Int?]? { base.scopeCounts }
    /// The completions of the text; see ``ItemSearch/completions``.
    public var completions: [SearchQuery.Completion] { base.completions }
    /// What the results table shows now: rows, "No Results", "Type 2 more characters" and so on.
    public var state: SearchController.ResultsTableState { base.state }
    /// The changes from the rows on screen before to the rows on screen now, in UIKit
    /// batch-update terms (see ``SearchController/Update/changes``).
    public var changes: TableChanges { base.changes }
    /// Whether the list switched between all items and the results (see
    /// ``SearchController/Update/switchedTable``).
    public var switchedTable: Bool { base.switchedTable }
  }
}

extension ItemSearch.Update {
  /// Brings a table view that shows the rows on screen up to date (see
  /// ``SearchController/Update/apply(to:)``).
  @MainActor
  public func apply(to table: some TableBatchUpdating) { base.apply(to: table) }
}
