// Declared in Model, below the data sources that report it, because the model's display
// template (DisplayTemplate.swift) is parsed, and refused, with it.

/// Why a row could not be made, or an adapter or registry could not be set up.
public enum RowAdapterError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A template names something that is neither a field nor an attribute of the schema.
  case unknownPlaceholder(String, template: String, fields: [String], attributes: [String])
  /// A template opens a placeholder with `{` and never closes it.
  case unclosedPlaceholder(template: String)
  /// A template opens an optional group with `[` at `column` (in characters, from 1) and
  /// never closes it.
  case unclosedGroup(template: String, column: Int)
  /// A template has a `]` at `column` that closes no group.
  case unopenedGroup(template: String, column: Int)
  /// A template opens a group with `[` at `column` inside another group; groups do not nest.
  case nestedGroup(template: String, column: Int)
  /// A template's group that opens at `column` holds no placeholder, so it would never show.
  case groupWithoutPlaceholder(template: String, column: Int)
  /// The registry reads each item's kind from an attribute the schema does not have.
  case unknownKindAttribute(String, attributes: [String])
  /// No adapter is registered for an item's kind, and the registry has no fallback.
  case noAdapter(kind: String, item: ItemID)
  /// The item is not in the model (removed, or from another model).
  case unknownItem(ItemID)
  /// A render closure could not make the row of an item.
  case failed(item: ItemID, reason: String)

  /// The error as one line of text, saying what to do about it.
  public var description: String {
    switch self {
    case .unknownPlaceholder(let name, let template, let fields, let attributes):
      return "unknown placeholder \"{\(name)}\" in template \"\(template)\"; the schema's fields"
        + " are \(Self.list(fields)) and its attributes \(Self.list(attributes))"
    case .unclosedPlaceholder(let template):
      return "template \"\(template)\" opens a placeholder with \"{\" and never closes it"
    case .unclosedGroup(let template, let column):
      return "template \"\(template)\" opens a group with \"[\" at column \(column) and never"
        + " closes it; close it with \"]\" (\"]]\" is a literal \"]\"), or write \"[[\" for a"
        + " literal \"[\""
    case .unopenedGroup(let template, let column):
      return "template \"\(template)\" has a \"]\" at column \(column) that closes no group;"
        + " write \"]]\" for a literal \"]\""
    case .nestedGroup(let template, let column):
      return "template \"\(template)\" opens a group with \"[\" at column \(column) inside"
        + " another group; groups do not nest: close the first one before, or write \"[[\" for a"
        + " literal \"[\""
    case .groupWithoutPlaceholder(let template, let column):
      return "template \"\(template)\" has a group at column \(column) without a placeholder,"
        + " which would never show; write \"[[\" and \"]]\" for literal brackets"
    case .unknownKindAttribute(let name, let attributes):
      return "the registry reads kinds from attribute \"\(name)\", which the schema does not"
        + " have; its attributes are \(Self.list(attributes))"
    case .noAdapter(let kind, let item):
      return "no row adapter for kind \"\(kind)\" (item \(item.rawValue)); register one with"
        + " register(_:forKind:) or give the registry a fallback"
    case .unknownItem(let item):
      return "item \(item.rawValue) is not in the model"
    case .failed(let item, let reason):
      return "cannot make the row of item \(item.rawValue): \(reason)"
    }
  }

  private static func list(_ names: [String]) -> String {
    names.isEmpty ? "(none)" : names.map { "\"\($0)\"" }.joined(separator: ", ")
  }
}
