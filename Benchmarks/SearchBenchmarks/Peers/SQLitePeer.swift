import CSQLite
import SearchCommandLine
import SearchCore
import SearchEngine

/// The peer an app developer would reach for instead of SearchCore: SQLite's FTS5 with the
/// trigram tokenizer, in memory, over the same items, asked the same queries.
///
/// Each searched field is a column (a multi-valued field's values joined by a newline); the
/// attributes scopes filter by are columns of an ordinary table beside it, `scopes`, each with
/// an index, as an app would keep them (an FTS5 column cannot be indexed, and an UNINDEXED one
/// costs a content-row lookup per match). A query is read by SearchCore's parser
/// (the same terms, `!`, `|`, `^`, `$`, `'`) and written as SQL the way SQLite's documentation
/// recommends: a term of 3 or more characters is an FTS5 phrase (`MATCH`, through the trigram
/// index, case folded by the tokenizer); what the index cannot answer is a `LIKE` condition,
/// which SQLite tests row by row: terms of fewer than 3 characters, the anchors of `^` and `$`,
/// fuzzy terms. `LIKE` folds ASCII case only, and SQLite before 3.45 folds no diacritics, so
/// its answers differ from SearchCore's where those matter; the benchmark counts how often.
///
/// Without `remove_diacritics` (SQLite before 3.45, Debian 12's 3.40), the peer can be given
/// SearchCore's normalizer: it then stores every value folded by it and asks folded terms, so
/// that it is compared on matching and its answers are SearchCore's where the query language
/// allows (the folding itself, done once at insertion, is then not SQLite's cost).
final class SQLitePeer {
  /// The SQLite library's version, as `sqlite3_libversion` gives it.
  static var version: String { String(cString: sqlite3_libversion()) }

  /// Whether the tokenizer removes diacritics (`remove_diacritics 1`, SQLite 3.45 and later).
  let removesDiacritics: Bool
  /// The normalizer that folded the stored values and folds the queries' terms, when the
  /// tokenizer cannot remove diacritics and one was given.
  private let folding: Normalizer?
  /// Whether the values are stored folded by SearchCore's normalizer.
  var isFolded: Bool { folding != nil }
  private let database: OpaquePointer
  private let schema: SearchModel.Schema
  private let scopes: [ScopeBar.Scope]
  /// The column of each searched field, by field index.
  private let fieldColumns: [Int: String]
  /// The column of each attribute a scope filters by, by attribute index.
  private let attributeColumns: [Int: String]
  /// The prepared statement of each SQL text asked so far: a keystroke binds and steps one,
  /// as an app that prepares its statements once does.
  private var statements: [String: Statement] = [:]

  /// Creates the table and inserts every item of `model`, in one transaction; when the
  /// tokenizer has no `remove_diacritics` and `folding` is given, every value folded by it.
  init(model: SearchModel, scopes: [ScopeBar.Scope], folding: Normalizer? = nil) throws {
    var handle: OpaquePointer?
    guard
      sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        == SQLITE_OK, let handle
    else {
      sqlite3_close(handle)
      throw CommandError("SQLite \(Self.version) could not open an in-memory database")
    }
    let schema = model.schema
    let searched = schema.fields.indices.filter { schema.fields[$0].isSearched }
    let filtered = Set(scopes.compactMap(\.attribute)).compactMap { name in
      schema.attributes.firstIndex(of: name)
    }
    database = handle
    self.schema = schema
    self.scopes = scopes
    fieldColumns = Dictionary(uniqueKeysWithValues: searched.map { ($0, "f\($0)") })
    attributeColumns = Dictionary(uniqueKeysWithValues: filtered.map { ($0, "a\($0)") })

    let columns = searched.map { "f\($0)" }
    func create(_ tokenizer: String) -> Bool {
      let sql =
        "CREATE VIRTUAL TABLE items USING fts5(\(columns.joined(separator: ", ")), tokenize = '\(tokenizer)')"
      return sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK
    }
    if create("trigram case_sensitive 0 remove_diacritics 1") {
      removesDiacritics = true
      self.folding = nil
    } else if create("trigram case_sensitive 0") {
      removesDiacritics = false
      self.folding = folding
    } else {
      let message = String(cString: sqlite3_errmsg(handle))
      sqlite3_close(handle)
      throw CommandError(
        "SQLite \(Self.version) has no FTS5 trigram tokenizer (3.34 or later, built with FTS5): \(message)"
      )
    }

    let scopeColumns = filtered.sorted().map { "a\($0)" }
    try execute(
      "CREATE TABLE scopes(id INTEGER PRIMARY KEY"
        + scopeColumns.map { ", \($0) TEXT" }.joined() + ")")
    try execute("BEGIN")
    let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    let insert = try Statement(
      database,
      "INSERT INTO items(rowid, \(columns.joined(separator: ", "))) VALUES (?, \(placeholders))")
    let insertScopes = try Statement(
      database,
      "INSERT INTO scopes(id" + scopeColumns.map { ", \($0)" }.joined() + ") VALUES (?"
        + String(repeating: ", ?", count: scopeColumns.count) + ")")
    for position in 0..<model.count {
      let id = model.id(at: position)
      insert.reset()
      insert.bind(Int64(position), at: 1)
      var slot: Int32 = 2
      for field in searched {
        var values = model.values(of: id, field: field)
        if let folding = self.folding { values = try values.map { try folding.fold($0) } }
        insert.bind(values.joined(separator: "\n"), at: slot)
        slot += 1
      }
      guard insert.step() == SQLITE_DONE else { throw error("inserting item \(position + 1)") }
      insertScopes.reset()
      insertScopes.bind(Int64(position), at: 1)
      for (offset, attribute) in filtered.sorted().enumerated() {
        insertScopes.bind(model.attribute(attribute, of: id), at: Int32(offset + 2))
      }
      guard insertScopes.step() == SQLITE_DONE else {
        throw error("inserting the scopes of item \(position + 1)")
      }
    }
    for column in scopeColumns { try execute("CREATE INDEX scopes_\(column) ON scopes(\(column))") }
    try execute("COMMIT")
  }

  deinit {
    // The prepared statements go first: SQLite does not close a connection that has any, and
    // the dictionary would only be released after this body (the address sanitizer saw the
    // connection leak).
    statements.removeAll()
    sqlite3_close(database)
  }

  /// The positions in the model of the items matching `query` in scope `scope`, in rowid
  /// order, every row stepped through as an app showing them would.
  func search(_ query: SearchQuery, scope index: Int) throws -> [Int] {
    let sql = try SQLitePeerQuery(
      query, scope: scopes.indices.contains(index) ? scopes[index] : ScopeBar.Scope(title: "All"),
      schema: schema, fieldColumns: fieldColumns, attributeColumns: attributeColumns,
      fold: folding.map { folding in { try folding.fold($0) } })
    let statement = try statements[sql.text] ?? Statement(database, sql.text)
    statements[sql.text] = statement
    statement.reset()
    for (offset, value) in sql.bindings.enumerated() {
      statement.bind(value, at: Int32(offset + 1))
    }
    var positions: [Int] = []
    while true {
      switch statement.step() {
      case SQLITE_ROW: positions.append(Int(statement.integer(at: 0)))
      case SQLITE_DONE: return positions
      default: throw error("searching \"\(query.text)\"")
      }
    }
  }

  private func execute(_ sql: String) throws {
    guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
  }

  private func error(_ doing: String) -> CommandError {
    CommandError("SQLite \(Self.version), \(doing): \(String(cString: sqlite3_errmsg(database)))")
  }

  /// A prepared statement, finalized when it goes.
  private final class Statement {
    let handle: OpaquePointer

    init(_ database: OpaquePointer, _ sql: String) throws {
      var handle: OpaquePointer?
      guard sqlite3_prepare_v2(database, sql, -1, &handle, nil) == SQLITE_OK, let handle else {
        throw CommandError(
          "SQLite \(SQLitePeer.version) cannot prepare \(sql): \(String(cString: sqlite3_errmsg(database)))"
        )
      }
      self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    func reset() { sqlite3_reset(handle) }
    func step() -> Int32 { sqlite3_step(handle) }
    func integer(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func bind(_ value: Int64, at slot: Int32) { sqlite3_bind_int64(handle, slot, value) }
    func bind(_ value: String, at slot: Int32) {
      sqlite3_bind_text(handle, slot, value, -1, csqlite_transient())
    }
  }
}

/// A SearchCore query written as SQL over ``SQLitePeer``'s table: `text` with `?` for each of
/// `bindings`, in order.
struct SQLitePeerQuery {
  private(set) var text = ""
  private(set) var bindings: [String] = []

  /// The query's terms with an FTS5 phrase that finds every item containing them: a
  /// necessary condition the trigram index answers.
  static let indexedLength = 3

  init(
    _ query: SearchQuery, scope: ScopeBar.Scope, schema: SearchModel.Schema,
    fieldColumns: [Int: String],
    attributeColumns: [Int: String], fold: ((String) throws -> String)? = nil
  ) throws {
    let fields: [Int]
    if let names = scope.fields {
      fields = names.compactMap { schema.fieldIndex(named: $0) }.filter {
        fieldColumns[$0] != nil
      }
    } else {
      fields = fieldColumns.keys.sorted()
    }
    let columns = fields.compactMap { fieldColumns[$0] }
    // A column filter when the scope searches only some fields.
    let filter =
      columns.count == fieldColumns.count ? "" : "{\(columns.joined(separator: " "))}: "

    var conditions: [String] = []
    var bindings: [String] = []
    // A scope by attribute joins the table of scopes, where its column has an index.
    var joinsScopes = false
    if let name = scope.attribute {
      guard let attribute = schema.attributes.firstIndex(of: name),
        let column = attributeColumns[attribute]
      else { throw CommandError("scope \(scope.title): no attribute \(name)") }
      let values = scope.values.sorted()
      joinsScopes = true
      conditions.append(
        "scopes.\(column) IN (\(values.map { _ in "?" }.joined(separator: ", ")))")
      bindings += values
    }

    // The sets every one of whose terms the index answers alone go into one MATCH; the others
    // are SQL conditions, a term's phrase a subquery on the index where it has one.
    var matches: [String] = []
    for set in query.sets {
      let terms = try set.terms.map {
        Self.term($0, text: try fold?($0.text) ?? $0.text, columns: columns)
      }
      if terms.allSatisfy({ $0.phrase != nil && $0.like == nil && !$0.isInverse }) {
        let phrases = terms.compactMap(\.phrase)
        matches.append(
          phrases.count == 1 ? phrases[0] : "(" + phrases.joined(separator: " OR ") + ")")
        continue
      }
      var alternatives: [String] = []
      for term in terms {
        var parts: [String] = []
        if let phrase = term.phrase {
          if terms.count == 1 && !term.isInverse {
            // Alone in its set: the index finds the candidates, LIKE tests the anchor.
            matches.append(phrase)
          } else {
            parts.append("items.rowid IN (SELECT rowid FROM items WHERE items MATCH ?)")
            bindings.append(filter + phrase)
          }
        }
        if let like = term.like {
          parts.append(like.condition)
          bindings += like.patterns
        }
        let both = parts.isEmpty ? "1" : parts.joined(separator: " AND ")
        alternatives.append(term.isInverse ? "NOT (\(both))" : "(\(both))")
      }
      conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
    }
    // With a MATCH, the full-text index finds the rows and each is looked up in the scopes by
    // its key: CROSS JOIN keeps that order, as SQLite's query planner documentation advises
    // (left to itself, the planner walks the scope's rows and asks the index about each).
    // Without one, the planner may start from the scope's index.
    var sql = "SELECT items.rowid FROM items"
    if joinsScopes {
      sql += (matches.isEmpty ? " JOIN" : " CROSS JOIN") + " scopes ON scopes.id = items.rowid"
    }
    var all: [String] = []
    var allBindings: [String] = []
    if !matches.isEmpty {
      all.append("items MATCH ?")
      let expression = matches.joined(separator: " AND ")
      allBindings.append(filter.isEmpty ? expression : filter + "(" + expression + ")")
    }
    all += conditions
    allBindings += bindings
    if !all.isEmpty { sql += " WHERE " + all.joined(separator: " AND ") }
    text = sql
    self.bindings = allBindings
  }

  /// One term: the FTS5 phrase that every item containing it matches (nil when the index
  /// cannot answer it), and the LIKE condition that settles it (nil when the phrase does).
  private struct PeerTerm {
    var phrase: String?
    var like: (condition: String, patterns: [String])?
    var isInverse: Bool
  }

  /// `text` is the term's text as the table holds it: folded when the values are.
  private static func term(_ term: Term, text: String, columns: [String]) -> PeerTerm {
    let indexed = text.unicodeScalars.count >= indexedLength && term.kind != .fuzzy
    let phrase = indexed ? "\"" + text.replacingAll("\"", with: "\"\"") + "\"" : nil
    let escaped = likeEscaped(text)
    // A multi-valued field's values are joined by a newline: an anchor is at the column's
    // start or end, or at a newline.
    let patterns: [String]
    switch term.kind {
    case .exact:
      guard !indexed else { return PeerTerm(phrase: phrase, like: nil, isInverse: term.isInverse) }
      patterns = ["%" + escaped + "%"]
    case .prefix: patterns = [escaped + "%", "%\n" + escaped + "%"]
    case .suffix: patterns = ["%" + escaped, "%" + escaped + "\n%"]
    case .equal:
      patterns = [escaped, escaped + "\n%", "%\n" + escaped, "%\n" + escaped + "\n%"]
    case .fuzzy:
      patterns = ["%" + text.map { likeEscaped(String($0)) + "%" }.joined()]
    }
    var condition: [String] = []
    var bound: [String] = []
    for column in columns {
      for pattern in patterns {
        condition.append("\(column) LIKE ? ESCAPE '\\'")
        bound.append(pattern)
      }
    }
    let like = (
      condition: condition.isEmpty ? "0" : "(" + condition.joined(separator: " OR ") + ")",
      patterns: bound
    )
    return PeerTerm(phrase: phrase, like: like, isInverse: term.isInverse)
  }

  private static func likeEscaped(_ text: String) -> String {
    var result = ""
    for character in text {
      if character == "%" || character == "_" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result
  }
}

extension String {
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
