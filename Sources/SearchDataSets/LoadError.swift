import SearchCore

/// A data set that cannot be loaded at all: the file cannot be read, or the manifest does not
/// fit it (a TSV header without a column the manifest names).
public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file at fault: the data file, or the manifest.
  public var file: String
  /// The line at fault, counted from 1, when there is one.
  public var line: Int?
  /// What is wrong.
  public var reason: String
  /// What to do about it.
  public var hint: String?

  /// Creates a load error.
  public init(file: String, line: Int? = nil, reason: String, hint: String? = nil) {
    self.file = file
    self.line = line
    self.reason = reason
    self.hint = hint
  }

  /// The error as "file:line: reason; hint".
  public var description: String {
    var text = file
    if let line { text += ":\(line)" }
    text += ": \(reason)"
    if let hint { text += "; \(hint)" }
    return text
  }
}
