/// A query as a search server reads it: a condition on the stored rows (``ServerRow``) that is
/// the in-memory engine's answer for every regular row, and the scalars whose presence at a
/// boundary inside a folded character makes a row a candidate to settle in Swift.
///
/// The condition is a tree a backend renders in its own language (SQL for PostgreSQL); the
/// texts in it are plain folded text, which the backend escapes or binds.
package struct ServerQuery: Hashable, Sendable {
  /// One test on a row.
  package indirect enum Condition: Hashable, Sendable {
    /// Always true.
    case always
    /// Always false.
    case never
    /// The stored text of field `field` contains `text` (which may begin or end with the
    /// separator, anchoring it).
    case contains(field: Int, text: String)
    /// One value of field `field` contains these texts in order.
    case containsInOrder(field: Int, texts: [String])
    /// Number attribute `number` (an index into the schema's number attributes) equals the
    /// canonical number.
    case number(Int, equals: String)
    /// Attribute `attribute` has one of the values.
    case attribute(Int, in: [String])
    case all([Condition])
    case any([Condition])
    case not(Condition)
  }

  /// Which items the scope admits, whatever the query: exact for every row.
  package var scope: Condition
  /// The query's condition, exact for regular rows.
  package var query: Condition
  /// A condition every match among the rows to settle that are not irregular meets: the
  /// query with its inverse terms left out (a substring test finds every match, and some
  /// that cut a character, which settling drops).
  package var relaxed: Condition
  /// Rows whose edge scalars include one of these must be settled in Swift.
  package var edgeScalars: [String]

  /// Reads `query` for the scope `scope` of `schema`.
  ///
  /// - Throws: ``SearchCorpus/Error/unknownName(_:_:scope:)`` when the scope names a field or
  ///   attribute the schema does not have; ``SearchCorpus/Error/backend(_:)`` for a query with typo
  ///   tolerance on (``SearchQuery/typos``), which a server does not match: it refuses rather than
  ///   answer otherwise than the in-memory engine.
  package init(_ query: SearchQuery, scope: Int, schema: SearchModel.Schema) throws(SearchCorpus
    .Error)
  {
    guard !query.typos.isOn else { throw .backend(.typosUnsupported) }
    let scopes = schema.scopeBar.scopes
    let definition = scopes.indices.contains(scope) ? scopes[scope] : ScopeBar.Scope(title: "All")
    var fields: [Int] = []
    if let names = definition.fields {
      for name in names {
        guard let field = schema.fieldIndex(named: name) else {
          throw .unknownName("field", name, scope: definition.title)
        }
        if schema.fields[field].isSearched { fields.append(field) }
      }
    } else {
      fields = schema.fields.indices.filter { schema.fields[$0].isSearched }
    }
    if let name = definition.attribute {
      guard let attribute = schema.attributeIndex(named: name) else {
        throw .unknownName("attribute", name, scope: definition.title)
      }
      self.scope = .attribute(attribute, in: definition.values.sorted())
    } else {
      self.scope = .always
    }
    let numbers = try schema.numberAttributeIndices()
    var edges = Set<String>()
    var sets: [Condition] = []
    var relaxedSets: [Condition] = []
    for set in query.sets {
      var terms: [Condition] = []
      var relaxedTerms: [Condition] = []
      for term in set.terms {
        let matcher = TermMatcher(term)
        let condition = Self.condition(matcher, fields: fields, numbers: numbers.count)
        terms.append(condition)
        relaxedTerms.append(matcher.isInverse ? .always : condition)
        for scalar in Self.edgeScalars(of: matcher) { edges.insert(scalar) }
      }
      sets.append(Self.any(terms))
      relaxedSets.append(relaxedTerms.contains(.always) ? .always : Self.any(relaxedTerms))
    }
    self.query = Self.all(sets)
    self.relaxed = Self.all(relaxedSets.filter { $0 != .always })
    self.edgeScalars = edges.sorted()
  }

  private static func condition(_ term: TermMatcher, fields: [Int], numbers: Int) -> Condition {
    let separator = UInt8(ServerText.separator.value)
    var alternatives: [Condition] = []
    // A term holding the separator (or a NUL) matches no regular row: only irregular values
    // can hold those bytes.
    if !term.needle.contains(separator) && !term.needle.contains(0) {
      let text = String(decoding: term.needle, as: UTF8.self)
      let mark = String(Character(ServerText.separator))
      for field in fields {
        switch term.kind {
        case .exact: alternatives.append(.contains(field: field, text: text))
        case .prefix: alternatives.append(.contains(field: field, text: mark + text))
        case .suffix: alternatives.append(.contains(field: field, text: text + mark))
        case .equal: alternatives.append(.contains(field: field, text: mark + text + mark))
        case .fuzzy:
          let texts = term.characters.map { String(decoding: $0, as: UTF8.self) }
          alternatives.append(.containsInOrder(field: field, texts: texts))
        }
      }
    }
    if let number = term.number {
      for index in 0..<numbers { alternatives.append(.number(index, equals: number)) }
    }
    let positive: Condition =
      alternatives.isEmpty ? .never : alternatives.count == 1 ? alternatives[0] : .any(alternatives)
    return term.isInverse ? .not(positive) : positive
  }

  private static func any(_ conditions: [Condition]) -> Condition {
    conditions.count == 1 ? conditions[0] : .any(conditions)
  }

  private static func all(_ conditions: [Condition]) -> Condition {
    conditions.isEmpty ? .always : conditions.count == 1 ? conditions[0] : .all(conditions)
  }

  /// The scalars a match of the term starts or ends with: where it could cut a character.
  private static func edgeScalars(of term: TermMatcher) -> [String] {
    let pieces = term.kind == .fuzzy ? term.characters : [term.needle]
    var result: [String] = []
    for piece in pieces {
      let scalars = String(decoding: piece, as: UTF8.self).unicodeScalars
      if let first = scalars.first { result.append(String(Character(first))) }
      if let last = scalars.last { result.append(String(Character(last))) }
    }
    return result
  }
}

/// Settles the rows a server could not: folds their values again and runs the query over them
/// with the in-memory engine.
package enum ServerCandidates {
  /// The indices of the records (items of `schema`, in model order) that are in scope
  /// `scope` and match `query`.
  package static func matching(
    _ records: [SearchModel.Record], schema: SearchModel.Schema, normalizer: Normalizer,
    query: SearchQuery,
    scope: Int
  ) throws(SearchCorpus.Error) -> [Int] {
    guard !records.isEmpty else { return [] }
    var model = SearchModel(schema: schema)
    for record in records {
      do { try model.append(record) } catch { throw .model(error) }
    }
    let corpus = try SearchCorpus(model: model, normalizer: normalizer, checksScopes: false)
    let result = IncrementalFilter.run(.fullScan, query: query, scope: scope, in: corpus)
    return result?.items.map { Int($0.rawValue) } ?? []
  }
}
