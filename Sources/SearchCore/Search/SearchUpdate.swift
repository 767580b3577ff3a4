import SearchEngine

extension SearchController {
  /// One visible change of a search controller: what a list front redraws.
  ///
  /// A controller sends an update after every call that changed what is on screen: a keystroke
  /// whose search reloaded the results, a deferred reload from a background search, a state
  /// change (below the minimum length, no results, dimmed, hidden), a model change, a new text
  /// or scope of the rows on screen (below the minimum length, "a" then "b"). Each update is sent
  /// once the change is complete, so the controller's tables and state agree with it, and it
  /// comes last among the events of its call. Calls that change nothing on screen (a keystroke
  /// whose search runs in the background) send none.
  ///
  /// ``changes`` turns the rows on screen before the update into the rows on screen after it,
  /// in UIKit batch-update terms, even when the table on screen switched between the original
  /// and the results table: applying every update's changes, in order, to a copy of the rows
  /// that were on screen when observation began always gives ``SearchController/visibleTable``.
  /// A front with two table views (UIKit's search display controller) applies ``changes`` to
  /// the table on screen and ``originalChanges`` to the original table underneath.
  public struct Update: Sendable {
    /// What started the call that made the change.
    public enum Cause: String, Hashable, Sendable, CaseIterable {
      /// ``SearchController/begin()``.
      case began
      /// A change of the text.
      case textChanged
      /// A change of the scope.
      case scopeChanged
      /// A change of the tokens in the field (their attribute conditions).
      case filterChanged
      /// The search button.
      case searchButton
      /// A search that finished after its call returned: the deferred reload.
      case searchFinished
      /// Items were inserted, updated or removed.
      case modelChanged
      /// Cancel or end.
      case ended
      /// ``SearchConfiguration/ranksResults`` changed: the same results in the other order.
      case orderChanged
    }

    /// What started the change.
    public let cause: Cause
    /// The generation of the request the rows on screen answer: the search whose results are
    /// shown, else the request that last changed what is on screen (the end of the search, the
    /// dimmed state, a text below the minimum length, a model change).
    ///
    /// A generation names one set of rows: two updates of one generation show the same items, and no
    /// search runs under a generation an update has shown.
    public let generation: Int
    /// The text the rows on screen answer: the query of the results shown (which may be older
    /// than the search bar's text while a newer search runs), else the bar's text when the table
    /// on screen was last set (the dimmed state keeps its empty text while a first search runs
    /// in the background).
    public let text: String
    /// The scope the rows on screen answer, as ``text``.
    public let scope: Int
    /// The tokens' attribute conditions the rows on screen answer, as ``text``.
    public let filter: AttributeFilter
    /// With ``SearchConfiguration/countsScopes``: how many rows each scope of the bar would
    /// show for the same text and tokens, by scope index ("All" first; see
    /// ``SearchController/scopeCounts``); nil when the scopes are not counted or nothing is
    /// searched (below the minimum length).
    public let scopeCounts: [Int?]?
    /// With ``SearchConfiguration/completionLimit``: the completions of ``text`` in its scope
    /// and among the items its tokens admit, best first (see ``SearchController/completions``).
    public let completions: [SearchQuery.Completion]
    /// What the results table shows now.
    public let state: SearchController.ResultsTableState
    /// The table on screen now.
    public let table: SearchController.TableKind
    /// The table on screen before the update.
    public let previousTable: SearchController.TableKind
    /// For a model change, what changed in the original table (whether or not it is on
    /// screen); nil otherwise.
    public let originalChanges: TableChanges?
    private let diff: Diff

    init(
      cause: Cause, generation: Int, text: String, scope: Int, filter: AttributeFilter,
      scopeCounts: [Int?]?, completions: [SearchQuery.Completion],
      state: SearchController.ResultsTableState, table: SearchController.TableKind,
      previousTable: SearchController.TableKind, originalChanges: TableChanges?, changes: Diff
    ) {
      self.cause = cause
      self.generation = generation
      self.text = text
      self.scope = scope
      self.filter = filter
      self.scopeCounts = scopeCounts
      self.completions = completions
      self.state = state
      self.table = table
      self.previousTable = previousTable
      self.originalChanges = originalChanges
      self.diff = changes
    }

    /// The changes that turn the rows on screen before the update into those on screen after
    /// it.
    ///
    /// Worked out on first use when the controller did not already know them (a switch between the
    /// two tables, a new set of results): a front that only reloads never pays.
    ///
    /// - Complexity: O(*n* log *n*) for *n* rows on first use at most; then O(1).
    public var changes: TableChanges { diff.value }

    /// Whether the table on screen switched between the original and the results table, as
    /// UIKit shows or hides its results table view: a front with two table views reloads the
    /// one that appears rather than animating ``changes``.
    public var switchedTable: Bool { table != previousTable }

    /// The change set, known or to be worked out from the two tables once.
    final class Diff: Sendable {
      private let state: LockedValue<State>

      private enum State {
        case known(TableChanges)
        case pending(old: SectionedTable, new: SectionedTable, updated: Set<ItemID>)
      }

      init(_ changes: TableChanges) { state = LockedValue(.known(changes)) }

      init(from old: SectionedTable, to new: SectionedTable, updated: Set<ItemID> = []) {
        state = LockedValue(.pending(old: old, new: new, updated: updated))
      }

      var value: TableChanges {
        state.withLock { state in
          switch state {
          case .known(let changes): return changes
          case .pending(let old, let new, let updated):
            let changes = TableChanges(from: old, to: new, updated: updated)
            state = .known(changes)
            return changes
          }
        }
      }
    }
  }
}

extension SearchController.Update: Hashable {
  /// Two updates are equal when every part is, their change sets included.
  public static func == (lhs: SearchController.Update, rhs: SearchController.Update) -> Bool {
    lhs.cause == rhs.cause && lhs.generation == rhs.generation && lhs.text == rhs.text
      && lhs.scope == rhs.scope && lhs.filter == rhs.filter
      && lhs.scopeCounts == rhs.scopeCounts && lhs.completions == rhs.completions
      && lhs.state == rhs.state && lhs.table == rhs.table
      && lhs.previousTable == rhs.previousTable && lhs.originalChanges == rhs.originalChanges
      && lhs.changes == rhs.changes
  }

  /// Hashes the parts that identify the update (not the change set).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cause)
    hasher.combine(generation)
    hasher.combine(text)
    hasher.combine(scope)
    hasher.combine(state)
    hasher.combine(table)
  }
}
