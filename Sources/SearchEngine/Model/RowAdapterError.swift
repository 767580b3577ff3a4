// Declared in Model, below the data sources that report it, because the model's display
// template (DisplayTemplate.swift) is parsed, and refused, with it.

/// Why a row could not be made, or an adapter or registry could not be set up.
public struct RowAdapterError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
  /// `default`; a release may add codes.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(name: String) { self.name = name }

    /// A template names something that is neither a field nor an attribute of the schema.
    public static let unknownPlaceholder = Code(name: "unknownPlaceholder")
    /// A template opens a placeholder with `{` and never closes it.
    public static let unclosedPlaceholder = Code(name: "unclosedPlaceholder")
    /// A template opens an optional group with `[` and never closes it.
    public static let unclosedGroup = Code(name: "unclosedGroup")
    /// A template has a `]` that closes no group.
    public static let unopenedGroup = Code(name: "unopenedGroup")
    /// A template opens a group inside another group; groups do not nest.
    public static let nestedGroup = Code(name: "nestedGroup")
    /// A template's group holds no placeholder, so it would never show.
    public static let groupWithoutPlaceholder = Code(name: "groupWithoutPlaceholder")
    /// The registry reads each item's kind from an attribute the schema does not have.
    public static let unknownKindAttribute = Code(name: "unknownKindAttribute")
    /// No adapter is registered for an item's kind, and the registry has no fallback.
    public static let noAdapter = Code(name: "noAdapter")
    /// The item is not in the model (removed, or from another model).
    public static let unknownItem = Code(name: "unknownItem")
    /// A render closure could not make the row of an item.
    public static let failed = Code(name: "failed")

    /// The code's name, such as "unknownPlaceholder".
    public var description: String { name }
  }

  /// What went wrong.
  public let code: Code
  /// The template at fault, for the template codes.
  public let template: String?
  /// Where in ``template`` (in characters, from 1), for the group codes.
  public let column: Int?
  /// The unknown placeholder or kind attribute, or the kind without an adapter.
  public let name: String?
  /// The item whose row could not be made.
  public let item: ItemID?
  /// The error as one line of text, saying what to do about it.
  public let description: String

  private init(
    _ code: Code, _ description: String, template: String? = nil, column: Int? = nil,
    name: String? = nil, item: ItemID? = nil
  ) {
    self.code = code
    self.description = description
    self.template = template
    self.column = column
    self.name = name
    self.item = item
  }

  /// A template names something that is neither a field nor an attribute of the schema.
  public static func unknownPlaceholder(
    _ name: String, template: String, fields: [String], attributes: [String]
  ) -> Self {
    Self(
      .unknownPlaceholder,
      "unknown placeholder \"{\(name)}\" in template \"\(template)\"; the schema's fields"
        + " are \(list(fields)) and its attributes \(list(attributes))",
      template: template, name: name)
  }
  /// A template opens a placeholder with `{` and never closes it.
  public static func unclosedPlaceholder(template: String) -> Self {
    Self(
      .unclosedPlaceholder,
      "template \"\(template)\" opens a placeholder with \"{\" and never closes it",
      template: template)
  }
  /// A template opens an optional group with `[` at `column` (in characters, from 1) and
  /// never closes it.
  public static func unclosedGroup(template: String, column: Int) -> Self {
    Self(
      .unclosedGroup,
      "template \"\(template)\" opens a group with \"[\" at column \(column) and never"
        + " closes it; close it with \"]\" (\"]]\" is a literal \"]\"), or write \"[[\" for a"
        + " literal \"[\"", template: template, column: column)
  }
  /// A template has a `]` at `column` that closes no group.
  public static func unopenedGroup(template: String, column: Int) -> Self {
    Self(
      .unopenedGroup,
      "template \"\(template)\" has a \"]\" at column \(column) that closes no group;"
        + " write \"]]\" for a literal \"]\"", template: template, column: column)
  }
  /// A template opens a group with `[` at `column` inside another group; groups do not nest.
  public static func nestedGroup(template: String, column: Int) -> Self {
    Self(
      .nestedGroup,
      "template \"\(template)\" opens a group with \"[\" at column \(column) inside"
        + " another group; groups do not nest: close the first one before, or write \"[[\" for a"
        + " literal \"[\"", template: template, column: column)
  }
  /// A template's group that opens at `column` holds no placeholder, so it would never show.
  public static func groupWithoutPlaceholder(template: String, column: Int) -> Self {
    Self(
      .groupWithoutPlaceholder,
      "template \"\(template)\" has a group at column \(column) without a placeholder,"
        + " which would never show; write \"[[\" and \"]]\" for literal brackets",
      template: template, column: column)
  }
  /// The registry reads each item's kind from an attribute the schema does not have.
  public static func unknownKindAttribute(_ name: String, attributes: [String]) -> Self {
    Self(
      .unknownKindAttribute,
      "the registry reads kinds from attribute \"\(name)\", which the schema does not"
        + " have; its attributes are \(list(attributes))", name: name)
  }
  /// No adapter is registered for an item's kind, and the registry has no fallback.
  public static func noAdapter(kind: String, item: ItemID) -> Self {
    Self(
      .noAdapter,
      "no row adapter for kind \"\(kind)\" (item \(item.rawValue)); register one with"
        + " register(_:forKind:) or give the registry a fallback", name: kind, item: item)
  }
  /// The item is not in the model (removed, or from another model).
  public static func unknownItem(_ item: ItemID) -> Self {
    Self(.unknownItem, "item \(item.rawValue) is not in the model", item: item)
  }
  /// A render closure could not make the row of an item.
  public static func failed(item: ItemID, reason: String) -> Self {
    Self(.failed, "cannot make the row of item \(item.rawValue): \(reason)", item: item)
  }

  private static func list(_ names: [String]) -> String {
    names.isEmpty ? "(none)" : names.map { "\"\($0)\"" }.joined(separator: ", ")
  }
}
