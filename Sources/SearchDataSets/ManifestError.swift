import SearchEngine

/// A manifest that cannot be read or does not make sense, with where and what to do about it.
public struct ManifestError: LocatedError, Hashable, Sendable {
  /// The manifest file (nil for a manifest built in code), the line and byte of the value at
  /// fault when known, what is wrong and what to do.
  public var diagnostic: Diagnostic

  /// Creates a manifest error.
  public init(
    file: String? = nil, line: Int? = nil, column: Int? = nil, reason: String,
    hint: String? = nil
  ) {
    diagnostic = Diagnostic(file: file, line: line, column: column, reason: reason, hint: hint)
  }
}
