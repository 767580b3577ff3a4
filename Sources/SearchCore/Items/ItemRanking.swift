import SearchEngine

/// How an ``ItemSearch`` ranks its results: the engine's rules (``/SearchEngine/Ranking``),
/// with values of the app's own items ranking those equally relevant.
///
/// The searched key paths count in the order given to `searching:` (a match in the first
/// before one in the second: ``/SearchEngine/Ranking/Rule/field``).
///
/// ```swift
/// var configuration = ItemSearch<Contact, Never, Never>.Configuration()
/// configuration.ranking = .byPopularity(\.callCount)   // the most called first among equals
/// let search = try await ItemSearch(contacts, searching: \.name, \.company,
///                                   configuration: configuration)
/// ```
public struct ItemRanking<Item>: Sendable {
  /// Which way a value ranks: ``/SearchEngine/Ranking/Order/descending`` puts the largest first.
  public typealias Order = Ranking.Order

  /// An attribute of the engine's schema, read from each item as a number.
  struct Key: Sendable {
    var order: Order
    var read: @Sendable (Item) -> String
  }

  /// The rules; attributes named `rank1`, `rank2`, … in the order of ``keys``.
  let ranking: Ranking
  let keys: [Key]

  /// The default rules: words, typos, field, exactness, position, length; ties in the items'
  /// order.
  public static var relevance: ItemRanking { ItemRanking(ranking: .default, keys: []) }

  /// The default rules, with equally relevant items ranked by `keyPath`, largest first (after
  /// exactness, before position): a contact's calls, a song's plays, a product's sales.
  public static func byPopularity<Value: BinaryInteger & SendableMetatype>(
    _ keyPath: KeyPath<Item, Value> & Sendable
  ) -> ItemRanking {
    relevance(thenBy: keyPath, .descending)
  }

  /// The default rules, with equally relevant items ranked by `keyPath` in `order` (after
  /// exactness, before position).
  public static func relevance<Value: BinaryInteger & SendableMetatype>(
    thenBy keyPath: KeyPath<Item, Value> & Sendable, _ order: Order
  ) -> ItemRanking {
    ItemRanking.relevance.then(Key(order: order) { String($0[keyPath: keyPath]) })
  }

  /// The default rules, with equally relevant items ranked by `keyPath` in `order` (after
  /// exactness, before position): a rating, a price.
  ///
  /// A value that is not finite ranks last.
  public static func relevance<Value: BinaryFloatingPoint & SendableMetatype>(
    thenBy keyPath: KeyPath<Item, Value> & Sendable, _ order: Order
  ) -> ItemRanking {
    ItemRanking.relevance.then(Key(order: order) { plainDecimal(Double($0[keyPath: keyPath])) })
  }

  /// These rules with one more attribute after the others.
  private func then(_ key: Key) -> ItemRanking {
    let name = Self.attributeName(keys.count)
    var rules = ranking.rules
    let place =
      rules.lastIndex { if case .attribute = $0 { true } else { false } }.map { $0 + 1 }
      ?? rules.firstIndex(of: .exactness).map { $0 + 1 } ?? rules.endIndex
    rules.insert(.attribute(name, key.order), at: place)
    return ItemRanking(ranking: Ranking(rules), keys: keys + [key])
  }

  /// The name of the attribute of key `index` in the engine's schema.
  static func attributeName(_ index: Int) -> String { "rank\(index + 1)" }

  /// `value` as a decimal without an exponent ("0.00001234", not "1.234e-05"), which the
  /// engine reads as a number; "" for a value that is not finite.
  static func plainDecimal(_ value: Double) -> String {
    guard value.isFinite else { return "" }
    let text = value.description
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
      let exponent = Int(text[text.index(after: e)...])
    else { return text }
    let negative = text.hasPrefix("-")
    let mantissa = text[..<e].drop { $0 == "-" }
    let point =
      mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
      ?? mantissa.count
    let digits = mantissa.filter { $0 != "." }
    // The point moves `exponent` places: pad with zeros on the side it moves to.
    let newPoint = point + exponent
    let body: String
    if newPoint <= 0 {
      body = "0." + String(repeating: "0", count: -newPoint) + digits
    } else if newPoint >= digits.count {
      body = digits + String(repeating: "0", count: newPoint - digits.count)
    } else {
      body = String(digits.prefix(newPoint)) + "." + String(digits.dropFirst(newPoint))
    }
    return negative ? "-" + body : body
  }
}
