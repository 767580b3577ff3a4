extension ScopeBar {
  /// One button of a scope bar: a title, and what it restricts (an attribute's values, the
  /// fields searched, or both).
  ///
  /// A scope filters even when the search text is empty.
  public struct Scope: Hashable, Sendable {
    /// The button's title, such as "Europe".
    public var title: String
    /// The attribute this scope filters on; nil when it does not filter by attribute.
    public var attribute: String?
    /// The values of `attribute` an item must have one of.
    public var values: Set<String>
    /// The fields searched in this scope; nil searches every searched field of the schema.
    public var fields: [String]?
    /// Whether the scope may admit no item when its corpus is built (a typed scope whose
    /// values are checked by the compiler); else that is a misspelt value and an error.
    package var mayBeEmpty = false

    /// Creates a scope; with no restriction it is "All".
    public init(
      title: String, attribute: String? = nil, values: Set<String> = [], fields: [String]? = nil
    ) {
      self.title = title
      self.attribute = attribute
      self.values = values
      self.fields = fields
    }

    /// Whether the scope restricts nothing: every item, every searched field.
    public var isAll: Bool { attribute == nil && fields == nil }
  }
}

/// The scopes of a search bar, as in UIKit's scope bar: scope 0 is "All".
public struct ScopeBar: Hashable, Sendable {
  /// The scopes, "All" first.
  public private(set) var scopes: [ScopeBar.Scope]

  /// A scope bar with "All" only.
  public init() { scopes = [ScopeBar.Scope(title: "All")] }

  /// A scope bar of "All" followed by `scopes`; a leading scope that restricts nothing is
  /// taken as the "All" scope itself.
  public init(_ scopes: [ScopeBar.Scope]) {
    if let first = scopes.first, first.isAll {
      self.scopes = scopes
    } else {
      self.scopes = [ScopeBar.Scope(title: "All")] + scopes
    }
  }

  /// The titles, in order.
  public var titles: [String] { scopes.map(\.title) }

  /// The index of the scope titled `title` (ignoring case), or of a number given as text.
  public func index(of title: String) -> Int? {
    if let index = Int(title), scopes.indices.contains(index) { return index }
    return scopes.firstIndex { $0.title.lowercased() == title.lowercased() }
  }
}
