import SearchEngine

/// A data set that cannot be loaded at all: the file cannot be read, or the manifest does not
/// fit it (a TSV header without a column the manifest names).
public struct LoadError: LocatedError, Hashable, Sendable {
  /// The file at fault (the data file or the manifest), the line when there is one, what is
  /// wrong and what to do.
  public var diagnostic: Diagnostic

  /// Creates a load error.
  public init(file: String, line: Int? = nil, reason: String, hint: String? = nil) {
    diagnostic = Diagnostic(file: file, line: line, reason: reason, hint: hint)
  }
}
