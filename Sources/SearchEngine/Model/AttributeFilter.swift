extension AttributeFilter {
  /// A condition on one attribute of an item, which a search applies beside its text and scope:
  /// what a search token ("group is work", "has a birthday", "a million people or more") filters
  /// by.
  ///
  /// The engine evaluates it over the attribute's distinct values once per search, then
  /// reads one code per item: no closure runs per item.
  ///
  /// Its description is how the command line writes it: `group=work`, `group=work|family`,
  /// `population>=1000000`, `population<=5000`, `population=1000..5000`, `birthday?`.
  public enum Condition: Hashable, Sendable, CustomStringConvertible {
    /// The attribute's value is one of `values`.
    case oneOf(attribute: String, values: Set<String>)
    /// The attribute's value, read as a decimal number, lies in `range` (bounds included; use
    /// `-.infinity` or `.infinity` for an open end). A value that is not a number lies in no
    /// range.
    case number(attribute: String, in: ClosedRange<Double>)
    /// The attribute has a value: not the empty text, which is how an absent value is stored.
    case present(attribute: String)

    /// The attribute's value is `value`.
    public static func equals(attribute: String, value: String) -> AttributeFilter.Condition {
      .oneOf(attribute: attribute, values: [value])
    }

    /// The condition as the command line writes it.
    public var description: String {
      switch self {
      case .oneOf(let attribute, let values):
        return attribute + "=" + values.sorted().joined(separator: "|")
      case .number(let attribute, let range):
        func text(_ number: Double) -> String {
          number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        }
        switch (range.lowerBound.isFinite, range.upperBound.isFinite) {
        case (true, true):
          return "\(attribute)=\(text(range.lowerBound))..\(text(range.upperBound))"
        case (true, false): return "\(attribute)>=\(text(range.lowerBound))"
        case (false, true): return "\(attribute)<=\(text(range.upperBound))"
        case (false, false): return "\(attribute)=.."
        }
      case .present(let attribute):
        return attribute + "?"
      }
    }

    /// The attribute the condition reads.
    public var attribute: String {
      switch self {
      case .oneOf(let attribute, _), .number(let attribute, _), .present(let attribute):
        attribute
      }
    }
  }
}

/// Conditions on attributes that every result must meet, all of them (AND), as tokens in a
/// search field combine with each other, the text and the scope.
///
/// The empty filter admits every item.
///
/// Adding a condition can only narrow a search's results and removing one can only widen
/// them: a search whose filter holds every condition of an earlier one (``narrows(_:)``) is
/// answered from that search's results.
public struct AttributeFilter: Hashable, Sendable {
  /// The conditions, each of which an item must meet.
  public var conditions: Set<AttributeFilter.Condition>

  /// A filter of `conditions`.
  public init(_ conditions: some Sequence<AttributeFilter.Condition>) {
    self.conditions = Set(conditions)
  }

  /// The filter that admits every item.
  public static let none = AttributeFilter([])

  /// Whether the filter admits every item.
  public var isEmpty: Bool { conditions.isEmpty }

  /// Whether every item this filter admits is admitted by `other`: it holds all of `other`'s
  /// conditions, and maybe more.
  public func narrows(_ other: AttributeFilter) -> Bool {
    conditions.isSuperset(of: other.conditions)
  }
}
