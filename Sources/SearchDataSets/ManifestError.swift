import SearchCore

/// A manifest that cannot be read or does not make sense, with where and what to do about it.
public struct ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The manifest file; nil for a manifest built in code.
  public var file: String?
  /// The line of the manifest file at fault, counted from 1, when known.
  public var line: Int?
  /// The byte of that line, counted from 1, when known.
  public var column: Int?
  /// What is wrong.
  public var reason: String
  /// What to do about it.
  public var hint: String?

  /// Creates a manifest error.
  public init(
    file: String? = nil, line: Int? = nil, column: Int? = nil, reason: String,
    hint: String? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
    self.hint = hint
  }

  /// The error as "file:line:column: reason; hint" ("manifest: reason; hint" without a file).
  public var description: String {
    var text = file ?? "manifest"
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    text += ": \(reason)"
    if let hint { text += "; \(hint)" }
    return text
  }
}
