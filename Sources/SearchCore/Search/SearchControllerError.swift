import SearchEngine

/// A request the controller cannot carry out, with what to do instead.
public enum SearchControllerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The scope bar has no such scope.
  case noSuchScope(String, titles: [String])
  /// The table has no row at that index path.
  case noSuchRow(TableIndexPath, table: SearchController.TableKind)
  /// The row cannot be edited.
  case notEditable(TableIndexPath, table: SearchController.TableKind)
  /// The corpus refused the change.
  case corpus(CorpusError)

  /// The error as one line of text.
  public var description: String {
    switch self {
    case .noSuchScope(let scope, let titles):
      let list = titles.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")
      return "no scope \"\(scope)\"; the scopes are \(list)"
    case .noSuchRow(let path, let table):
      return "the \(table.rawValue) table has no row \(path); rows are SECTION.ROW from 0.0"
    case .notEditable(let path, let table):
      return "row \(path) of the \(table.rawValue) table cannot be deleted"
    case .corpus(let error):
      return error.description
    }
  }
}
