extension SearchModel {
  /// What the items of a model hold: named text fields, attributes, a scope bar and how an item
  /// is displayed.
  public struct Schema: Hashable, Sendable {
    /// A named text field.
    ///
    /// A field may hold several values per item (a city's alternate names).
    public struct Field: Hashable, Sendable {
      /// The field's name, such as "name".
      public var name: String
      /// Whether searches look at this field (unless a scope says otherwise).
      public var isSearched: Bool

      /// Creates a field.
      public init(name: String, isSearched: Bool = true) {
        self.name = name
        self.isSearched = isSearched
      }
    }

    /// The text fields, in the order of `SearchModel.Record.fields`.
    public var fields: [Field]
    /// The attribute names, in the order of `SearchModel.Record.attributes`; scopes filter on them.
    public var attributes: [String]
    /// The scope bar; scope 0 is "All" (see ``ScopeBar``).
    public var scopeBar: ScopeBar
    /// How an item is shown, with `{field}` or `{attribute}` placeholders and optional groups
    /// in brackets, such as "{name}[ ({country})]" (see ``SearchModel/display(_:)``); nil shows the
    /// first field.
    public var displayTemplate: String?
    /// The attributes that a query word which is a number also matches, when it equals their
    /// value: as Apple's AdvancedTableSearch sample finds products by year or price.
    ///
    /// Values and words are compared as decimal numbers in ``DecimalText``'s canonical form, so the
    /// word "499" finds the price "499.00" but "49" does not. Any other word, and the text
    /// fields, match as usual. Scopes search these attributes whatever fields they name.
    public var numberAttributes: [String]
    /// How ranked results are ordered (``SearchCorpus/ranked(_:)``): the fields' order counts
    /// (``Ranking/Rule/field``), and the rules may name attributes that rank equally relevant
    /// items (a city's population).
    public var ranking: Ranking

    /// Creates a schema.
    public init(
      fields: [Field], attributes: [String] = [], scopeBar: ScopeBar = ScopeBar(),
      displayTemplate: String? = nil, numberAttributes: [String] = [],
      ranking: Ranking = .default
    ) {
      self.fields = fields
      self.attributes = attributes
      self.scopeBar = scopeBar
      self.displayTemplate = displayTemplate
      self.numberAttributes = numberAttributes
      self.ranking = ranking
    }

    /// The index of the field named `name`.
    public func fieldIndex(named name: String) -> Int? { fields.firstIndex { $0.name == name } }

    /// The index of the attribute named `name`.
    public func attributeIndex(named name: String) -> Int? { attributes.firstIndex(of: name) }

    /// A schema of one searched field, "line": what `filter` uses for plain lines.
    public static let lines = SearchModel.Schema(fields: [Field(name: "line")])
  }
}
