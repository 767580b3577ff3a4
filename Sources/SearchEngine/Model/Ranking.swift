/// The order of ranked results: rules, each ordering the items that the rules before it leave
/// tied; the ties of the last keep the model's order.
///
/// The default is close to Meilisearch's ranking rules and Algolia's ranking formula:
/// ``Rule/words``, ``Rule/typos``, ``Rule/field``, ``Rule/exactness``, then the data set's own
/// attributes (``Rule/attribute(_:_:)``: a city's population, a contact's calls), then
/// ``Rule/position`` and ``Rule/length``. For "zur" over cities, Zürich (a name that starts with
/// the word) comes before Giurgiu (an alternate name, Zurz: a later field), and before Zuru, a
/// name as good, because the data set ranks by population after exactness.
///
/// ```swift
/// let ranking = Ranking.default.with(.attribute("population", .descending))
/// ```
///
/// The rules look at the query's positive words (those without `!`), each as many times as the
/// query has it, in the fields of the scope searched.
public struct Ranking: Hashable, Sendable {
  /// Which way an attribute ranks.
  public enum Order: String, Hashable, Sendable, CaseIterable {
    /// Smaller numbers first: a price.
    case ascending
    /// Larger numbers first: a population, a count of calls.
    case descending
  }

  /// One rule: how it orders the items that the rules before it leave tied.
  public enum Rule: Hashable, Sendable {
    /// More of the query's words found first: with either-or sets (`(a | b) c`), an item that
    /// has both `a` and `b` comes before one that has one of them.
    case words
    /// Fewer typos first: the sum over the words of the fewest edits each needed (see
    /// ``TypoTolerance``).
    case typos
    /// Matches in earlier fields first, in the schema's order of fields: a city whose name has
    /// the word before one whose alternate names have it. Summed over the words; a number
    /// equal to a number attribute counts as the first field.
    case field
    /// Better matches first: the whole value, then a whole word, then the start of a word,
    /// then inside a word (each word's best match, summed). The query's last word, while it is
    /// typed (no space after it), may be unfinished: a whole word counts as the start of one,
    /// so "san" ranks San Antonio and Santiago alike here.
    case exactness
    /// Matches at the start of a value before those further in: "york" ranks York before New
    /// York here. (Summed over the words.)
    case position
    /// Shorter values first: the shortest value a word matched in.
    case length
    /// A number attribute of the items (a population, a count of calls), in `order`; items
    /// whose value is not a number come after the others either way.
    case attribute(String, Order)
  }

  /// The rules, first to last.
  public var rules: [Rule]

  /// A ranking by `rules`, first to last.
  public init(_ rules: [Rule]) { self.rules = rules }

  /// Words, typos, field, exactness, position, length: what ranks a data set that names no
  /// attribute.
  public static let `default` = Ranking([
    .words, .typos, .field, .exactness, .position, .length,
  ])

  /// These rules with `attributes` after the attributes they name, else after
  /// ``Rule/exactness`` (at the end without it): the default rules of a data set or an app that
  /// ranks by popularity.
  public func with(_ attributes: Rule...) -> Ranking { with(attributes) }

  /// These rules with `attributes` after the attributes they name, else after
  /// ``Rule/exactness`` (at the end without it).
  public func with(_ attributes: [Rule]) -> Ranking {
    var rules = self.rules
    let place =
      rules.lastIndex { if case .attribute = $0 { true } else { false } }.map { $0 + 1 }
      ?? rules.firstIndex(of: .exactness).map { $0 + 1 } ?? rules.endIndex
    rules.insert(contentsOf: attributes, at: place)
    return Ranking(rules)
  }

  /// The attributes the rules name.
  public var attributes: [String] {
    rules.compactMap { if case .attribute(let name, _) = $0 { name } else { nil } }
  }
}

extension Ranking.Rule: CustomStringConvertible {
  /// The rule as a manifest's "ranking" names it: `words`, …, `population descending`.
  public var description: String {
    switch self {
    case .words: "words"
    case .typos: "typos"
    case .field: "field"
    case .exactness: "exactness"
    case .position: "position"
    case .length: "length"
    case .attribute(let name, let order): "\(name) \(order.rawValue)"
    }
  }

  /// The rules other than attributes, by name.
  public static let named: [String: Ranking.Rule] = [
    "words": .words, "typos": .typos, "field": .field, "exactness": .exactness,
    "position": .position, "length": .length,
  ]
}
