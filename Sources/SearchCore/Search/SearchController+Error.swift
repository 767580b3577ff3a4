import SearchEngine

extension SearchController {
  /// A request the controller cannot carry out, with what to do instead.
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// The scope bar has no such scope.
      public static let noSuchScope = Code(name: "noSuchScope")
      /// The table has no row at that index path.
      public static let noSuchRow = Code(name: "noSuchRow")
      /// The row cannot be edited.
      public static let notEditable = Code(name: "notEditable")
      /// The corpus refused the change (see ``SearchController/Error/corpusError``).
      public static let corpus = Code(name: "corpus")

      /// The code's name, such as "noSuchRow".
      public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The scope asked for, for ``Code/noSuchScope``.
    public let scope: String?
    /// The index path asked for, for ``Code/noSuchRow`` and ``Code/notEditable``.
    public let indexPath: TableIndexPath?
    /// The table asked about, for ``Code/noSuchRow`` and ``Code/notEditable``.
    public let table: SearchController.TableKind?
    /// The corpus's refusal, for ``Code/corpus``.
    public let corpusError: SearchCorpus.Error?
    /// The error as one line of text.
    public let description: String

    private init(
      _ code: Code, _ description: String, scope: String? = nil,
      indexPath: TableIndexPath? = nil, table: SearchController.TableKind? = nil,
      corpusError: SearchCorpus.Error? = nil
    ) {
      self.code = code
      self.description = description
      self.scope = scope
      self.indexPath = indexPath
      self.table = table
      self.corpusError = corpusError
    }

    /// The scope bar has no such scope.
    public static func noSuchScope(_ scope: String, titles: [String]) -> Self {
      let list = titles.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", ")
      return Self(.noSuchScope, "no scope \"\(scope)\"; the scopes are \(list)", scope: scope)
    }
    /// The table has no row at that index path.
    public static func noSuchRow(
      _ path: TableIndexPath, table: SearchController.TableKind
    ) -> Self {
      Self(
        .noSuchRow,
        "the \(table.rawValue) table has no row \(path); rows are SECTION.ROW from 0.0",
        indexPath: path, table: table)
    }
    /// The row cannot be edited.
    public static func notEditable(
      _ path: TableIndexPath, table: SearchController.TableKind
    ) -> Self {
      Self(
        .notEditable, "row \(path) of the \(table.rawValue) table cannot be deleted",
        indexPath: path, table: table)
    }
    /// The corpus refused the change.
    public static func corpus(_ error: SearchCorpus.Error) -> Self {
      Self(.corpus, error.description, corpusError: error)
    }
  }
}
