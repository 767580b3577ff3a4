/// What is wrong at a place in a text a person wrote, and what to do about it: the shape of
/// every error about input (a data file, a manifest, a cases file, standard input).
///
/// Its description is the compilers' "file:line:column: reason; hint", each part of the place
/// only as far as it is known, so that an editor or a terminal can jump to it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// The file, or "<stdin>"; nil for text built in code (a manifest made in Swift).
  public var file: String?
  /// The line, counted from 1; nil when the whole text is at fault.
  public var line: Int?
  /// The byte in the line, counted from 1; nil when the whole line is at fault.
  public var column: Int?
  /// What is wrong.
  public var reason: String
  /// What to do about it.
  public var hint: String?

  /// Creates a diagnostic.
  public init(
    file: String?, line: Int? = nil, column: Int? = nil, reason: String, hint: String? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
    self.hint = hint
  }

  /// "file:line:column: reason; hint"; without a file, "reason; hint".
  public var description: String {
    var text = ""
    if let file {
      text = file
      if let line {
        text += ":\(line)"
        if let column { text += ":\(column)" }
      }
      text += ": "
    }
    text += reason
    if let hint { text += "; \(hint)" }
    return text
  }
}

/// An error that is a ``Diagnostic``: its place, reason and hint read as its own properties
/// (`error.line`, `error.reason`), and its description is the diagnostic's.
@dynamicMemberLookup
public protocol LocatedError: Error, CustomStringConvertible {
  /// Where, what and what to do.
  var diagnostic: Diagnostic { get set }
}

extension LocatedError {
  /// The diagnostic's "file:line:column: reason; hint".
  public var description: String { diagnostic.description }

  /// A part of the diagnostic: `error.file`, `error.line`, `error.reason`, ….
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Diagnostic, Value>) -> Value {
    get { diagnostic[keyPath: keyPath] }
    set { diagnostic[keyPath: keyPath] = newValue }
  }
}
