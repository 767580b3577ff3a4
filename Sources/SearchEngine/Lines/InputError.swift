/// Bad input, with where it is and what to do about it: a line of a data file or of standard
/// input that was rejected, or an input that cannot be read at all.
public struct InputError: LocatedError, Hashable, Sendable {
  /// The source ("<stdin>" for standard input), the line (nil when the whole input is at
  /// fault), the byte in the line, what is wrong and what to do.
  public var diagnostic: Diagnostic

  /// Creates an input error.
  public init(
    source: String, line: Int?, column: Int? = nil, reason: String, hint: String? = nil
  ) {
    diagnostic = Diagnostic(file: source, line: line, column: column, reason: reason, hint: hint)
  }
}
