import SearchEngine

extension ItemSearch {
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
  public struct Ranking: Sendable {
    /// Which way a value ranks: ``/SearchEngine/Ranking/Order/descending`` puts the largest first.
    public typealias Order = SearchEngine.Ranking.Order

    /// The rules; attributes named `rank1`, `rank2`, … in the order of ``reads``.
    let ranking: SearchEngine.Ranking
    /// What reads each attribute from an item, as a number's text.
    let reads: [@Sendable (Item) -> String]

    /// The default rules: words, typos, field, exactness, position, length; ties in the items'
    /// order.
    public static var relevance: Ranking { Ranking(ranking: .default, reads: []) }

    /// The default rules, with equally relevant items ranked by `keyPath`, largest first (after
    /// exactness, before position): a contact's calls, a song's plays, a product's sales.
    public static func byPopularity<Value: BinaryInteger & SendableMetatype>(
      _ keyPath: KeyPath<Item, Value> & Sendable
    ) -> Ranking {
      relevance(thenBy: keyPath, .descending)
    }

    /// The default rules, with equally relevant items ranked by `keyPath` in `order` (after
    /// exactness, before position).
    public static func relevance<Value: BinaryInteger & SendableMetatype>(
      thenBy keyPath: KeyPath<Item, Value> & Sendable, _ order: Order
    ) -> Ranking {
      Ranking.relevance.then(order) { String($0[keyPath: keyPath]) }
    }

    /// The default rules, with equally relevant items ranked by `keyPath` in `order` (after
    /// exactness, before position): a rating, a price.
    ///
    /// A value that is not finite ranks last.
    public static func relevance<Value: BinaryFloatingPoint & SendableMetatype>(
      thenBy keyPath: KeyPath<Item, Value> & Sendable, _ order: Order
    ) -> Ranking {
      Ranking.relevance.then(order) { plainDecimal(Double($0[keyPath: keyPath])) }
    }

    /// These rules with one more attribute after the others.
    private func then(_ order: Order, _ read: @escaping @Sendable (Item) -> String) -> Ranking {
      let name = ItemSchema<Item, Scope>.rankingAttributeName(reads.count)
      return Ranking(ranking: ranking.with(.attribute(name, order)), reads: reads + [read])
    }

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
}
