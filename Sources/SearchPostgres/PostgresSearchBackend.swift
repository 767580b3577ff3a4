import Logging
import PostgresNIO
import SearchCore

/// The search of a data set on a PostgreSQL server, with the in-memory engine's answers,
/// query for query.
///
/// Each term of a query becomes a parameterised `LIKE` on the folded columns (`~` for a fuzzy
/// term, within one value), `!term` a `NOT`, `|` an `OR`, a number term an equality on the
/// number attributes, a scope a condition on its attribute; every value is a bind parameter,
/// so no query text reaches the SQL. What a substring test on the server cannot settle (a
/// match that could cut a folded character in two, white space that anchored terms skip) is
/// fetched and settled in Swift by the in-memory engine itself. Results come in model order,
/// whole (``items(matching:scope:)``, what a ``SearchController`` shows) or a page at a time
/// by keyset pagination (``page(matching:scope:after:limit:)``).
///
/// The backend owns a connection pool, which runs while ``run()`` does:
///
/// ```swift
/// let backend = try PostgresSearchBackend(
///   address: PostgresAddress(url: "postgres://127.0.0.1:5432/search"), table: "cities",
///   schema: corpus.model.schema, normalizer: corpus.normalizer)
/// async let pool: Void = backend.run()
/// try await backend.checkTable()
/// let controller = try SearchController(
///   corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
/// ```
public final class PostgresSearchBackend: SearchBackend {
  /// The server.
  public let address: PostgresAddress
  /// The table's name.
  public var table: String { layout.name }
  let layout: PostgresTableLayout
  let client: PostgresClient
  private let logger = Logger(label: "SearchPostgres")

  /// Prepares a backend; nothing is sent to the server until ``run()`` runs.
  ///
  /// - Parameters:
  ///   - table: The data set's table (letters, digits and underscores).
  ///   - schema: The data set's schema, as the model has it.
  ///   - normalizer: The corpus's normaliser: rows are folded with it when loaded, queries
  ///     are folded with it when searched.
  ///   - statementTimeout: The server stops a request after this long (nil: never).
  ///   - connectTimeout: How long to wait for a connection.
  public init(
    address: PostgresAddress, table: String, schema: Schema, normalizer: Normalizer,
    statementTimeout: Duration? = .seconds(10), connectTimeout: Duration = .seconds(3)
  ) throws(PostgresSearchError) {
    self.address = address
    layout = try PostgresTableLayout(name: table, schema: schema, normalizer: normalizer)
    client = PostgresClient(
      configuration: address.clientConfiguration(
        statementTimeout: statementTimeout, connectTimeout: connectTimeout))
  }

  /// Runs the connection pool until the task is cancelled; requests wait for it.
  public func run() async { await client.run() }

  // MARK: The table

  /// Checks that the server has the table, laid out and folded as this backend reads it.
  ///
  /// - Throws: ``PostgresSearchError/backend(_:)``: unreachable, or a mismatch saying how to
  ///   load the data set again.
  public func checkTable() async throws(PostgresSearchError) {
    let found: String?
    do {
      let rows = try await client.query(
        "SELECT fingerprint FROM search_data_sets WHERE name = \(layout.name)", logger: logger)
      var value: String?
      for try await fingerprint in rows.decode(String.self) { value = fingerprint }
      found = value
    } catch {
      let error = SearchBackendError.postgres(error, address: address, table: PostgresTableLayout.registry)
      if error.kind == .rejected {
        throw .backend(Self.notLoaded(layout.name, address: address))
      }
      throw .backend(error)
    }
    guard let found else { throw .backend(Self.notLoaded(layout.name, address: address)) }
    guard found == layout.fingerprint else {
      throw .backend(
        SearchBackendError(
          .mismatch,
          "table \"\(layout.name)\" at \(address) was loaded as \(found), but this list is \(layout.fingerprint)",
          advice: "load it again from the same data set: SearchREPL load MANIFEST --into \(address)"))
    }
  }

  private static func notLoaded(_ table: String, address: PostgresAddress) -> SearchBackendError {
    SearchBackendError(
      .rejected, "PostgreSQL at \(address) has no data set \"\(table)\"",
      advice: "load it first: SearchREPL load MANIFEST --into \(address)")
  }

  // MARK: Searching

  /// The items of the scope matching the query, in model order.
  public func items(matching query: Query, scope: Int) async throws -> [ItemID] {
    try await rows(matching: query, scope: scope, after: nil, limit: nil).rows.map(\.id)
  }

  /// One page of the items matching a query, in model order, from after `cursor` (the
  /// start when nil): keyset pagination, so a page costs its own rows however deep it is.
  public func page(
    matching query: Query, scope: Int, after cursor: PostgresCursor?, limit: Int
  ) async throws -> PostgresPage {
    var rows: [PostgresPage.Row] = []
    var next = cursor
    // Settling drops candidates: ask again until the page is full or the list ends.
    repeat {
      let batch = try await self.rows(
        matching: query, scope: scope, after: next, limit: max(limit - rows.count, 1))
      rows += batch.rows
      next = batch.last
      if batch.exhausted {
        return PostgresPage(rows: rows, next: nil)
      }
    } while rows.count < limit
    return PostgresPage(rows: rows, next: next)
  }

  private struct Batch {
    var rows: [PostgresPage.Row]
    /// The cursor of the last row read (settled or not).
    var last: PostgresCursor?
    /// Whether no row comes after the batch.
    var exhausted: Bool
  }

  private func rows(matching query: Query, scope: Int, after cursor: PostgresCursor?, limit: Int?)
    async throws -> Batch
  {
    let plan: ServerQuery
    do { plan = try ServerQuery(query, scope: scope, schema: layout.schema) } catch {
      throw SearchBackendError(.rejected, error.description, advice: "correct the data set's scopes")
    }
    var sql = PostgresSQL()
    let edges = sql.bind(plan.edgeScalars)
    let settle = "(irregular OR edges && \(edges))"
    let condition = "(\(sql.render(plan.scope))) AND (\(settle) OR \(sql.render(plan.query)))"
    let keyset = cursor.map { " AND ord > \(sql.bind($0.ord))::numeric" } ?? ""
    let wantsValues = limit != nil
    let values =
      wantsValues
      ? ", " + (layout.schema.fields.indices.map { "v\($0)" } + layout.schema.attributes.indices.map { "a\($0)" })
        .joined(separator: ", ") : ""
    let limitClause = limit.map { " LIMIT \($0 + 1)" } ?? ""
    let statement =
      "SELECT id, ord::text AS cursor, \(settle)\(values) FROM \(layout.quoted) WHERE \(condition)\(keyset) ORDER BY \(layout.quoted).ord\(limitClause)"
    var found: [(row: PostgresPage.Row, ord: String, settle: Bool)] = []
    var exhausted = true
    do {
      let result = try await client.query(sql.query(statement), logger: logger)
      for try await row in result {
        if let limit, found.count == limit {
          exhausted = false
          break
        }
        let cells = row.makeRandomAccess()
        let id = try cells[0].decode(Int32.self)
        let ord = try cells[1].decode(String.self)
        let needsSettling = try cells[2].decode(Bool.self)
        var record: ItemRecord?
        if wantsValues { record = try Self.record(cells, from: 3, schema: layout.schema) }
        found.append((PostgresPage.Row(id: ItemID(rawValue: id), record: record), ord, needsSettling))
      }
    } catch let error as CancellationError {
      throw error
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw SearchBackendError.postgres(error, address: address, table: layout.name)
    }
    let last = found.last.map { PostgresCursor(ord: $0.ord) }
    let unsettled = found.indices.filter { found[$0].settle }
    guard !unsettled.isEmpty else {
      return Batch(rows: found.map(\.row), last: last, exhausted: exhausted)
    }
    // Fold the candidates again and let the in-memory engine decide.
    var records: [Int: ItemRecord] = [:]
    let missing = unsettled.filter { found[$0].row.record == nil }.map { found[$0].row.id }
    if !missing.isEmpty {
      for (id, record) in try await self.records(of: missing) { records[Int(id.rawValue)] = record }
    }
    let candidates = unsettled.compactMap { index in
      found[index].row.record ?? records[Int(found[index].row.id.rawValue)]
    }
    guard candidates.count == unsettled.count else {
      throw SearchBackendError(
        .connectionLost, "items changed on the server during the search",
        advice: "the next keystroke tries again")
    }
    let admitted: [Int]
    do {
      admitted = try ServerCandidates.matching(
        candidates, schema: layout.schema, normalizer: layout.normalizer, query: query,
        scope: scope)
    } catch {
      throw SearchBackendError(.rejected, error.description, advice: "correct the data set")
    }
    var dropped = Set(unsettled)
    for index in admitted { dropped.remove(unsettled[index]) }
    let rows = found.indices.filter { !dropped.contains($0) }.map { found[$0].row }
    return Batch(rows: rows, last: last, exhausted: exhausted)
  }

  /// The records of some items, by identity.
  func records(of ids: [ItemID]) async throws -> [(ItemID, ItemRecord)] {
    var sql = PostgresSQL()
    let list = sql.bind(ids.map(\.rawValue))
    let columns = (layout.schema.fields.indices.map { "v\($0)" } + layout.schema.attributes.indices.map { "a\($0)" })
    let statement = "SELECT id, \(columns.joined(separator: ", ")) FROM \(layout.quoted) WHERE id = ANY(\(list))"
    var result: [(ItemID, ItemRecord)] = []
    do {
      for try await row in try await client.query(sql.query(statement), logger: logger) {
        let cells = row.makeRandomAccess()
        result.append(
          (ItemID(rawValue: try cells[0].decode(Int32.self)), try Self.record(cells, from: 1, schema: layout.schema)))
      }
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw SearchBackendError.postgres(error, address: address, table: layout.name)
    }
    return result
  }

  private static func record(_ cells: PostgresRandomAccessRow, from start: Int, schema: Schema) throws
    -> ItemRecord
  {
    var fields: [[String]] = []
    for field in schema.fields.indices { fields.append(try cells[start + field].decode([String].self)) }
    var attributes: [String] = []
    for attribute in schema.attributes.indices {
      attributes.append(try cells[start + schema.fields.count + attribute].decode(String.self))
    }
    return ItemRecord(fields: fields, attributes: attributes)
  }

  // MARK: Changes

  /// Makes a batch of changes in one transaction: all of them, or none.
  public func apply(_ changes: [BackendChange]) async throws {
    guard !changes.isEmpty else { return }
    let folder: ServerRowFolder
    do { folder = try ServerRowFolder(schema: layout.schema, normalizer: layout.normalizer) } catch {
      throw SearchBackendError(.rejected, error.description, advice: "correct the data set's schema")
    }
    let layout = self.layout
    do {
      try await client.withTransaction(logger: logger) { connection in
        for change in changes {
          var sql = PostgresSQL()
          let statement: String
          switch change {
          case .remove(let id):
            statement = "DELETE FROM \(layout.quoted) WHERE id = \(sql.bind(id.rawValue))"
          case .update(let id, let record):
            let row = try folder.row(record)
            let assignments = try Self.assignments(record, row: row, layout: layout, sql: &sql)
            statement =
              "UPDATE \(layout.quoted) SET \(assignments.map { "\($0.column) = \($0.value)" }.joined(separator: ", ")) WHERE id = \(sql.bind(id.rawValue))"
          case .insert(let id, let record, let after):
            let row = try folder.row(record)
            let assignments = try Self.assignments(record, row: row, layout: layout, sql: &sql)
            let ord: String
            if let after {
              let previous = sql.bind(after.rawValue)
              ord = """
                (SELECT p.ord + (coalesce((SELECT min(n.ord) FROM \(layout.quoted) n WHERE n.ord > p.ord), p.ord + 2) - p.ord) * 0.5 \
                FROM \(layout.quoted) p WHERE p.id = \(previous))
                """
            } else {
              ord = "(SELECT coalesce(min(ord), 1) - 1 FROM \(layout.quoted))"
            }
            statement = """
              INSERT INTO \(layout.quoted) (id, ord, \(assignments.map(\.column).joined(separator: ", "))) \
              VALUES (\(sql.bind(id.rawValue)), \(ord), \(assignments.map(\.value).joined(separator: ", ")))
              """
          }
          let result = try await connection.query(sql.query(statement), logger: self.logger)
          for try await _ in result {}
        }
        var sql = PostgresSQL()
        let name = sql.bind(layout.name)
        let update = "UPDATE search_data_sets SET items = (SELECT count(*) FROM \(layout.quoted)) WHERE name = \(name)"
        for try await _ in try await connection.query(sql.query(update), logger: self.logger) {}
      }
    } catch let error as PostgresTransactionError {
      throw SearchBackendError.postgres(
        error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error,
        address: address, table: layout.name)
    } catch {
      throw SearchBackendError.postgres(error, address: address, table: layout.name)
    }
  }

  private static func assignments(
    _ record: ItemRecord, row: ServerRow, layout: PostgresTableLayout, sql: inout PostgresSQL
  ) throws -> [(column: String, value: String)] {
    var result: [(String, String)] = [
      ("irregular", sql.bind(row.isIrregular)), ("edges", sql.bind(row.edgeScalars)),
    ]
    for field in layout.searchedFields { result.append(("f\(field)", sql.bind(row.folded[field] ?? ""))) }
    for field in layout.schema.fields.indices {
      let values = field < record.fields.count ? record.fields[field] : []
      if values.contains(where: { $0.utf8.contains(0) }) {
        throw PostgresSearchError.unstorableText(item: -1, field: layout.schema.fields[field].name)
      }
      result.append(("v\(field)", sql.bind(values)))
    }
    for attribute in layout.schema.attributes.indices {
      result.append(("a\(attribute)", sql.bind(attribute < record.attributes.count ? record.attributes[attribute] : "")))
    }
    for (index, number) in row.numbers.enumerated() { result.append(("n\(index)", sql.bind(number))) }
    return result
  }
}

/// Where a page of results ends: the next page starts after it.
public struct PostgresCursor: Hashable, Sendable {
  /// The model-order key of the last row read.
  let ord: String
}

/// One page of results.
public struct PostgresPage: Sendable {
  /// A result: the item's identity and its values as the server holds them.
  public struct Row: Sendable {
    /// The item.
    public var id: ItemID
    /// Its fields and attributes.
    public var record: ItemRecord?
  }

  /// The page's rows, in model order.
  public var rows: [Row]
  /// Where the next page starts; nil after the last page.
  public var next: PostgresCursor?
}
