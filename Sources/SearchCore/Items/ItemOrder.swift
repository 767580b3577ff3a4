import SearchEngine

/// The order of an ``ItemSearch``'s rows inside each section, in both the list and the
/// results: the items' own order, or the collation of a text of theirs under the search's
/// locale (as UIKit's `UILocalizedIndexedCollation` sorts a contacts list).
///
/// The order holds across inserts and renames: a new or renamed item takes its place among the
/// others.
///
/// ```swift
/// // Sections by first name's letter, rows by family name within each.
/// try await ItemSearch(
///   contacts, searching: \.name,
///   configuration: .init(sections: .firstLetter(\.name), order: .collation(\.familyName)))
/// ```
public struct ItemOrder<Item>: Sendable {
  enum Kind {
    case given
    case collation(@Sendable (Item) -> String)
  }

  let kind: Kind

  /// The order of the items as given, and of inserts at their positions; a section by first
  /// letter (``ItemSections/firstLetter(_:sortsRows:)``) sorts its rows unless told not to.
  public static var given: ItemOrder { ItemOrder(kind: .given) }

  /// Collation order of the text at `keyPath` under the search's locale ("ä" after "a" in
  /// German, after "z" in Swedish); equal texts in the order the items joined the list, so a
  /// `replaceAll` that gives the same items in another order moves no row.
  public static func collation(_ keyPath: KeyPath<Item, String> & Sendable) -> ItemOrder {
    ItemOrder(kind: .collation { $0[keyPath: keyPath] })
  }
}
