/// Bad input, with where it is and what to do about it.
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file the input came from, or "<stdin>".
  public var source: String
  /// The line, counted from 1; nil when the whole input is at fault (it cannot be read).
  public var line: Int?
  /// The byte in the line, counted from 1; nil when the whole line is at fault.
  public var column: Int?
  /// What is wrong.
  public var reason: String
  /// What to do about it.
  public var hint: String?

  /// Creates an input error.
  public init(
    source: String, line: Int?, column: Int? = nil, reason: String, hint: String? = nil
  ) {
    self.source = source
    self.line = line
    self.column = column
    self.reason = reason
    self.hint = hint
  }

  /// The error as "file:line:column: reason; hint".
  public var description: String {
    var text = "\(source):"
    if let line { text += "\(line):" }
    if line != nil, let column { text += "\(column):" }
    text += " \(reason)"
    if let hint { text += "; \(hint)" }
    return text
  }
}
