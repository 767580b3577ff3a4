import SearchEngine

/// How an ``ItemSearch`` groups its rows into sections, as a contacts list groups names by
/// their first letter.
public struct ItemSections<Item>: Sendable {
  enum Kind {
    case none
    case firstLetter(@Sendable (Item) -> String)
    case value(@Sendable (Item) -> String)
  }

  let kind: Kind
  /// Whether rows are in collation order of their section key inside each section (else in
  /// the order of the items).
  let sortsRows: Bool

  /// One plain section in the order of the items.
  public static var none: ItemSections { ItemSections(kind: .none, sortsRows: false) }

  /// One section per index letter of the text at `keyPath`, under the locale's alphabetic
  /// index (as UIKit's `UILocalizedIndexedCollation`), with an index down the side; rows in
  /// collation order of that text unless `sortsRows` is false.
  public static func firstLetter(
    _ keyPath: KeyPath<Item, String> & Sendable, sortsRows: Bool = true
  )
    -> ItemSections
  {
    ItemSections(kind: .firstLetter { $0[keyPath: keyPath] }, sortsRows: sortsRows)
  }

  /// One section per distinct value at `keyPath`, titled by the value as text, sections in
  /// collation order of their titles; rows in the order of the items.
  public static func byValue<Value>(_ keyPath: KeyPath<Item, Value> & Sendable)
    -> ItemSections
  {
    ItemSections(kind: .value { String(describing: $0[keyPath: keyPath]) }, sortsRows: false)
  }
}
