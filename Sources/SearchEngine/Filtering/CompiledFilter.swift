/// An ``AttributeFilter`` ready to test items: for each condition, its attribute and which of
/// the attribute's distinct values (by code) meet it.
///
/// Testing an item reads one code per condition.
package struct CompiledFilter: Sendable {
  struct Test: Sendable {
    var attribute: Int
    /// Whether each code's value meets the condition; codes past the end (values added after
    /// compiling) do not.
    var admitted: [Bool]
  }

  let tests: [Test]

  /// Whether item `item` (alive in `model`) meets every condition.
  @inline(__always)
  func admits(_ item: Int, model: SearchModel) -> Bool {
    for test in tests {
      let code = Int(model.attributeOfItem[test.attribute][item])
      guard code < test.admitted.count, test.admitted[code] else { return false }
    }
    return true
  }
}

extension AttributeFilter {
  /// A filter that names an attribute the data does not have.
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// No attribute has the name a condition gives.
      public static let unknownAttribute = Code(name: "unknownAttribute")

      /// The code's name, such as "unknownAttribute".
      public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The attribute the filter names.
    public let attribute: String
    /// The attributes there are.
    public let available: [String]

    /// No attribute is called `name`; `available` are those there are.
    public static func unknownAttribute(_ name: String, available: [String]) -> Self {
      Self(code: .unknownAttribute, attribute: name, available: available)
    }

    /// The error as one line of text.
    public var description: String {
      let names =
        available.isEmpty
        ? "it has none"
        : "its attributes are " + available.map { "\"\($0)\"" }.joined(separator: ", ")
      return "no attribute is called \"\(attribute)\": \(names)"
    }
  }
}

/// The attributes' values read as numbers, for number conditions: made for an attribute the
/// first time a condition asks, and extended for the values added since.
///
/// A value's code never changes its text, so every copy of a corpus shares one cache.
final class AttributeNumbers: Sendable {
  private let cache = LockedValue<[Int: [Double]]>([:])
  private let rankCache = LockedValue<[Int: [UInt32]]>([:])

  /// The rank of each of `values` among the attribute's numbers, ascending (equal numbers, equal
  /// ranks; `UInt32.max` for a value that is not a number): what the ranking sorts by.
  ///
  /// - Complexity: O(*v* log *v*) for *v* values, once for each set of values.
  func ranks(of attribute: Int, values: [String]) -> [UInt32] {
    if let known = rankCache.withLock({ $0[attribute] }), known.count == values.count {
      return known
    }
    let numbers = self.numbers(of: attribute, values: values)
    let order = numbers.indices.filter { !numbers[$0].isNaN }.sorted { numbers[$0] < numbers[$1] }
    var ranks = [UInt32](repeating: .max, count: numbers.count)
    var rank: UInt32 = 0
    for (place, code) in order.enumerated() {
      if place > 0, numbers[code] != numbers[order[place - 1]] { rank += 1 }
      ranks[code] = rank
    }
    rankCache.withLock { $0[attribute] = ranks }
    return ranks
  }

  /// The number of each of `values` (NaN for a value that is not a number); `values` are the
  /// distinct values of attribute `attribute`, by code.
  func numbers(of attribute: Int, values: [String]) -> [Double] {
    cache.withLock { cache in
      var numbers = cache[attribute] ?? []
      if numbers.count < values.count {
        cache[attribute] = nil  // one owner, so that the array grows in place
        numbers.reserveCapacity(values.count)
        for code in numbers.count..<values.count {
          numbers.append(DecimalText.canonical(values[code]).flatMap(Double.init) ?? .nan)
        }
        cache[attribute] = numbers
      }
      return numbers
    }
  }
}

extension SearchCorpus {
  /// Compiles `filter` against the model's attributes; nil for the empty filter.
  ///
  /// - Complexity: O(*v*) for the *v* distinct values of the attributes it names.
  package func compile(_ filter: AttributeFilter) throws(AttributeFilter.Error) -> CompiledFilter? {
    guard !filter.isEmpty else { return nil }
    let schema = model.schema
    var tests: [CompiledFilter.Test] = []
    // The order of a set is not stable: sort, so that equal filters test in equal order.
    for condition in filter.conditions.sorted(by: { "\($0)" < "\($1)" }) {
      guard let attribute = schema.attributeIndex(named: condition.attribute) else {
        throw .unknownAttribute(condition.attribute, available: schema.attributes)
      }
      let values = model.attributeValues[attribute]
      let admitted: [Bool]
      switch condition {
      case .oneOf(_, let wanted):
        admitted = values.map { wanted.contains($0) }
      case .present:
        admitted = values.map { !$0.isEmpty }
      case .number(_, let range):
        admitted = attributeNumbers.numbers(of: attribute, values: values).map {
          range.contains($0)
        }
      }
      tests.append(.init(attribute: attribute, admitted: admitted))
    }
    return CompiledFilter(tests: tests)
  }

  /// The items of a scope that `filter` admits, in model order.
  func members(ofScope scope: Int, admittedBy filter: CompiledFilter) -> [ItemID] {
    let members = scopeMembers[scope]
    let model = self.model
    return model.ids.filter {
      let item = Int($0.rawValue)
      return (members?.contains(item) ?? true) && filter.admits(item, model: model)
    }
  }

  /// The items of a scope that `filter` admits, as a set of identities; nil for every item
  /// (scope "All" without a filter).
  package func admittedItems(scope: Int, filter: CompiledFilter?) -> Bitset? {
    guard let filter else { return scopeMembers[scope] }
    var admitted = Bitset(capacity: model.identityLimit)
    for id in members(ofScope: scope, admittedBy: filter) { admitted.insert(Int(id.rawValue)) }
    return admitted
  }

  /// How many items each scope of the bar holds, by scope index.
  package func scopeSizes() -> [Int?] {
    scopeMembers.map { $0?.count ?? model.count }
  }

  /// How many of `items` (the results of a search in scope "All") each scope of the bar
  /// would show: the scope's members among them.
  ///
  /// A scope that restricts the fields searched is left out (nil), since its results are not a part
  /// of "All"'s, unless it is the `selected` one, whose results were counted: `selectedCount`.
  ///
  /// - Complexity: O(*n* + *s* · *w*) for *n* items, *s* scopes and *w* words of a bit set of
  ///   the model's identities.
  package func scopeCounts(of items: [ItemID], selected: Int, selectedCount: Int) -> [Int?] {
    let scopes = model.schema.scopeBar.scopes
    var found = Bitset(capacity: model.identityLimit)
    for id in items { found.insert(Int(id.rawValue)) }
    return scopes.indices.map { scope in
      if scope == selected { return selectedCount }
      if scopes[scope].fields != nil { return nil }
      guard let members = scopeMembers[scope] else { return items.count }
      return found.intersectionCount(with: members)
    }
  }
}
