import SearchCore
import SearchEngine

/// Reads a token's condition as the command line writes it, the form
/// ``/SearchEngine/AttributeFilter/Condition/description`` prints: `country=CH`, `country=CH|DE`,
/// `population>=1000000`, `population<=5000`, `population=1000..5000` (either bound may be
/// left out, not both), `elevation?`.
///
/// Numbers are decimals written out (`2.5`, `-7`, `1000000`): an exponent (`1e6`) is refused.
/// A value (`population=0100`) is compared exactly, in canonical form (it finds the items
/// whose value is 100), so it may have any number of digits. A bound (`>=`, `<=`, either side
/// of `..`) is compared as a 64-bit floating-point number, as the engine reads the data's
/// values: it may have at most ``maximumBoundDigits`` significant digits, which such a number
/// tells apart, and is refused with more rather than rounded. A value of the data with more
/// digits is compared rounded to the nearest such number. `NAME=A..B` is a range when the
/// attribute is a number attribute, or when both sides are numbers or empty and not both
/// empty; else it is a value that holds "..".
///
/// A text attribute's value that no item holds is read against the values the items hold
/// (``Attribute/values``), folded as the data's text is searched: `country=ch` takes `CH`
/// when the items hold `CH`, and ``Reading/notes`` says so; a value that folds as none of
/// them is refused with the nearest ones. Without the items' values (`--backend`: a server
/// holds the items), a value is taken as written.
enum ConditionSyntax {
  /// The most significant digits a bound may have: every decimal with at most 15 is a
  /// different 64-bit floating-point number, in the same order.
  static let maximumBoundDigits = 15
  /// The most near values a refused value lists.
  static let nearValueLimit = 5

  /// An attribute the condition may name, and what its values are.
  struct Attribute: Equatable, Sendable {
    var name: String
    /// Whether its values are numbers (an integer or decimal attribute of the manifest).
    var isNumber: Bool = false
    /// The values the items hold, for a text attribute; nil takes a value as written.
    var values: Values? = nil
  }

  /// The values of a text attribute, and how the data's text is folded.
  struct Values: Equatable, Sendable {
    /// The attribute's distinct values, as the model keeps them.
    var distinct: [String]
    /// The folding of the data set's text, which a written value is compared in.
    var normalizer: Normalizer
  }

  /// A condition read from text, and what was taken in place of what was written.
  struct Reading: Equatable, Sendable {
    var condition: AttributeFilter.Condition
    /// One line per written value that no item holds, naming the values taken for it.
    var notes: [String] = []
  }

  /// Parses `text` into a condition on one of `attributes`.
  ///
  /// - Throws: ``ConditionSyntaxError``, with the column (from 1) of the part that is wrong.
  static func parse(_ text: String, attributes: [Attribute]) throws(ConditionSyntaxError)
    -> AttributeFilter.Condition
  {
    try read(text, attributes: attributes).condition
  }

  /// Parses `text` into a condition on one of `attributes`, with notes on the values taken
  /// for written ones that no item holds.
  ///
  /// - Throws: ``ConditionSyntaxError``, with the column (from 1) of the part that is wrong.
  static func read(_ text: String, attributes: [Attribute]) throws(ConditionSyntaxError)
    -> Reading
  {
    let characters = Array(text)
    func error(_ message: String, at offset: Int, length: Int = 1) -> ConditionSyntaxError {
      ConditionSyntaxError(condition: text, column: offset + 1, length: length, message: message)
    }
    guard !text.allSatisfy({ $0 == " " || $0 == "\t" }) else {
      throw error(
        "a condition is missing; write one such as country=CH, country=CH|DE,"
          + " population>=1000000, population=1000..5000 or elevation?", at: 0)
    }
    let operators: Set<Character> = ["=", "<", ">", "?"]
    let nameEnd = characters.firstIndex { operators.contains($0) } ?? characters.count
    let nameStart = characters.prefix(nameEnd).firstIndex { $0 != " " } ?? 0
    let name = String(characters[nameStart..<nameEnd]).trimmingCharacters(in: " ")
    let names = attributes.map(\.name).joined(separator: ", ")
    let attributeList =
      attributes.isEmpty ? "there are no attributes" : "the attributes are \(names)"
    guard !name.isEmpty else {
      throw error(
        "an attribute's name is missing at column \(nameStart + 1); \(attributeList)", at: nameStart
      )
    }
    guard let attribute = attributes.first(where: { $0.name == name }) else {
      throw error(
        "no attribute \"\(name)\" at column \(nameStart + 1); \(attributeList)", at: nameStart,
        length: name.count)
    }
    guard nameEnd < characters.count else {
      throw error(
        "=, >=, <= or ? is missing after \"\(name)\" at column \(nameEnd + 1)", at: nameEnd)
    }
    var position = nameEnd
    let symbol = characters[position]
    position += 1
    if symbol == "<" || symbol == ">" {
      guard position < characters.count, characters[position] == "=" else {
        throw error(
          "\(symbol) at column \(nameEnd + 1) needs = after it: bounds are included, write"
            + " \(name)\(symbol)=NUMBER", at: nameEnd)
      }
      position += 1
    }
    let rest = String(characters[position...])
    /// The canonical form of the number in `piece`, which starts at `offset`.
    func number(_ piece: String, at offset: Int) throws(ConditionSyntaxError) -> String {
      let trimmed = piece.trimmingCharacters(in: " ")
      let start = offset + piece.prefix { $0 == " " }.count
      if let canonical = DecimalText.canonical(trimmed) { return canonical }
      throw error(
        hasExponent(trimmed)
          ? "\"\(trimmed)\" at column \(start + 1) has an exponent, which is not accepted;"
            + " write the number out, such as 1000000 or 0.001"
          : "\"\(trimmed)\" at column \(start + 1) is not a number; write a decimal such as"
            + " 1000 or 2.5", at: start, length: max(1, trimmed.count))
    }
    /// The number in `piece`, which starts at `offset`, as a bound is compared.
    func bound(_ piece: String, at offset: Int) throws(ConditionSyntaxError) -> Double {
      let canonical = try number(piece, at: offset)
      let trimmed = piece.trimmingCharacters(in: " ")
      let start = offset + piece.prefix { $0 == " " }.count
      let digits = significantDigits(canonical)
      guard digits <= maximumBoundDigits else {
        throw error(
          "\"\(trimmed)\" at column \(start + 1) has \(digits) significant digits; a bound is"
            + " compared as a 64-bit floating-point number, which holds \(maximumBoundDigits):"
            + " round it to \(maximumBoundDigits) or fewer, or write \(name)=\(trimmed) to find"
            + " the value exactly", at: start, length: max(1, trimmed.count))
      }
      guard let value = Double(canonical), value.isFinite,
        value == 0 ? canonical == "0" : value.magnitude >= Double.leastNormalMagnitude
      else {
        throw error(
          "\"\(trimmed)\" at column \(start + 1) is beyond a 64-bit floating-point number;"
            + " write 0 or a number whose size is between 1e-307 and 1e308, written out",
          at: start, length: max(1, trimmed.count))
      }
      return value
    }
    switch symbol {
    case "?":
      guard rest.allSatisfy({ $0 == " " }) else {
        throw error(
          "nothing may follow ? at column \(position + 1); \(name)? asks for items with a value",
          at: position, length: rest.count)
      }
      return Reading(condition: .present(attribute: name))
    case ">":
      return Reading(
        condition: .number(attribute: name, in: try bound(rest, at: position)...Double.infinity))
    case "<":
      return Reading(
        condition: .number(attribute: name, in: -Double.infinity...(try bound(rest, at: position))))
    default:
      break
    }
    // `=`: a range, or values separated by |.
    if let dots = rest.range(of: "..") {
      let low = String(rest[..<dots.lowerBound])
      let high = String(rest[dots.upperBound...])
      let highOffset = position + rest.distance(from: rest.startIndex, to: dots.upperBound)
      let isLowOpen = low.allSatisfy { $0 == " " }
      let isHighOpen = high.allSatisfy { $0 == " " }
      let isBound = { (side: String) in
        let trimmed = side.trimmingCharacters(in: " ")
        return trimmed.isEmpty || DecimalText.canonical(trimmed) != nil
      }
      if attribute.isNumber || (isBound(low) && isBound(high) && !(isLowOpen && isHighOpen)) {
        guard !isLowOpen || !isHighOpen else {
          throw error(
            "the range at column \(position + 1) has no bound; write one or both, such as"
              + " \(name)>=1000 or \(name)=1000..5000, or \(name)? for the items with a value",
            at: position, length: max(1, rest.count))
        }
        let lower = isLowOpen ? -Double.infinity : try bound(low, at: position)
        let upper = isHighOpen ? Double.infinity : try bound(high, at: highOffset)
        guard lower <= upper else {
          throw error(
            "the range at column \(position + 1) is empty: its lower bound is above its upper"
              + " bound; write the smaller number first", at: position, length: rest.count)
        }
        return Reading(condition: .number(attribute: name, in: lower...upper))
      }
    }
    var values: Set<String> = []
    var notes: [String] = []
    var offset = position
    for piece in rest.split(separator: "|", omittingEmptySubsequences: false) {
      let value = String(piece).trimmingCharacters(in: " ")
      guard !value.isEmpty else {
        throw error(
          "a value is missing at column \(offset + 1); write \(name)=VALUE or"
            + " \(name)=VALUE|VALUE", at: offset)
      }
      if attribute.isNumber {
        values.insert(try number(String(piece), at: offset))
      } else if let held = attribute.values, !held.distinct.isEmpty,
        !held.distinct.contains(value)
      {
        let start = offset + piece.prefix { $0 == " " }.count
        let (equal, near) = held.matches(of: value)
        guard !equal.isEmpty else {
          let nearList =
            near.isEmpty ? "it has no values" : "the nearest are " + near.joined(separator: ", ")
          throw error(
            "no item has \(name) \"\(value)\" at column \(start + 1); \(nearList)", at: start,
            length: value.count)
        }
        values.formUnion(equal)
        notes.append("no item has \(name) \"\(value)\": took \(equal.joined(separator: "|"))")
      } else {
        values.insert(value)
      }
      offset += piece.count + 1
    }
    return Reading(condition: .oneOf(attribute: name, values: values), notes: notes)
  }

  /// Whether `text` is a decimal with an exponent, such as "1e-400" or "2.5E6".
  private static func hasExponent(_ text: String) -> Bool {
    guard let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return false }
    let exponent = text[text.index(after: mark)...]
    return DecimalText.canonical(text[..<mark]) != nil && Int(exponent) != nil
  }

  /// The digits of a canonical decimal from its first nonzero one to its last ("1200" has 2,
  /// "0.050" has 1, "0" none).
  private static func significantDigits(_ canonical: String) -> Int {
    let digits = canonical.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ".") }
    guard let first = digits.firstIndex(where: { $0 != UInt8(ascii: "0") }),
      let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") })
    else { return 0 }
    return last - first + 1
  }
}

extension ConditionSyntax.Attribute {
  /// The attribute with the values `corpus`'s items hold, when it is a text attribute of the
  /// corpus's schema.
  func holdingValues(of corpus: SearchCorpus) -> Self {
    guard !isNumber, let index = corpus.model.schema.attributeIndex(named: name) else {
      return self
    }
    var attribute = self
    attribute.values = ConditionSyntax.Values(
      distinct: corpus.model.distinctValues(ofAttribute: index), normalizer: corpus.normalizer)
    return attribute
  }
}

extension ConditionSyntax.Values {
  /// The distinct values that fold as `value` does, sorted, and when there are none, the
  /// ``ConditionSyntax/nearValueLimit`` nearest by edit distance of the folded texts (ties:
  /// the longer shared start, then the value).
  ///
  /// Edit distances read the first ``compared`` characters only, so that a long value costs
  /// no more than a short one.
  ///
  /// - Complexity: O(*v* · *n*) for *v* distinct values of length about *n*.
  func matches(of value: String) -> (equal: [String], near: [String]) {
    let folder = try? normalizer.makeFolder()
    func fold(_ text: String) -> [Unicode.Scalar] {
      Array(((try? folder?.fold(text)) ?? text).unicodeScalars)
    }
    let wanted = fold(value)
    var equal: [String] = []
    var ranked: [(distance: Int, shared: Int, value: String)] = []
    for candidate in distinct where !candidate.isEmpty {
      let folded = fold(candidate)
      if folded == wanted {
        equal.append(candidate)
      } else if equal.isEmpty {
        let shared = zip(folded, wanted).prefix { $0 == $1 }.count
        let distance = Self.editDistance(
          Array(folded.prefix(Self.compared)), Array(wanted.prefix(Self.compared)))
        ranked.append((distance, shared, candidate))
      }
    }
    guard equal.isEmpty else { return (equal.sorted(), []) }
    ranked.sort { a, b in
      if a.distance != b.distance { return a.distance < b.distance }
      if a.shared != b.shared { return a.shared > b.shared }
      return a.value < b.value
    }
    return ([], ranked.prefix(ConditionSyntax.nearValueLimit).map(\.value))
  }

  /// How many characters of a value the edit distance reads.
  static let compared = 64

  /// The fewest insertions, deletions and substitutions that turn `a` into `b`.
  private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    var previous = Array(0...b.count)
    var current = previous
    for i in a.indices {
      current[0] = i + 1
      for j in b.indices {
        current[j + 1] = Swift.min(
          previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

/// A condition the command line could not read: where, and what to write instead.
struct ConditionSyntaxError: Error, Equatable, CustomStringConvertible {
  /// The condition as written.
  var condition: String
  /// Where the wrong part starts, in characters from 1.
  var column: Int
  /// How many characters the wrong part spans (at least 1).
  var length: Int
  /// What is wrong, and what to write.
  var message: String

  /// The message, then the condition with a caret under the wrong part.
  var description: String {
    let indent = String(repeating: " ", count: max(0, column - 1))
    let marks = String(repeating: "^", count: max(1, length))
    return "\(message)\n  \(condition)\n  \(indent)\(marks)"
  }
}

extension String {
  /// The text without the given character at either end.
  fileprivate func trimmingCharacters(in character: Character) -> String {
    let start = firstIndex { $0 != character } ?? endIndex
    let end = lastIndex { $0 != character }.map { index(after: $0) } ?? start
    return String(self[start..<Swift.max(start, end)])
  }
}
