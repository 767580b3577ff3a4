import SearchEngine

/// One regression case of a cases file (`Corpus/<set>/cases.tsv`): a query, or a typing
/// session, in a scope, and what its final result must be.
///
/// Items are named by their identity: the model's display text (``SearchModel/display(_:)``), such as
/// `Zürich (German)`. A case may only name identities that belong to one item of the corpus.
public struct RegressionCase: Hashable, Sendable {
  /// The case's name, unique in its file.
  public var name: String
  /// The scope the case starts in, as written: a title (any case) or a number (0 is All).
  public var scope: String
  /// What is typed: one step for a plain query; each step of a typing session in order.
  public var steps: [Step]
  /// What the final result must be.
  public var expectation: Expectation
  /// Whether the result is compared in relevance order (``SearchCorpus/ranked(_:)``) rather
  /// than in model order.
  public var isRanked: Bool
  /// Why the expectation holds; free text.
  public var why: String
  /// The line of the cases file, counted from 1 (the header included).
  public var line: Int

  /// Creates a case.
  public init(
    name: String, scope: String, steps: [Step], expectation: Expectation, isRanked: Bool = false,
    why: String = "", line: Int = 0
  ) {
    self.name = name
    self.scope = scope
    self.steps = steps
    self.expectation = expectation
    self.isRanked = isRanked
    self.why = why
    self.line = line
  }

  /// One step of a typing session.
  public enum Step: Hashable, Sendable {
    /// The whole text of the search field at this moment.
    case text(String)
    /// A switch to another scope (title or number), keeping the text.
    case scope(String)
  }

  /// The expected final result.
  public enum Expectation: Hashable, Sendable, CustomStringConvertible {
    /// Exactly these identities, in this order (none: no result).
    case exact([String])
    /// This many items, the first of which are these identities, in this order.
    case count(Int, first: [String])

    /// The identities the expectation names.
    public var identities: [String] {
      switch self {
      case .exact(let names): return names
      case .count(_, let names): return names
      }
    }

    /// The expectation as written in a cases file: `= a | b` or `#145: a | b`.
    public var description: String {
      switch self {
      case .exact(let names): return names.isEmpty ? "=" : "= " + names.joined(separator: " | ")
      case .count(let count, let names):
        return names.isEmpty ? "#\(count)" : "#\(count): " + names.joined(separator: " | ")
      }
    }
  }
}

/// What running one case gave.
public struct RegressionResult: Hashable, Sendable {
  /// The case that was run.
  public var regressionCase: RegressionCase
  /// Passed, or failed with the expected and the actual result as text.
  public var outcome: Outcome

  /// Creates a result.
  public init(regressionCase: RegressionCase, outcome: Outcome) {
    self.regressionCase = regressionCase
    self.outcome = outcome
  }

  /// Whether the case passed.
  public var passed: Bool { outcome == .passed }

  /// The outcome of a case.
  public enum Outcome: Hashable, Sendable {
    /// The final result is what the case expects, and every step equalled a full scan.
    case passed
    /// Something differed: what was expected, and what the engine gave, as text.
    case failed(expected: String, got: String)
  }
}

/// Problems with a cases file, each as `file:line: reason; hint`.
///
/// A bad line is never skipped: one problem makes the whole file an error.
public struct RegressionError: Error, Hashable, Sendable, CustomStringConvertible {
  /// One problem of one line: the cases file, the line (nil when the whole file is at
  /// fault), what is wrong and what to do.
  public struct Problem: LocatedError, Hashable, Sendable {
    /// The cases file, the line, what is wrong and what to do.
    public var diagnostic: Diagnostic

    /// Creates a problem; line 0 is the whole file.
    public init(file: String, line: Int, reason: String, hint: String) {
      diagnostic = Diagnostic(file: file, line: line > 0 ? line : nil, reason: reason, hint: hint)
    }
  }

  /// Every problem found, in file order.
  public var problems: [Problem]

  /// Creates an error.
  public init(problems: [Problem]) { self.problems = problems }

  /// One problem a line.
  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
