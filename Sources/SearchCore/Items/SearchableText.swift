import SearchEngine

/// A type whose values an ``ItemSearch`` reads as text: `String`, `Substring`, arrays and
/// optionals of them.
///
/// A key path to one names a searched field.
public protocol SearchableText {
  /// The texts a search reads, one per value: a list of e-mail addresses gives several, an
  /// absent value none.
  var searchableValues: [String] { get }
}

extension String: SearchableText {
  /// The string itself.
  public var searchableValues: [String] { [self] }
}

extension Substring: SearchableText {
  /// The substring as a string.
  public var searchableValues: [String] { [String(self)] }
}

extension Optional: SearchableText where Wrapped: SearchableText {
  /// The wrapped value's texts, or none.
  public var searchableValues: [String] { self?.searchableValues ?? [] }
}

extension Array: SearchableText where Element: SearchableText {
  /// Every element's texts, in order.
  public var searchableValues: [String] {
    // An array of strings is its own values: no generic pass over its elements, which cost
    // more than the rest of reading an item.
    if Element.self == String.self, let strings = self as? [String] { return strings }
    // A closure, not a key path: a generic key path is made anew at run time on every call,
    // which cost more than the rest of reading an item.
    return flatMap { $0.searchableValues }
  }
}
