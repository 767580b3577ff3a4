import SearchCore

/// Reads a token's condition as the command line writes it, the form
/// ``/SearchEngine/AttributeCondition/description`` prints: `country=CH`, `country=CH|DE`,
/// `population>=1000000`, `population<=5000`, `population=1000..5000` (either bound may be
/// left out), `elevation?`.
///
/// Numbers are decimals (`2.5`, `-7`, no exponent). `NAME=A..B` is a range when both sides
/// are numbers or empty, else a value that holds "..". A value of a number attribute is
/// written in its canonical form (`=0100` finds the items whose value is 100).
enum ConditionSyntax {
  /// An attribute the condition may name, and what its values are.
  struct Attribute: Equatable, Sendable {
    var name: String
    /// Whether its values are numbers (an integer or decimal attribute of the manifest).
    var isNumber: Bool = false
  }

  /// Parses `text` into a condition on one of `attributes`.
  ///
  /// - Throws: ``ConditionSyntaxError``, with the column (from 1) of the part that is wrong.
  static func parse(_ text: String, attributes: [Attribute]) throws(ConditionSyntaxError)
    -> AttributeCondition
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
    func number(_ piece: String, at offset: Int) throws(ConditionSyntaxError) -> Double {
      let trimmed = piece.trimmingCharacters(in: " ")
      guard let canonical = DecimalText.canonical(trimmed), let value = Double(canonical) else {
        throw error(
          "\"\(trimmed)\" at column \(offset + 1) is not a number; write a decimal such as 1000"
            + " or 2.5", at: offset, length: max(1, piece.count))
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
      return .present(attribute: name)
    case ">":
      return .number(attribute: name, in: try number(rest, at: position)...Double.infinity)
    case "<":
      return .number(attribute: name, in: -Double.infinity...(try number(rest, at: position)))
    default:
      break
    }
    // `=`: a range, or values separated by |.
    if let dots = rest.range(of: "..") {
      let low = String(rest[..<dots.lowerBound])
      let high = String(rest[dots.upperBound...])
      let highOffset = position + rest.distance(from: rest.startIndex, to: dots.upperBound)
      let isBound = { (side: String) in
        let trimmed = side.trimmingCharacters(in: " ")
        return trimmed.isEmpty || DecimalText.canonical(trimmed) != nil
      }
      if attribute.isNumber || (isBound(low) && isBound(high)) {
        let lower = low.allSatisfy { $0 == " " } ? -Double.infinity : try number(low, at: position)
        let upper =
          high.allSatisfy { $0 == " " } ? Double.infinity : try number(high, at: highOffset)
        guard lower <= upper else {
          throw error(
            "the range at column \(position + 1) is empty: its lower bound is above its upper"
              + " bound; write the smaller number first", at: position, length: rest.count)
        }
        return .number(attribute: name, in: lower...upper)
      }
    }
    var values: Set<String> = []
    var offset = position
    for piece in rest.split(separator: "|", omittingEmptySubsequences: false) {
      let value = String(piece).trimmingCharacters(in: " ")
      guard !value.isEmpty else {
        throw error(
          "a value is missing at column \(offset + 1); write \(name)=VALUE or"
            + " \(name)=VALUE|VALUE", at: offset)
      }
      if attribute.isNumber {
        _ = try number(String(piece), at: offset)
        values.insert(DecimalText.canonical(value) ?? value)
      } else {
        values.insert(value)
      }
      offset += piece.count + 1
    }
    return .oneOf(attribute: name, values: values)
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
