import SearchEngine

/// How an ``ItemSearch`` lays the app's items out in the engine's columnar ``/SearchEngine/SearchModel``: one
/// field per searched key path, a field or attribute for sections, one attribute per scope,
/// token's key path and ranking key.
///
/// The names are internal; the app only ever names key paths and its own scope values.
///
/// It makes records off the main actor. It is `@unchecked Sendable` only because `AnyKeyPath`
/// erases the `Sendable` of the key paths it keeps: every one of them came in as
/// `KeyPath & Sendable`, and its closures are `@Sendable`.
struct ItemSchema<Item, Scope: Hashable & Sendable>: @unchecked Sendable {
  /// A searched key path and how to read its texts.
  struct Extractor {
    var keyPath: AnyKeyPath
    var values: @Sendable (Item) -> [String]
  }

  let schema: SearchModel.Schema
  let fields: [Extractor]
  /// The field of each searched key path (the first, when a key path is given twice).
  let fieldOfKeyPath: [AnyKeyPath: Int]
  private let scopes: ItemScopes<Item, Scope>
  private let sections: ItemSections<Item>
  private let order: ItemOrder<Item>
  /// What reads each attribute the ranking's rules name, in their order.
  private let rankingKeys: [@Sendable (Item) -> String]
  /// The attributes tokens test, and the name of each in the engine's schema.
  private let tokenAttributes: [TokenAttribute<Item>]
  private let tokenAttributeNames: [TokenAttribute<Item>.Key: String]
  /// The codes of the values tokens compare.
  let valueCodes = ValueCodes()

  static var sectionName: String { "section" }
  static var orderName: String { "order" }
  /// The attribute of the ranking's key `index` (`rank1`, `rank2`, …).
  static func rankingAttributeName(_ index: Int) -> String { "rank\(index + 1)" }

  init(
    fields: [Extractor], scopes: ItemScopes<Item, Scope>, sections: ItemSections<Item>,
    order: ItemOrder<Item> = .given, tokenAttributes: [TokenAttribute<Item>] = [],
    ranking: Ranking = .default, rankingKeys: [@Sendable (Item) -> String] = []
  ) throws(ItemSearchError) {
    var seenTitles: Set<String> = [scopes.allTitle]
    for title in scopes.titles where !seenTitles.insert(title).inserted {
      throw .duplicateScopeTitle(title)
    }
    self.fields = fields
    self.scopes = scopes
    self.sections = sections
    self.order = order
    self.rankingKeys = rankingKeys
    self.tokenAttributes = tokenAttributes
    var names: [TokenAttribute<Item>.Key: String] = [:]
    for (index, attribute) in tokenAttributes.enumerated() {
      names[attribute.key] = "token\(index + 1)"
    }
    self.tokenAttributeNames = names
    var fieldOfKeyPath: [AnyKeyPath: Int] = [:]
    for (index, field) in fields.enumerated() where fieldOfKeyPath[field.keyPath] == nil {
      fieldOfKeyPath[field.keyPath] = index
    }
    self.fieldOfKeyPath = fieldOfKeyPath
    var schemaFields = fields.indices.map { SearchModel.Schema.Field(name: "field\($0)") }
    var attributes = scopes.scopes.indices.map { "scope\($0 + 1)" }
    switch sections.kind {
    case .none: break
    case .firstLetter:
      schemaFields.append(SearchModel.Schema.Field(name: Self.sectionName, isSearched: false))
    case .value: attributes.append(Self.sectionName)
    }
    attributes += tokenAttributes.indices.map { "token\($0 + 1)" }
    attributes += rankingKeys.indices.map(Self.rankingAttributeName)
    if case .collation = order.kind {
      schemaFields.append(SearchModel.Schema.Field(name: Self.orderName, isSearched: false))
    }
    let bar = ScopeBar(
      [ScopeBar.Scope(title: scopes.allTitle)]
        + scopes.titles.enumerated().map { index, title in
          var scope = ScopeBar.Scope(
            title: title, attribute: "scope\(index + 1)", values: ["1"])
          scope.mayBeEmpty = true  // a case with no item yet is no mistake
          return scope
        })
    schema = SearchModel.Schema(
      fields: schemaFields, attributes: attributes, scopeBar: bar, ranking: ranking)
  }

  /// The record of an item: its texts by field, its scope memberships as "1" or "0".
  func record(of item: Item) -> SearchModel.Record {
    var texts = fields.map { $0.values(item) }
    var attributes = scopes.scopes.map { scopes.contains(item, $0) ? "1" : "0" }
    switch sections.kind {
    case .none: break
    case .firstLetter(let key): texts.append([key(item)])
    case .value(let key): attributes.append(key(item))
    }
    for attribute in tokenAttributes { attributes.append(attribute.read(item, valueCodes)) }
    for key in rankingKeys { attributes.append(key(item)) }
    if case .collation(let key) = order.kind { texts.append([key(item)]) }
    return SearchModel.Record(fields: texts, attributes: attributes)
  }

  /// The engine's condition for an app's filter, or nil when its key path is not one a listed
  /// token tests (it was not read from the items).
  func condition(of filter: ItemFilter<Item>) -> AttributeFilter.Condition? {
    tokenAttributeNames[filter.attribute.key].map {
      filter.condition(attribute: $0, codes: valueCodes)
    }
  }

  /// The controller's table options: sections in both tables, as a sectioned list keeps them
  /// while it is filtered, and rows in the order asked for.
  func tableOptions(locale: String?) -> SearchController.TableOptions {
    let sectioning: SectionedTable.Sectioning
    var rowOrder = SectionedTable.RowOrder.given
    switch sections.kind {
    case .none:
      sectioning = .none
    case .firstLetter:
      sectioning = .firstLetter(field: Self.sectionName)
      if sections.sortsRows { rowOrder = .collation }
    case .value:
      sectioning = .attribute(Self.sectionName)
    }
    if case .collation = order.kind { rowOrder = .fieldCollation(Self.orderName) }
    return SearchController.TableOptions(
      sectioning: sectioning, rowOrder: rowOrder,
      resultsUseOriginalSections: sectioning != .none || rowOrder != .given,
      locale: locale ?? "")
  }
}
