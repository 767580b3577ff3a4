import SearchEngine

/// The scope bar of an ``ItemSearch``: "All", then one button per scope, each admitting the
/// items it contains.
///
/// A scope is a value of the app's own type (an enum of groups, say), so a misspelt scope cannot
/// compile.
///
/// ```swift
/// enum Group: String, CaseIterable, Sendable { case work, family, friends }
/// let scopes = ItemScopes.cases(\Contact.group)   // All, Work, Family, Friends
/// ```
public struct ItemScopes<Item, Scope: Hashable & Sendable>: Sendable {
  /// The scopes, in the bar's order after "All", with their titles.
  public let scopes: [Scope]
  /// The button titles, in the order of ``scopes``.
  public let titles: [String]
  /// The title of the scope that admits every item.
  public let allTitle: String
  let contains: @Sendable (Item, Scope) -> Bool

  private init(allTitle: String) {
    scopes = []
    titles = []
    self.allTitle = allTitle
    contains = { _, _ in false }
  }

  /// A scope bar of the given scopes; `contains` says whether a scope admits an item.
  ///
  /// - Parameters:
  ///   - scopes: The buttons after "All", in order; each once.
  ///   - allTitle: The first button's title.
  ///   - title: A button's title; by default the scope as text with its first letter in
  ///     upper case ("work" → "Work").
  ///   - contains: Whether a scope admits an item: an item may be in several scopes. It runs
  ///     off the main actor, where the search is built and changes are prepared.
  public init(
    _ scopes: [Scope], allTitle: String = "All", title: (Scope) -> String = defaultTitle,
    contains: @escaping @Sendable (Item, Scope) -> Bool
  ) {
    self.scopes = scopes
    self.titles = scopes.map(title)
    self.allTitle = allTitle
    self.contains = contains
  }

  /// A scope bar with one button per case of the type at `keyPath`: a scope admits the items
  /// whose value is that case.
  public static func cases(
    _ keyPath: KeyPath<Item, Scope> & Sendable, allTitle: String = "All",
    title: (Scope) -> String = defaultTitle
  ) -> ItemScopes where Scope: CaseIterable {
    ItemScopes(Array(Scope.allCases), allTitle: allTitle, title: title) { item, scope in
      item[keyPath: keyPath] == scope
    }
  }

  /// A scope's default title: its text with the first letter in upper case.
  public static func defaultTitle(_ scope: Scope) -> String {
    let text = String(describing: scope)
    return text.prefix(1).uppercased() + text.dropFirst()
  }
}

extension ItemScopes where Scope == Never {
  /// No scope bar: every search is over all items.
  public static var none: ItemScopes { ItemScopes(allTitle: "All") }
}
