import SearchCore
import Testing

@testable import SearchREPL

/// Tokens' conditions as the command line writes them: `token add`, `token remove` and
/// live's Ctrl-T read them with ``ConditionSyntax``.
@Suite struct ConditionSyntaxTests {
  private let attributes = [
    ConditionSyntax.Attribute(name: "country"),
    ConditionSyntax.Attribute(name: "continent"),
    ConditionSyntax.Attribute(name: "population", isNumber: true),
    ConditionSyntax.Attribute(name: "elevation", isNumber: true),
  ]

  private func parse(_ text: String) -> Result<AttributeCondition, ConditionSyntaxError> {
    Result { () throws(ConditionSyntaxError) in
      try ConditionSyntax.parse(text, attributes: attributes)
    }
  }

  @Test func everyFormReadsAsItsCondition() {
    #expect(parse("country=CH") == .success(.equals(attribute: "country", value: "CH")))
    #expect(parse("country=CH|DE") == .success(.oneOf(attribute: "country", values: ["CH", "DE"])))
    #expect(
      parse("population>=1000000")
        == .success(.number(attribute: "population", in: 1_000_000...Double.infinity)))
    #expect(
      parse("population<=5000")
        == .success(.number(attribute: "population", in: -Double.infinity...5000)))
    #expect(
      parse("population=1000..5000") == .success(.number(attribute: "population", in: 1000...5000)))
    #expect(
      parse("elevation=-2.5..")
        == .success(.number(attribute: "elevation", in: -2.5...Double.infinity)))
    #expect(parse("elevation?") == .success(.present(attribute: "elevation")))
    // Spaces around the parts are not part of them.
    #expect(
      parse(" country = CH | DE ") == .success(.oneOf(attribute: "country", values: ["CH", "DE"])))
    // A number attribute's value is compared in canonical form, as the data set stores it.
    #expect(parse("population=0100") == .success(.equals(attribute: "population", value: "100")))
    // A text attribute's value may hold "..": it is a range only when both sides are numbers.
    #expect(parse("country=a..b") == .success(.equals(attribute: "country", value: "a..b")))
  }

  /// What a condition prints is what the command line reads back.
  @Test func descriptionsReadBackAsTheSameCondition() {
    let conditions: [AttributeCondition] = [
      .oneOf(attribute: "country", values: ["CH", "DE", "AT"]),
      .number(attribute: "population", in: 1_000_000...Double.infinity),
      .number(attribute: "population", in: -Double.infinity...5000),
      .number(attribute: "population", in: 1000...5000),
      .number(attribute: "elevation", in: -0.5...2.25),
      .present(attribute: "elevation"),
    ]
    for condition in conditions {
      #expect(parse(condition.description) == .success(condition), "\(condition)")
    }
  }

  /// Each error names the column and puts a caret under the wrong part.
  @Test func errorsPointAtTheWrongPart() {
    #expect(
      parse("contry=CH").failure?.description == """
        no attribute "contry" at column 1; the attributes are country, continent, population, \
        elevation
          contry=CH
          ^^^^^^
        """)
    #expect(
      parse("population>=abc").failure?.description == """
        "abc" at column 13 is not a number; write a decimal such as 1000 or 2.5
          population>=abc
                      ^^^
        """)
    #expect(
      parse("population>1").failure?.description == """
        > at column 11 needs = after it: bounds are included, write population>=NUMBER
          population>1
                    ^
        """)
    #expect(
      parse("country").failure?.description == """
        =, >=, <= or ? is missing after "country" at column 8
          country
                 ^
        """)
    #expect(
      parse("population=5000..1000").failure?.message
        == "the range at column 12 is empty: its lower bound is above its upper bound;"
        + " write the smaller number first")
    #expect(parse("country=CH||DE").failure?.column == 12)
    #expect(parse("population=1e6").failure?.column == 12)
    #expect(parse("elevation?x").failure?.column == 11)
    #expect(parse("=CH").failure?.column == 1)
    #expect(parse("  ").failure?.column == 1)
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
