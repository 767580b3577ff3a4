#if PostgreSQL
  import PostgresNIO

  import SearchEngine
  /// A statement under construction: values go into bind parameters (`$1`, `$2`, …), never into
  /// the SQL text, so no search text or item value can change what a statement does.
  struct PostgresSQL {
    private var bindings = PostgresBindings()
    private var count = 0

    /// Adds a value as the next parameter and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
      bindings.append(value)
      count += 1
      return "$\(count)"
    }

    /// Adds an optional value (NULL when nil) as the next parameter.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
      bindings.append(value)
      count += 1
      return "$\(count)"
    }

    /// The statement with its parameters.
    func query(_ statement: String) -> PostgresQuery {
      PostgresQuery(unsafeSQL: statement, binds: bindings)
    }

    /// A server condition as SQL, its texts bound.
    mutating func render(_ condition: ServerQuery.Condition) -> String {
      switch condition {
      case .always: return "TRUE"
      case .never: return "FALSE"
      case .contains(let field, let text):
        return "f\(field) LIKE \(bind("%" + Self.escapeLike(text) + "%"))"
      case .containsInOrder(let field, let texts) where texts.count > Self.longestFuzzyRegex:
        // A regular expression of so many parts is "too complex" for PostgreSQL: the same
        // test as LIKE on each value (a "%" between characters stays within the value).
        let pattern = bind("%" + texts.map(Self.escapeLike).joined(separator: "%") + "%")
        let separator = ServerText.separator.value
        return """
          (f\(field) LIKE \(pattern) AND EXISTS (SELECT FROM unnest(string_to_array(f\(field), \
          chr(\(separator)))) AS value WHERE value LIKE \(pattern)))
          """
      case .containsInOrder(let field, let texts):
        let gap = "[^" + String(Character(ServerText.separator)) + "]*"
        return "f\(field) ~ \(bind(texts.map(Self.escapeRegex).joined(separator: gap)))"
      case .number(let index, let number):
        return "(n\(index) = \(bind(number))) IS TRUE"
      case .attribute(let attribute, let values):
        return "a\(attribute) = ANY(\(bind(values)))"
      case .all(let conditions):
        return conditions.isEmpty
          ? "TRUE" : "(" + conditions.map { render($0) }.joined(separator: " AND ") + ")"
      case .any(let conditions):
        return conditions.isEmpty
          ? "FALSE" : "(" + conditions.map { render($0) }.joined(separator: " OR ") + ")"
      case .not(let condition):
        return "NOT (\(render(condition)))"
      }
    }

    /// The most characters of a fuzzy term sent as a regular expression (which the trigram
    /// index serves); a longer one is tested with LIKE on each value.
    static let longestFuzzyRegex = 64

    /// Text for a `LIKE` pattern that matches it literally (`\` is the escape character).
    static func escapeLike(_ text: String) -> String {
      var result = ""
      for character in text.unicodeScalars {
        if character == "%" || character == "_" || character == "\\" {
          result.unicodeScalars.append("\\")
        }
        result.unicodeScalars.append(character)
      }
      return result
    }

    /// Text for an advanced regular expression that matches it literally.
    static func escapeRegex(_ text: String) -> String {
      var result = ""
      for scalar in text.unicodeScalars {
        if scalar.isASCII && !scalar.properties.isAlphabetic && !("0"..."9").contains(scalar) {
          result.unicodeScalars.append("\\")
        }
        result.unicodeScalars.append(scalar)
      }
      return result
    }
  }
#endif
