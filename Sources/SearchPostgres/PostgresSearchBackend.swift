#if PostgreSQL
  import Logging
  import PostgresNIO
  import SearchEngine
  import Synchronization

  /// The search of a data set on a PostgreSQL server, with the in-memory engine's answers,
  /// query for query.
  ///
  /// Each term of a query becomes a parameterised `LIKE` on the folded columns (`~` for a fuzzy
  /// term, within one value), `!term` a `NOT`, `|` an `OR`, a number term an equality on the
  /// number attributes, a scope a condition on its attribute; every value is a bind parameter,
  /// so no query text reaches the SQL. What a substring test on the server cannot settle (a
  /// match that could cut a folded character in two, white space that anchored terms skip) is
  /// fetched and settled in Swift by the in-memory engine itself. Results come in model order,
  /// whole (``items(matching:scope:)``, what a `SearchController` shows) or a page at a time
  /// by keyset pagination (``page(matching:scope:after:limit:)``).
  ///
  /// The backend keeps a few connections open between requests and opens one when none is
  /// idle, so that a request after a failure tries the server again at once (a keystroke
  /// after the server came back finds it); ``close()`` closes them. It opens at most
  /// `maximumConnections` to each server (an argument of the initialiser):
  /// a request that finds them all busy waits for one, first come first served, and so does
  /// one the server refuses for want of a free connection (other clients hold them), for up
  /// to the connect timeout.
  ///
  /// ```swift
  /// let backend = try PostgresSearchBackend(
  ///   address: PostgresAddress(url: "postgres://127.0.0.1:5432/search"), table: "cities",
  ///   schema: corpus.model.schema, normalizer: corpus.normalizer)
  /// try await backend.checkTable()
  /// let controller = try SearchController(
  ///   corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
  /// ```
  public final class PostgresSearchBackend: PagedSearchBackend {
    /// The server: loads and changes go here, and searches too unless there is a replica.
    public let address: PostgresAddress
    /// A streaming standby of ``address`` that answers the searches, if any.
    public let replica: PostgresAddress?
    /// The table's name.
    public var table: String { layout.name }
    let layout: PostgresTableLayout
    private let connections: Connections
    /// The replica's connections, when there is one.
    private let readConnections: Connections?
    /// Where the primary's write-ahead log stood after this backend's last change, until a
    /// search on the replica has seen it replayed: a client sees its own changes.
    private let lastWrite = Mutex<String?>(nil)
    /// How long a search waits for the replica to replay the client's last change.
    let replayWait: Duration
    /// How long a request waits for the server's answer on an open connection.
    private let requestTimeout: Duration
    let logger = Logger(label: "SearchPostgres")

    /// Prepares a backend; no connection is opened until the first request.
    ///
    /// - Parameters:
    ///   - address: The server and database.
    ///   - replica: A streaming standby of `address` (a copy made with `pg_basebackup -R`, say)
    ///     that answers the searches, so that they load it instead of the primary; loads and
    ///     changes still go to `address`. After a change of this backend, its next search
    ///     waits until the replica has replayed it (at most `replayWait`; then the search fails
    ///     as stale rather than answer without the change).
    ///   - table: The data set's table (letters, digits and underscores).
    ///   - schema: The data set's schema, as the model has it.
    ///   - normalizer: The corpus's normaliser: rows are folded with it when loaded, queries
    ///     are folded with it when searched.
    ///   - statementTimeout: The server stops a request after this long (nil: never).
    ///   - connectTimeout: How long to wait for a connection.
    ///   - requestTimeout: How long a request waits for the answer on an open connection
    ///     before it closes the connection and fails with a timeout: what ends a request to a
    ///     server that stopped answering (frozen, or cut off by the network), which cannot
    ///     enforce its own statement timeout. Longer than `statementTimeout`, so that a search
    ///     that is only slow is stopped by the server, which says so.
    ///   - maximumConnections: The most connections the backend opens to each server (the
    ///     primary, the replica): more requests at once wait their turn. A list needs two at
    ///     once (a page and its count); requests superseded by later keystrokes run to their
    ///     end on theirs. The server's `max_connections` must hold every client's: 8 each for
    ///     ten clients is 80 of the default 100. At least 1.
    ///   - replayWait: How long a search on the replica waits for it to replay this backend's
    ///     last change before it fails as stale: longer for a standby that lags behind. The
    ///     request timeout bounds the wait too.
    public init(
      address: PostgresAddress, replica: PostgresAddress? = nil, table: String,
      schema: SearchModel.Schema,
      normalizer: Normalizer, statementTimeout: Duration? = .seconds(10),
      connectTimeout: Duration = .seconds(3), requestTimeout: Duration = .seconds(15),
      maximumConnections: Int = 8, replayWait: Duration = .seconds(2)
    ) throws(PostgresSearchError) {
      self.address = address
      self.replayWait = replayWait
      self.replica = replica
      self.requestTimeout = requestTimeout
      layout = try PostgresTableLayout(name: table, schema: schema, normalizer: normalizer)
      let maximum = max(maximumConnections, 1)
      connections = Connections(
        configuration: try address.connectionConfiguration(
          statementTimeout: statementTimeout, connectTimeout: connectTimeout),
        maximum: maximum, serverWait: connectTimeout)
      readConnections = try replica.map { replica throws(PostgresSearchError) in
        Connections(
          configuration: try replica.connectionConfiguration(
            statementTimeout: statementTimeout, connectTimeout: connectTimeout),
          maximum: maximum, serverWait: connectTimeout)
      }
    }

    /// Where searches are read: the replica, or the server.
    var readAddress: PostgresAddress { replica ?? address }

    /// Closes the connections kept open; a later request opens new ones.
    public func close() async {
      await connections.closeAll()
      await readConnections?.closeAll()
    }

    /// Runs `body` on a connection: an idle one, or a new one.
    ///
    /// A request runs to its end even when the calling task is cancelled (the statement timeout
    /// bounds it), so the connection is never left halfway through a reply; the caller then gets
    /// `CancellationError`. A connection whose request failed is closed.
    ///
    /// Unless `timed` is false (a load, which may take minutes), a request that has no answer
    /// after the request timeout fails with a timeout, its connection closed.
    ///
    /// A `reading` request (a search) goes to the replica when there is one, after waiting
    /// for it to replay this backend's last change; the others go to the server.
    func withConnection<T: Sendable>(
      timed: Bool = true, reading: Bool = false,
      _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
      let connections = reading ? readConnections ?? self.connections : self.connections
      let address = reading ? readAddress : self.address
      let (logger, table) = (self.logger, layout.name)
      let deadline = timed ? requestTimeout : nil
      let replay = reading && replica != nil ? lastWrite.withLock { $0 } : nil
      let replayWait = replayWait
      // The connection is opened in the request's own task as well: a cancelled caller (a
      // superseded search) must not cancel a connect half-way, which postgres-nio may never
      // finish; the connect timeout bounds it instead.
      let request = Task {
        let connection: PostgresConnection
        do { connection = try await connections.lease(logger: logger) } catch {
          throw SearchBackendError.postgres(error, address: address, table: table)
        }
        do {
          let value = try await Self.answer(within: deadline, on: connection, address: address) {
            if let replay {
              try await Self.waitForReplay(
                of: replay, within: replayWait, on: connection, address: address,
                logger: logger)
            }
            return try await body(connection)
          }
          await connections.giveBack(connection)
          return value
        } catch {
          await connections.discard(connection)
          throw error
        }
      }
      let value = try await request.value
      // The replica has the change: later searches need not ask.
      if let replay { lastWrite.withLock { if $0 == replay { $0 = nil } } }
      if Task.isCancelled { throw CancellationError() }
      return value
    }

    /// Notes where the primary's log stands after a change on `connection`, for the replica's
    /// next search to wait for.
    func noteWrite(on connection: PostgresConnection) async throws {
      guard replica != nil else { return }
      var position: String?
      for try await value in try await connection.query(
        "SELECT pg_current_wal_lsn()::text", logger: logger
      ).decode(String.self) {
        position = value
      }
      lastWrite.withLock { $0 = position }
    }

    /// Waits until the server on `connection` has replayed the primary's log up to `position`
    /// (at once on a server that is not a standby), or fails as stale after `replayWait`.
    private static func waitForReplay(
      of position: String, within replayWait: Duration, on connection: PostgresConnection,
      address: PostgresAddress,
      logger: Logger
    ) async throws {
      let clock = ContinuousClock()
      let start = clock.now
      while true {
        var replayed: Bool?
        for try await value in try await connection.query(
          "SELECT pg_last_wal_replay_lsn() >= \(position)::pg_lsn", logger: logger
        ).decode(Bool?.self) {
          replayed = value
        }
        // NULL: the server is not in recovery (not a standby), so it has every change.
        if replayed ?? true { return }
        if clock.now - start > replayWait {
          throw SearchBackendError(
            .timeout,
            "the replica at \(address) has not replayed this client's last change (written at \(position)) after \(replayWait)",
            advice:
              "its results would be stale: the next keystroke tries again; check the replication")
        }
        try await Task.sleep(for: .milliseconds(5))
      }
    }

    /// `body`'s answer, or, when it has not come after `deadline`, a timeout error, the
    /// connection closed (which ends the request waiting on it).
    private static func answer<T: Sendable>(
      within deadline: Duration?, on connection: PostgresConnection, address: PostgresAddress,
      _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
      guard let deadline else { return try await body() }
      return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
          try await Task.sleep(for: deadline)
          return nil
        }
        // The first to finish: the answer (`.some`, even of an optional), or the deadline.
        if case .some(let value) = try await group.next(), let value {
          group.cancelAll()
          return value
        }
        try? await connection.close()
        group.cancelAll()
        throw SearchBackendError(
          .timeout, "PostgreSQL at \(address) did not answer within \(deadline)",
          advice:
            "the next keystroke tries again on a new connection; check the server and the network")
      }
    }

    // MARK: The table

    /// Checks that the server has the table, laid out and folded as this backend reads it.
    ///
    /// - Throws: ``PostgresSearchError/backend(_:)``: unreachable, or a mismatch saying how to
    ///   load the data set again.
    public func checkTable() async throws(PostgresSearchError) {
      let found: String?
      do {
        let name = layout.name
        let logger = self.logger
        found = try await withConnection(reading: true) { connection in
          let rows = try await connection.query(
            "SELECT fingerprint FROM search_data_sets WHERE name = \(name)", logger: logger)
          var value: String?
          for try await fingerprint in rows.decode(String.self) { value = fingerprint }
          return value
        }
      } catch {
        // No registry at all: nothing was ever loaded into this database. Any other refusal
        // (no connection free, TLS, a login) says what it is.
        if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "42P01" {
          throw .backend(Self.notLoaded(layout.name, at: readAddress, loadInto: address))
        }
        throw .backend(
          SearchBackendError.postgres(
            error, address: readAddress, table: PostgresTableLayout.registry))
      }
      do { try verify(fingerprint: found) } catch { throw .backend(error) }
    }

    /// Checks the fingerprint the server's registry holds for the table, as read by a search
    /// (`nil`: no row): the table may have been loaded again, with other folding, since the
    /// backend last looked.
    ///
    /// The error names the server that answered (the replica, if any) and says to load the primary.
    func verify(fingerprint found: String?) throws(SearchBackendError) {
      guard let found else {
        throw Self.notLoaded(layout.name, at: readAddress, loadInto: address)
      }
      guard found == layout.fingerprint else {
        throw SearchBackendError(
          .mismatch,
          "table \"\(layout.name)\" at \(readAddress) was loaded as \(found), but this list is \(layout.fingerprint)",
          advice:
            "load it again from the same data set: SearchREPL load MANIFEST --into \(address)")
      }
    }

    /// The registry's fingerprint of the table, as a column any search statement reads along
    /// with its answer, in the same snapshot: a load that changed the folding since the last
    /// request is seen by the next one, which then fails instead of answering.
    func fingerprintColumn(_ sql: inout PostgresSQL) -> String {
      "(SELECT fingerprint FROM \(PostgresTableLayout.registry) WHERE name = \(sql.bind(layout.name)))"
    }

    private static func notLoaded(
      _ table: String, at server: PostgresAddress, loadInto address: PostgresAddress
    ) -> SearchBackendError {
      SearchBackendError(
        .rejected, "PostgreSQL at \(server) has no data set \"\(table)\"",
        advice: "load it first: SearchREPL load MANIFEST --into \(address)")
    }

    // MARK: Searching

    /// The items of the scope matching the query, in model order.
    ///
    /// One round trip: the server sends the matching identities as one array (and those to
    /// settle as a second), which costs far less than a row each.
    public func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID] {
      var sql = PostgresSQL()
      let (condition, settle) = try self.condition(query, scope: scope, sql: &sql)
      let fingerprint = fingerprintColumn(&sql)
      let statement = """
        SELECT \(fingerprint), coalesce(array_agg(id ORDER BY ord), '{}'), \
        coalesce(array_agg(id ORDER BY ord) FILTER (WHERE \(settle)), '{}') \
        FROM \(layout.quoted) WHERE \(condition)
        """
      var ids: [Int32] = []
      var unsettled: [Int32] = []
      let found: String?
      do {
        let query = sql.query(statement)
        let logger = self.logger
        (found, ids, unsettled) = try await withConnection(reading: true) { connection in
          var result: (String?, [Int32], [Int32]) = (nil, [], [])
          for try await row in try await connection.query(query, logger: logger).decode(
            (String?, [Int32], [Int32]).self)
          {
            result = row
          }
          return result
        }
      } catch {
        throw Self.translate(error, address: readAddress, table: layout.name)
      }
      try verify(fingerprint: found)
      guard !unsettled.isEmpty else { return ids.map(ItemID.init(rawValue:)) }
      let records = try await self.records(of: unsettled.map(ItemID.init(rawValue:)))
      let dropped = try dropping(records, query: query, scope: scope)
      return ids.lazy.map(ItemID.init(rawValue:)).filter { !dropped.contains($0) }
    }

    /// The query's condition as SQL and the test for rows to settle in Swift.
    func condition(_ query: SearchQuery, scope: Int, sql: inout PostgresSQL) throws -> (
      condition: String, settle: String
    ) {
      let plan: ServerQuery
      do { plan = try ServerQuery(query, scope: scope, schema: layout.schema) } catch {
        // A refusal of the query itself (typos) has its own advice; the rest are the scopes'.
        if let refusal = error.backendError { throw refusal }
        throw SearchBackendError(
          .rejected, error.description, advice: "correct the data set's scopes")
      }
      let edges = sql.bind(plan.edgeScalars)
      let settle = "(irregular OR edges && \(edges))"
      let relaxed = plan.relaxed == .always ? "" : " AND \(sql.render(plan.relaxed))"
      let condition = """
        (\(sql.render(plan.scope))) AND (irregular OR (edges && \(edges)\(relaxed)) \
        OR \(sql.render(plan.query)))
        """
      return (condition, settle)
    }

    /// Settles candidates with the in-memory engine; returns those that do not match.
    func dropping(_ candidates: [(ItemID, SearchModel.Record)], query: SearchQuery, scope: Int)
      throws
      -> Set<ItemID>
    {
      let admitted: [Int]
      do {
        admitted = try ServerCandidates.matching(
          candidates.map(\.1), schema: layout.schema, normalizer: layout.normalizer, query: query,
          scope: scope)
      } catch {
        throw SearchBackendError(.rejected, error.description, advice: "correct the data set")
      }
      var dropped = Set(candidates.map(\.0))
      for index in admitted { dropped.remove(candidates[index].0) }
      return dropped
    }

    static func translate(_ error: any Error, address: PostgresAddress, table: String)
      -> any Error
    {
      if error is CancellationError || Task.isCancelled { return CancellationError() }
      return SearchBackendError.postgres(error, address: address, table: table)
    }

    /// One page of the items matching a query, in model order, from after `cursor` (the
    /// start when nil): keyset pagination, so a page costs its own rows however deep it is.
    public func page(
      matching query: SearchQuery, scope: Int, after cursor: PostgresCursor?, limit: Int
    ) async throws -> BackendPage<PostgresCursor> {
      guard limit > 0 else {
        throw SearchBackendError(.rejected, "a page of \(limit) rows", advice: "ask for 1 or more")
      }
      let limit = min(limit, Self.largestPage)
      var rows: [BackendPage<PostgresCursor>.Row] = []
      var next = cursor
      // Settling drops candidates: ask again until the page is full or the list ends.
      repeat {
        let batch = try await self.rows(
          matching: query, scope: scope, after: next, limit: max(limit - rows.count, 1))
        rows += batch.rows
        next = batch.last
        if batch.exhausted {
          return BackendPage(rows: rows, next: nil)
        }
      } while rows.count < limit
      return BackendPage(rows: rows, next: next)
    }

    /// A page of more rows than this is read as one of this many: every row of a table (its
    /// identities are 32-bit), with room for the arithmetic on it (a row more, a few times as
    /// many), whatever `Int` a caller passes.
    static let largestPage = Int(Int32.max)

    private struct Batch {
      var rows: [BackendPage<PostgresCursor>.Row]
      /// The cursor of the last row read (settled or not).
      var last: PostgresCursor?
      /// Whether no row comes after the batch.
      var exhausted: Bool
    }

    private func rows(
      matching query: SearchQuery, scope: Int, after cursor: PostgresCursor?, limit: Int
    )
      async throws -> Batch
    {
      var sql = PostgresSQL()
      let (condition, settle) = try self.condition(query, scope: scope, sql: &sql)
      let keyset = cursor.map { " AND ord > \(sql.bind($0.ord))::numeric" } ?? ""
      let values =
        (layout.schema.fields.indices.map { "v\($0)" }
        + layout.schema.attributes.indices.map { "a\($0)" })
        .joined(separator: ", ")
      // The fingerprint comes with every row, and alone (a left join on no row) when none
      // matches: an empty page is checked too.
      let fingerprint = fingerprintColumn(&sql)
      let statement = """
        SELECT page.*, registry.fingerprint FROM (SELECT \(fingerprint) AS fingerprint) registry \
        LEFT JOIN LATERAL (SELECT id, ord::text AS cursor, \(settle) AS settle, \(values) \
        FROM \(layout.quoted) WHERE \(condition)\(keyset) ORDER BY \(layout.quoted).ord \
        LIMIT \(limit + 1)) page ON TRUE
        """
      let found: [(row: BackendPage<PostgresCursor>.Row, ord: String, settle: Bool)]
      let exhausted: Bool
      let registered: String?
      do {
        let query = sql.query(statement)
        let (logger, schema) = (self.logger, layout.schema)
        let last = 3 + schema.fields.count + schema.attributes.count
        (found, exhausted, registered) = try await withConnection(reading: true) { connection in
          var found: [(row: BackendPage<PostgresCursor>.Row, ord: String, settle: Bool)] = []
          var registered: String?
          for try await row in try await connection.query(query, logger: logger) {
            let cells = row.makeRandomAccess()
            registered = try cells[last].decode(String?.self)
            // No row matched: the one row holds only the fingerprint.
            guard let id = try cells[0].decode(Int32?.self) else { break }
            // The extra row only says whether more follow.
            if found.count == limit { return (found, false, registered) }
            let record = try Self.record(cells, from: 3, schema: schema)
            found.append(
              (
                BackendPage<PostgresCursor>.Row(id: ItemID(rawValue: id), record: record),
                try cells[1].decode(String.self),
                try cells[2].decode(Bool.self)
              ))
          }
          return (found, true, registered)
        }
      } catch {
        throw Self.translate(error, address: readAddress, table: layout.name)
      }
      try verify(fingerprint: registered)
      let last = found.last.map { PostgresCursor(ord: $0.ord) }
      let unsettled = found.filter(\.settle).map { ($0.row.id, $0.row.record) }
      let dropped = unsettled.isEmpty ? [] : try dropping(unsettled, query: query, scope: scope)
      return Batch(
        rows: found.map(\.row).filter { !dropped.contains($0.id) }, last: last, exhausted: exhausted
      )
    }

    /// The records of some items, by identity.
    func records(of ids: [ItemID]) async throws -> [(ItemID, SearchModel.Record)] {
      var sql = PostgresSQL()
      let list = sql.bind(ids.map(\.rawValue))
      let columns =
        (layout.schema.fields.indices.map { "v\($0)" }
          + layout.schema.attributes.indices.map { "a\($0)" })
      let statement =
        "SELECT id, \(columns.joined(separator: ", ")) FROM \(layout.quoted) WHERE id = ANY(\(list))"
      do {
        let query = sql.query(statement)
        let (logger, schema) = (self.logger, layout.schema)
        return try await withConnection(reading: true) { connection in
          var result: [(ItemID, SearchModel.Record)] = []
          for try await row in try await connection.query(query, logger: logger) {
            let cells = row.makeRandomAccess()
            result.append(
              (
                ItemID(rawValue: try cells[0].decode(Int32.self)),
                try Self.record(cells, from: 1, schema: schema)
              ))
          }
          return result
        }
      } catch {
        throw Self.translate(error, address: readAddress, table: layout.name)
      }
    }

    private static func record(
      _ cells: PostgresRandomAccessRow, from start: Int, schema: SearchModel.Schema
    )
      throws
      -> SearchModel.Record
    {
      var fields: [[String]] = []
      for field in schema.fields.indices {
        fields.append(try cells[start + field].decode([String].self))
      }
      var attributes: [String] = []
      for attribute in schema.attributes.indices {
        attributes.append(try cells[start + schema.fields.count + attribute].decode(String.self))
      }
      return SearchModel.Record(fields: fields, attributes: attributes)
    }

    // MARK: Changes

    /// Makes a batch of changes in one transaction: all of them, or none.
    public func apply(_ changes: [BackendChange]) async throws {
      guard !changes.isEmpty else { return }
      do { _ = try ServerRowFolder(schema: layout.schema, normalizer: layout.normalizer) } catch {
        throw SearchBackendError(
          .rejected, error.description, advice: "correct the data set's schema")
      }
      let layout = self.layout
      let logger = self.logger
      do {
        try await withConnection { connection in
          let folder = try ServerRowFolder(schema: layout.schema, normalizer: layout.normalizer)
          try await connection.query("BEGIN", logger: logger)
          // Each gram the changed rows hold before the batch, with the row: the listed ones
          // lose it. Read from the folded columns as they stand.
          var oldGramRows: (grams: [String], ids: [Int32]) = ([], [])
          var before = PostgresSQL()
          let changedIDs = before.bind(changes.map(\.id.rawValue))
          let folded = layout.searchedFields.map { "f\($0)" }.joined(separator: ", ")
          let oldRows = try await connection.query(
            before.query(
              "SELECT id, ARRAY[\(folded)]::text[] FROM \(layout.quoted) WHERE id = ANY(\(changedIDs)::integer[])"
            ), logger: logger)
          for try await (id, columns) in oldRows.decode((Int32, [String]).self) {
            for key in ShortGrams.keys(of: columns) {
              oldGramRows.grams.append(ShortGrams.text(of: key))
              oldGramRows.ids.append(id)
            }
          }
          // Each gram of the rows written, with the row: the listed ones gain it.
          var gramRows: (grams: [String], ids: [Int32]) = ([], [])
          for change in changes {
            var sql = PostgresSQL()
            let statement: String
            switch change {
            case .remove(let id):
              statement = "DELETE FROM \(layout.quoted) WHERE id = \(sql.bind(id.rawValue))"
            case .update(let id, let record):
              let row = try folder.row(record)
              Self.note(row, of: id, in: &gramRows)
              let assignments = try Self.assignments(record, row: row, layout: layout, sql: &sql)
              statement =
                "UPDATE \(layout.quoted) SET \(assignments.map { "\($0.column) = \($0.value)" }.joined(separator: ", ")) WHERE id = \(sql.bind(id.rawValue))"
            case .insert(let id, let record, let after):
              let row = try folder.row(record)
              Self.note(row, of: id, in: &gramRows)
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
            try await connection.query(sql.query(statement), logger: logger)
          }
          // The sample follows: its rows are those of the table whose identity hashes in.
          var changed = PostgresSQL()
          let ids = changed.bind(changes.map(\.id.rawValue))
          try await connection.query(
            changed.query("DELETE FROM \(layout.sampleQuoted) WHERE id = ANY(\(ids))"),
            logger: logger)
          try await connection.query(
            changed.query(
              "INSERT INTO \(layout.sampleQuoted) SELECT * FROM \(layout.quoted) WHERE id = ANY(\(ids)) AND \(PostgresTableLayout.isSampled("id"))"
            ), logger: logger)
          // So do the short grams' lists: a changed row leaves every list, then joins those
          // of the listed grams it holds now (a removed row holds none).
          try await Self.updateLists(
            oldGramRows, set: "ARRAY(SELECT unnest(s.ids) EXCEPT SELECT unnest(v.rows))",
            layout: layout, on: connection, logger: logger)
          try await Self.updateLists(
            gramRows, set: "s.ids || v.rows", layout: layout, on: connection, logger: logger)
          var sql = PostgresSQL()
          let name = sql.bind(layout.name)
          let update =
            "UPDATE search_data_sets SET items = (SELECT count(*) FROM \(layout.quoted)) WHERE name = \(name)"
          try await connection.query(sql.query(update), logger: logger)
          // A failure before here closes the connection, and the server rolls back.
          try await connection.query("COMMIT", logger: logger)
          try await self.noteWrite(on: connection)
        }
      } catch {
        throw SearchBackendError.postgres(error, address: address, table: layout.name)
      }
    }

    /// Sets the lists of the grams of `pairs` (each gram with a row) to `set`, an expression
    /// of the list (`s.ids`) and the gram's rows among the pairs (`v.rows`).
    private static func updateLists(
      _ pairs: (grams: [String], ids: [Int32]), set: String, layout: PostgresTableLayout,
      on connection: PostgresConnection, logger: Logger
    ) async throws {
      guard !pairs.ids.isEmpty else { return }
      var sql = PostgresSQL()
      let texts = sql.bind(pairs.grams)
      let rows = sql.bind(pairs.ids)
      try await connection.query(
        sql.query(
          """
          UPDATE \(layout.shortGramQuoted) AS s SET ids = \(set) \
          FROM (SELECT gram, array_agg(id) AS rows FROM unnest(\(texts)::text[], \(rows)::integer[]) AS x(gram, id) GROUP BY gram) AS v \
          WHERE s.gram = v.gram
          """), logger: logger)
    }

    /// Adds a written row's short grams to those a batch lists.
    private static func note(
      _ row: ServerRow, of id: ItemID, in gramRows: inout (grams: [String], ids: [Int32])
    ) {
      for key in ShortGrams.keys(of: row.folded) {
        gramRows.grams.append(ShortGrams.text(of: key))
        gramRows.ids.append(id.rawValue)
      }
    }

    private static func assignments(
      _ record: SearchModel.Record, row: ServerRow, layout: PostgresTableLayout,
      sql: inout PostgresSQL
    ) throws -> [(column: String, value: String)] {
      var result: [(String, String)] = [
        ("irregular", sql.bind(row.isIrregular)), ("edges", sql.bind(row.edgeScalars)),
      ]
      for field in layout.searchedFields {
        result.append(("f\(field)", sql.bind(row.folded[field] ?? "")))
      }
      for field in layout.schema.fields.indices {
        let values = field < record.fields.count ? record.fields[field] : []
        if values.contains(where: { $0.utf8.contains(0) }) {
          throw PostgresSearchError.unstorableText(
            item: -1, field: layout.schema.fields[field].name)
        }
        result.append(("v\(field)", sql.bind(values)))
      }
      for attribute in layout.schema.attributes.indices {
        result.append(
          (
            "a\(attribute)",
            sql.bind(attribute < record.attributes.count ? record.attributes[attribute] : "")
          ))
      }
      for (index, number) in row.numbers.enumerated() {
        result.append(("n\(index)", sql.bind(number)))
      }
      return result
    }
  }

  /// Where a page of results ends: the next page starts after it.
  public struct PostgresCursor: Hashable, Sendable {
    /// The model-order key of the last row read.
    let ord: String
  }

  /// The connections a backend keeps open between requests.
  private actor Connections {
    private let configuration: PostgresConnection.Configuration
    private var idle: [PostgresConnection] = []
    private var nextID = 0
    /// Connections open or opening, idle ones included.
    private var open = 0
    /// Requests waiting for a connection, first come first served, each with its number.
    private var waiting: [(number: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiter = 0
    /// How many live connections requests have given back: a request the server refuses
    /// waits on while this grows (its own connections hold what the server gives it).
    private var givenBack = 0
    /// How many idle connections are kept: a search, a change and a page at once.
    private let kept: Int
    /// How many connections a backend has at most: superseded searches run to their end (see
    /// `withConnection`), and fast typing must not open one for each keystroke.
    private let maximum: Int
    /// How long a connect the server refuses for want of a free connection (SQL state 53300:
    /// `max_connections`, or the role's limit) is tried again before the refusal stands.
    private let serverWait: Duration

    init(configuration: PostgresConnection.Configuration, maximum: Int, serverWait: Duration) {
      self.configuration = configuration
      self.maximum = maximum
      self.kept = min(4, maximum)
      self.serverWait = serverWait
    }

    /// A backend dropped without ``PostgresSearchBackend/close()`` still closes its
    /// connections: each is kept until its close completes.
    deinit {
      for connection in idle {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
      }
    }

    /// An idle connection, or a new one when fewer than `maximum` are open; else the next
    /// one given back.
    ///
    /// A connect the server refuses for want of a free connection is tried again, a little later
    /// each time, and a connection of this backend's given back meanwhile is taken: the refusal
    /// stands once `serverWait` passes with none given back.
    func lease(logger: Logger) async throws -> PostgresConnection {
      let clock = ContinuousClock()
      var refused: (since: ContinuousClock.Instant, givenBack: Int)?
      var pause = Duration.milliseconds(10)
      while true {
        while let connection = idle.popLast() {
          if !connection.isClosed { return connection }
          open -= 1
        }
        guard open < maximum else {
          await waitTurn()
          continue
        }
        open += 1
        nextID += 1
        do {
          return try await PostgresConnection.connect(
            configuration: configuration, id: nextID, logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "53300" {
          release()
          // Waiting is bounded by progress: each connection given back starts the wait again.
          if let last = refused, last.givenBack == givenBack {
            guard clock.now - last.since < serverWait else { throw error }
          } else {
            refused = (clock.now, givenBack)
          }
          await waitTurn(upTo: pause)
          pause = min(pause * 2, .milliseconds(200))
        } catch {
          release()
          throw error
        }
      }
    }

    func giveBack(_ connection: PostgresConnection) async {
      if connection.isClosed {
        release()
      } else if idle.count < kept || !waiting.isEmpty {
        givenBack += 1
        idle.append(connection)
        wakeNext()
      } else {
        givenBack += 1
        release()
        try? await connection.close()
      }
    }

    func discard(_ connection: PostgresConnection) async {
      release()
      try? await connection.close()
    }

    func closeAll() async {
      let all = idle
      idle = []
      open -= all.count
      for connection in all { try? await connection.close() }
    }

    /// One connection fewer: a waiting request may open one.
    private func release() {
      open -= 1
      wakeNext()
    }

    /// Waits for a connection given back or a slot freed; for `limit` at most, if given.
    private func waitTurn(upTo limit: Duration? = nil) async {
      nextWaiter += 1
      let number = nextWaiter
      await withCheckedContinuation { continuation in
        waiting.append((number, continuation))
        if let limit {
          Task {
            try? await Task.sleep(for: limit)
            self.wake(number)
          }
        }
      }
    }

    private func wake(_ number: Int) {
      guard let index = waiting.firstIndex(where: { $0.number == number }) else { return }
      waiting.remove(at: index).continuation.resume()
    }

    private func wakeNext() {
      if !waiting.isEmpty { waiting.removeFirst().continuation.resume() }
    }
  }
#endif
