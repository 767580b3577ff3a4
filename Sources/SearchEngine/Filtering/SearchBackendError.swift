// Declared in Filtering, below the backends that throw it, because a corpus error carries
// it (``SearchCorpus/Error/backend(_:)``): a model change a backend refused.

/// Why a backend could not answer, and what to do about it.
public struct SearchBackendError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of failure it was, to compare with `==` or branch on with `if`, or `switch`
  /// with a `default`; a release may add codes.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(name: String) { self.name = name }

    /// The server cannot be reached (refused, no route, name unknown, timed out connecting).
    public static let unreachable = Code(name: "unreachable")
    /// The connection broke while a request was under way.
    public static let connectionLost = Code(name: "connectionLost")
    /// The server stopped the request after its time limit.
    public static let timeout = Code(name: "timeout")
    /// The server refused the request (a missing table, a constraint, a permission).
    public static let rejected = Code(name: "rejected")
    /// The server holds data that does not fit the controller's (another data set, other
    /// folding, items the model does not have).
    public static let mismatch = Code(name: "mismatch")

    /// The code's name, such as "timeout".
    public var description: String { name }
  }

  /// The old name of ``Code``.
  @available(*, deprecated, renamed: "Code")
  public typealias Kind = Code

  /// What kind of failure it was.
  public var code: Code
  /// The old name of ``code``.
  @available(*, deprecated, renamed: "code")
  public var kind: Code {
    get { code }
    set { code = newValue }
  }
  /// What happened, in a sentence.
  public var message: String
  /// What to do about it, in a sentence.
  public var advice: String

  /// Creates an error.
  public init(_ code: Code, _ message: String, advice: String) {
    self.code = code
    self.message = message
    self.advice = advice
  }

  /// The error as one line: what happened, then what to do.
  public var description: String { "\(message); \(advice)" }

  /// A backend answered with an item the list does not have: the data set on the backend is
  /// not the list's (more items, another version), and none of its answers can be trusted.
  package static func unknownItem(_ id: ItemID) -> SearchBackendError {
    SearchBackendError(
      .mismatch, "the backend answered with item \(id.rawValue), which the list does not have",
      advice: "load the same data set into the backend again")
  }

  /// A query with typo tolerance on went to a search server, which matches exactly only.
  package static let typosUnsupported = SearchBackendError(
    .rejected, "a search server does not match words with typos",
    advice: "search with typo tolerance off (TypoTolerance.off), or in memory")

  /// `error` as a backend error: itself when it is one, else a rejection that quotes it.
  package static func wrapping(_ error: any Error) -> SearchBackendError {
    if let error = error as? SearchBackendError { return error }
    return SearchBackendError(
      .rejected, "the backend failed: \(error)", advice: "see its documentation")
  }
}
