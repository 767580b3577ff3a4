import SearchCore
import SearchEngine
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

  private func parse(_ text: String) -> Result<AttributeFilter.Condition, ConditionSyntaxError> {
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
    let conditions: [AttributeFilter.Condition] = [
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

extension ConditionSyntaxTests {
  /// `population=..` restricts nothing: it is refused, with what to write instead.
  ///
  /// On a text attribute, ".." is a value.
  @Test func aRangeWithoutBoundsIsRefused() {
    #expect(
      parse("population=..").failure?.description == """
        the range at column 12 has no bound; write one or both, such as population>=1000 or \
        population=1000..5000, or population? for the items with a value
          population=..
                     ^^
        """)
    #expect(parse("population= .. ").failure?.column == 12)
    #expect(parse("country=..") == .success(.equals(attribute: "country", value: "..")))
  }

  /// A number reads the same in every form: an exponent is refused with one message, a bound
  /// with more significant digits than a 64-bit float tells apart is refused (not rounded),
  /// and a value is compared exactly whatever its length.
  @Test func numbersReadAlikeInEveryForm() {
    for text in ["population>=1e-400", "population<=1e-400", "population=1..1e-400"] {
      let message = parse(text).failure?.message ?? ""
      #expect(message.contains("\"1e-400\""), "\(text): \(message)")
      #expect(message.contains("exponent, which is not accepted"), "\(text): \(message)")
    }
    #expect(parse("population=1E6").failure?.message.contains("exponent") == true)
    #expect(parse("population>=1e-400").failure?.column == 13)
    let fifty = "1" + String(repeating: "2", count: 48) + "3"
    for text in ["population>=\(fifty)", "population<=\(fifty)", "population=1..\(fifty)"] {
      let message = parse(text).failure?.message ?? ""
      #expect(
        message.contains("has 50 significant digits") && message.contains("holds 15"),
        "\(text): \(message)")
    }
    // 16 digits are refused; 15, and trailing zeros past them, are exact.
    #expect(parse("population>=1234567890123456").failure != nil)
    #expect(
      parse("population>=123456789012345000")
        == .success(.number(attribute: "population", in: 1.234_567_890_123_45e17...Double.infinity))
    )
    #expect(
      parse("elevation=-0.00000000000000012345..1")
        == .success(.number(attribute: "elevation", in: -0.000_000_000_000_000_123_45...1)))
    // A bound a 64-bit float cannot hold.
    let tiny = "0." + String(repeating: "0", count: 400) + "1"
    #expect(parse("elevation>=\(tiny)").failure?.message.contains("beyond") == true)
    // A value is compared exactly, as text in canonical form.
    #expect(
      parse("population=0\(fifty)") == .success(.equals(attribute: "population", value: fifty)))
  }

  /// With the items' values, a written value no item holds takes those that fold as it does,
  /// and says so; one that folds as none is refused with the nearest.
  ///
  /// Without them, a value is taken as written.
  @Test func textValuesFoldAsTheText() throws {
    let values = ConditionSyntax.Values(
      distinct: ["CH", "CN", "DE", "", "Zürich", "Europe"], normalizer: try Normalizer())
    let attributes = [
      ConditionSyntax.Attribute(name: "country", values: values),
      ConditionSyntax.Attribute(name: "city", values: values),
      ConditionSyntax.Attribute(name: "code"),
    ]
    func read(_ text: String) -> Result<ConditionSyntax.Reading, ConditionSyntaxError> {
      Result { () throws(ConditionSyntaxError) in
        try ConditionSyntax.read(text, attributes: attributes)
      }
    }
    #expect(
      read("country=ch")
        == .success(
          .init(
            condition: .equals(attribute: "country", value: "CH"),
            notes: [#"no item has country "ch": took CH"#])))
    #expect(
      read("country=DE|ch").success?.condition
        == .oneOf(attribute: "country", values: ["CH", "DE"]))
    #expect(
      read("country=DE").success == .init(condition: .equals(attribute: "country", value: "DE")))
    #expect(read("city=zurich").success?.condition == .equals(attribute: "city", value: "Zürich"))
    #expect(
      read("country=DE|cx").failure?.description == """
        no item has country "cx" at column 12; the nearest are CH, CN, DE, Zürich, Europe
          country=DE|cx
                     ^^
        """)
    #expect(read("code=ch").success?.condition == .equals(attribute: "code", value: "ch"))
  }
}

extension Result {
  fileprivate var success: Success? {
    if case .success(let value) = self { return value }
    return nil
  }

  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
