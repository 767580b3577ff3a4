/// How an ``ItemSearch`` lays the app's items out in the engine's columnar ``Model``: one
/// field per searched key path, a field or attribute for sections, one attribute per scope.
/// The names are internal; the app only ever names key paths and its own scope values.
struct ItemSchema<Item, Scope: Hashable & Sendable> {
  /// A searched key path and how to read its texts.
  struct Extractor {
    var keyPath: AnyKeyPath
    var values: (Item) -> [String]
  }

  let schema: Schema
  let fields: [Extractor]
  /// The field of each searched key path (the first, when a key path is given twice).
  let fieldOfKeyPath: [AnyKeyPath: Int]
  private let scopes: ItemScopes<Item, Scope>
  private let sections: ItemSections<Item>

  static var sectionName: String { "section" }

  init(fields: [Extractor], scopes: ItemScopes<Item, Scope>, sections: ItemSections<Item>)
    throws(ItemSearchError)
  {
    var seenTitles: Set<String> = [scopes.allTitle]
    for title in scopes.titles where !seenTitles.insert(title).inserted {
      throw .duplicateScopeTitle(title)
    }
    self.fields = fields
    self.scopes = scopes
    self.sections = sections
    var fieldOfKeyPath: [AnyKeyPath: Int] = [:]
    for (index, field) in fields.enumerated() where fieldOfKeyPath[field.keyPath] == nil {
      fieldOfKeyPath[field.keyPath] = index
    }
    self.fieldOfKeyPath = fieldOfKeyPath
    var schemaFields = fields.indices.map { Schema.Field(name: "field\($0)") }
    var attributes = scopes.scopes.indices.map { "scope\($0 + 1)" }
    switch sections.kind {
    case .none: break
    case .firstLetter: schemaFields.append(Schema.Field(name: Self.sectionName, isSearched: false))
    case .value: attributes.append(Self.sectionName)
    }
    let bar = ScopeBar(
      [SearchCore.Scope(title: scopes.allTitle)]
        + scopes.titles.enumerated().map { index, title in
          var scope = SearchCore.Scope(
            title: title, attribute: "scope\(index + 1)", values: ["1"])
          scope.mayBeEmpty = true  // a case with no item yet is no mistake
          return scope
        })
    schema = Schema(fields: schemaFields, attributes: attributes, scopeBar: bar)
  }

  /// The record of an item: its texts by field, its scope memberships as "1" or "0".
  func record(of item: Item) -> ItemRecord {
    var texts = fields.map { $0.values(item) }
    var attributes = scopes.scopes.map { scopes.contains(item, $0) ? "1" : "0" }
    switch sections.kind {
    case .none: break
    case .firstLetter(let key): texts.append([key(item)])
    case .value(let key): attributes.append(key(item))
    }
    return ItemRecord(fields: texts, attributes: attributes)
  }

  /// The controller's table options: sections in both tables, as a sectioned list keeps them
  /// while it is filtered.
  func tableOptions(locale: String?) -> SearchController.TableOptions {
    switch sections.kind {
    case .none:
      return SearchController.TableOptions(locale: locale ?? "")
    case .firstLetter:
      return SearchController.TableOptions(
        sectioning: .firstLetter(field: Self.sectionName),
        rowOrder: sections.sortsRows ? .collation : .given, resultsUseOriginalSections: true,
        locale: locale ?? "")
    case .value:
      return SearchController.TableOptions(
        sectioning: .attribute(Self.sectionName), rowOrder: .given,
        resultsUseOriginalSections: true, locale: locale ?? "")
    }
  }
}
