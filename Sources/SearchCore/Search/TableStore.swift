import SearchEngine

/// A replacement of a table whose change set is known: from which version to which, and the
/// changes.
struct TableStep {
  var from: Int
  var to: Int
  var changes: TableChanges
}

/// A ``SearchController``'s two tables, how they are laid out, the results the results table
/// shows, and a count of each table's replacements (its version) with the last one whose changes
/// are known, for the updates' change sets.
///
/// Invariant (``invariantHolds``, asserted after every change): a table's known step goes forward
/// and ends no later than the table's version; completions are offered only with results.
struct TableStore {
  /// How the tables are sectioned and ordered.
  let options: SearchController.TableOptions
  let originalLayout: TableLayout
  let resultsLayout: TableLayout
  /// The table of the whole model.
  private(set) var original: SectionedTable
  /// The table of the current results (empty while none are shown).
  private(set) var resultsTable: SectionedTable
  /// The results in the results table: nil while none are shown.
  private(set) var results: SearchResult?
  /// The completions of the text of the results shown.
  private(set) var completions: [SearchQuery.Completion] = []
  /// How many times each table was replaced.
  private(set) var originalVersion = 0
  private(set) var resultsVersion = 0
  private var originalStep: TableStep?
  private var resultsStep: TableStep?

  /// Starts with tables laid out beforehand, and no results.
  init(_ tables: SearchController.Tables) {
    options = tables.options
    originalLayout = tables.originalLayout
    resultsLayout = tables.resultsLayout
    original = tables.originalTable
    resultsTable = tables.resultsTable
  }

  /// Whether the invariant holds: see the type's description.
  var invariantHolds: Bool {
    func forward(_ step: TableStep?, upTo version: Int) -> Bool {
      step.map { $0.from <= $0.to && $0.to <= version } ?? true
    }
    return forward(originalStep, upTo: originalVersion)
      && forward(resultsStep, upTo: resultsVersion) && (results != nil || completions.isEmpty)
  }

  /// Whether the results take the original table's layout (its sections and order).
  var resultsTakeOriginalLayout: Bool { resultsLayout == originalLayout }

  /// One of the two tables.
  func table(_ kind: SearchController.TableKind) -> SectionedTable {
    kind == .original ? original : resultsTable
  }

  /// How many times a table was replaced.
  func version(_ kind: SearchController.TableKind) -> Int {
    kind == .original ? originalVersion : resultsVersion
  }

  /// The last replacement of a table whose changes are known.
  func knownStep(_ kind: SearchController.TableKind) -> TableStep? {
    kind == .original ? originalStep : resultsStep
  }

  // MARK: Replacing the tables

  /// Replaces the original table after a model change that made `changes`.
  mutating func replaceOriginal(with table: SectionedTable, changes: TableChanges) {
    original = table
    originalVersion += 1
    originalStep = TableStep(from: originalVersion - 1, to: originalVersion, changes: changes)
    assert(invariantHolds)
  }

  /// Shows a finished search's results; `changes` are those from the results table of version
  /// `from` to `table`, known when they were worked out where the search ran.
  mutating func showResults(
    _ result: SearchResult, completions: [SearchQuery.Completion], table: SectionedTable,
    changes: (from: Int, changes: TableChanges)?
  ) {
    results = result
    self.completions = completions
    resultsTable = table
    resultsVersion += 1
    if let changes, changes.from == resultsVersion - 1 {
      resultsStep = TableStep(from: changes.from, to: resultsVersion, changes: changes.changes)
    }
    assert(invariantHolds)
  }

  /// Shows the same results laid out again (in another order); the changes are not known.
  mutating func reorderResults(_ table: SectionedTable) {
    resultsTable = table
    resultsVersion += 1
    assert(invariantHolds)
  }

  /// Shows the results brought up to date after a model change, with their table unless it
  /// could not be laid out (nil): then the table stays, and `changes` still go on record.
  mutating func refreshResults(
    _ result: SearchResult, table: SectionedTable?, changes: TableChanges
  ) {
    let oldVersion = resultsVersion
    if let table {
      resultsTable = table
      resultsVersion += 1
    }
    results = result
    resultsStep = TableStep(from: oldVersion, to: resultsVersion, changes: changes)
    assert(invariantHolds)
  }

  /// Shows no results: the results table becomes one empty section of `model`, unless it is one.
  mutating func clearResults(of model: SearchModel) {
    results = nil
    completions = []
    if resultsTable.numberOfRows > 0 || resultsTable.numberOfSections != 1 {
      let old = resultsTable
      // An empty flat table needs no name and no collator: it cannot fail.
      resultsTable = (try? resultsLayout.table([], of: model)) ?? resultsTable
      resultsVersion += 1
      resultsStep = TableStep(
        from: resultsVersion - 1, to: resultsVersion, changes: TableChanges.emptying(old))
    }
    assert(invariantHolds)
  }
}
