#if PostgreSQL
  import PostgresNIO

  import SearchEngine
  extension PostgresSearchBackend {
    /// The time an exact count may take, in milliseconds, before the estimate is given instead.
    static let exactCountBudget = 25
    /// Above this estimate, no exact count is tried: it would not fit in the budget.
    static let exactCountCeiling = 20_000

    /// The first `limit` items of the scope matching the query, in model order, and how many
    /// match in all, for a list's first screen.
    ///
    /// First the sample table (one row in 32) estimates how many match, and the short-gram
    /// table says which of the query's one- and two-character terms it lists (the rare
    /// ones). That decides how the rows are read: from the rows a listed gram names, when
    /// every term of a set is one; by the order index, which stops after `limit` matches,
    /// when many match and no trigram index narrows the query; else found by the trigram
    /// index (or a scan) and sorted. The count comes meanwhile on a second connection: exact
    /// when the rows are every match; else the estimate, made exact when an index narrows
    /// the query and the count finishes within 25 milliseconds.
    ///
    /// What bounds it: a query no index narrows (a fuzzy term, a short term too common to be
    /// listed yet found late in model order, inverse terms alone) is a scan of every row.
    public func prefix(matching query: SearchQuery, scope: Int, limit: Int) async throws
      -> BackendPrefix
    {
      guard limit > 0 else {
        throw SearchBackendError(.rejected, "a page of \(limit) rows", advice: "ask for 1 or more")
      }
      let limit = min(limit, Self.largestPage)
      let candidates = Self.shortGramSets(query)
      let survey = try await self.survey(
        query, scope: scope, grams: Array(Set(candidates.joined())))
      let estimate = survey.estimate
      // The set whose listed grams name the fewest rows, if every gram of a set is listed.
      let narrowing = candidates.filter { $0.allSatisfy { survey.listed[$0] != nil } }
        .min { a, b in
          a.reduce(0) { $0 + (survey.listed[$1] ?? 0) }
            < b.reduce(0) { $0 + (survey.listed[$1] ?? 0) }
        }
      do {
        return try await prefix(
          matching: query, scope: scope, limit: limit, estimate: estimate, narrowing: narrowing)
      } catch is ShortGramsChanged {
        // The data set was loaded again between the two statements: read it without them.
        return try await prefix(
          matching: query, scope: scope, limit: limit, estimate: estimate, narrowing: nil)
      }
    }

    /// The short-gram table no longer lists a gram it listed a statement before.
    private struct ShortGramsChanged: Error {}

    private func prefix(
      matching query: SearchQuery, scope: Int, limit: Int, estimate: Int, narrowing: [String]?
    ) async throws -> BackendPrefix {
      let inOrder = narrowing == nil && Self.readsInOrder(query, estimate: estimate, limit: limit)
      // Without an index an exact count is a full scan: it would not fit its budget, and
      // would take a core from the page's own scan.
      let countsExactly =
        estimate <= Self.exactCountCeiling && (narrowing != nil || Self.isNarrowed(query))
      // Not `async let`: a complete first page must not wait for a count it does not need.
      let counting = Task { () async throws -> ResultCount in
        guard countsExactly,
          let exact = try await self.exactCount(matching: query, scope: scope, narrowing: narrowing)
        else { return .estimate(estimate) }
        return .exact(exact)
      }
      let first: (items: [ItemID], isComplete: Bool)
      do {
        first = try await firstItems(
          matching: query, scope: scope, limit: limit, inOrder: inOrder, narrowing: narrowing)
      } catch {
        counting.cancel()
        throw error
      }
      let items = first.items
      if first.isComplete {
        counting.cancel()
        return BackendPrefix(items: items, isComplete: true, count: .exact(items.count))
      }
      let count = try await withTaskCancellationHandler {
        try await counting.value
      } onCancel: {
        counting.cancel()
      }
      return BackendPrefix(
        items: items, isComplete: false, count: ResultCount(atLeast: items.count + 1, count))
    }

    /// For each set of the query that short grams could narrow, its grams: a set of terms
    /// that are all substring tests (not inverse, not fuzzy, not numbers, which also match
    /// number attributes) of one or two scalars.
    ///
    /// A row matching the set holds one of them.
    static func shortGramSets(_ query: SearchQuery) -> [[String]] {
      query.sets.compactMap { set in
        var grams: [String] = []
        for term in set.terms {
          let text = String(decoding: term.pattern.utf8, as: UTF8.self)
          guard !term.isInverse, term.kind != .fuzzy, DecimalText.canonical(text) == nil,
            let gram = ShortGrams.gram(ofCore: text)
          else { return nil }
          grams.append(gram)
        }
        return grams.isEmpty ? nil : grams
      }
    }

    /// Above `limit` times this many estimated matches, the first page is read in model
    /// order by the order index, which stops at the page's last row; below, the matches are
    /// found (by a trigram index or a scan) and sorted.
    ///
    /// The planner's own guess for a substring test is often a hundred times off, and a wrong
    /// choice costs a full scan.
    static let inOrderFactor = 4

    /// Estimates past this are read in model order even when a trigram index could find
    /// them: sorting that many costs more than reading the first pages of the order index.
    static let inOrderAlways = 20_000

    /// Whether the first page is read in model order: when many rows match (the order index
    /// finds the page's rows early) and no trigram index narrows the query (``isNarrowed(_:)``),
    /// or when very many match.
    static func readsInOrder(_ query: SearchQuery, estimate: Int, limit: Int) -> Bool {
      if estimate >= inOrderAlways { return true }
      let (many, overflow) = limit.multipliedReportingOverflow(by: inOrderFactor)
      return !overflow && estimate >= many && !isNarrowed(query)
    }

    /// Whether a trigram index narrows the query: some set of it has only terms of three
    /// characters or more that a substring test checks.
    static func isNarrowed(_ query: SearchQuery) -> Bool {
      query.sets.contains { set in
        set.terms.allSatisfy { term in
          !term.isInverse && term.kind != .fuzzy
            && String(decoding: term.pattern.utf8, as: UTF8.self).unicodeScalars.count >= 3
        }
      }
    }

    /// The first `limit` matches and whether they are all of them: read in order of the order
    /// index when `inOrder`, else found and sorted.
    ///
    /// Rows that settling drops leave room that the next rows fill, read after the last row read.
    private func firstItems(
      matching query: SearchQuery, scope: Int, limit: Int, inOrder: Bool, narrowing: [String]?
    ) async throws -> ([ItemID], Bool) {
      var items: [ItemID] = []
      var after: String?
      repeat {
        let batch = try await rows(
          matching: query, scope: scope, limit: limit - items.count, after: after,
          inOrder: inOrder, narrowing: narrowing)
        items += batch.items
        if batch.isComplete { return (items, true) }
        after = batch.last
      } while items.count < limit
      return (items, false)
    }

    /// Up to `limit` rows matching the query after the row at `after` in model order (from
    /// the start when nil), settled: the matches among them, whether no row follows, and
    /// where the last one read stands.
    private func rows(
      matching query: SearchQuery, scope: Int, limit: Int, after: String?, inOrder: Bool,
      narrowing: [String]?
    ) async throws -> (items: [ItemID], isComplete: Bool, last: String?) {
      var sql = PostgresSQL()
      let (condition, settle) = try self.condition(query, scope: scope, sql: &sql)
      let keyset = after.map { " AND ord > \(sql.bind($0))::numeric" } ?? ""
      let (narrowed, listed) = shortGramCondition(narrowing, sql: &sql)
      let fingerprint = fingerprintColumn(&sql)
      let statement = """
        SELECT \(fingerprint), \(listed), coalesce(array_agg(id ORDER BY ord), '{}'), \
        coalesce(array_agg(ord::text ORDER BY ord), '{}'), \
        coalesce(array_agg(id ORDER BY ord) FILTER (WHERE settle), '{}') \
        FROM (SELECT id, ord, \(settle) AS settle FROM \(layout.quoted) \
        WHERE \(condition)\(keyset)\(narrowed) ORDER BY ord\(inOrder ? "" : " + 0") \
        LIMIT \(limit + 1)) page
        """
      let found: String?
      let stillListed: Int?
      let ids: [Int32]
      let ords: [String]
      let unsettled: [Int32]
      do {
        let query = sql.query(statement)
        let logger = self.logger
        (found, stillListed, ids, ords, unsettled) = try await withConnection(reading: true) {
          connection in
          // In order: no scan that would have to sort (the order index is the only way).
          if inOrder {
            try await connection.query("BEGIN", logger: logger)
            try await connection.query("SET LOCAL enable_seqscan = off", logger: logger)
            try await connection.query("SET LOCAL enable_bitmapscan = off", logger: logger)
          }
          var result: (String?, Int?, [Int32], [String], [Int32]) = (nil, nil, [], [], [])
          for try await row in try await connection.query(query, logger: logger).decode(
            (String?, Int?, [Int32], [String], [Int32]).self)
          {
            result = row
          }
          if inOrder { try await connection.query("COMMIT", logger: logger) }
          return result
        }
      } catch {
        throw Self.translate(error, address: readAddress, table: layout.name)
      }
      try verify(fingerprint: found)
      if let narrowing, stillListed != narrowing.count { throw ShortGramsChanged() }
      // The extra row says only that more follow.
      let read = min(ids.count, limit)
      var items = ids.prefix(read).map(ItemID.init(rawValue:))
      let candidates = Set(unsettled.lazy.map(ItemID.init(rawValue:))).intersection(items)
      if !candidates.isEmpty {
        let dropped = try dropping(
          try await records(of: Array(candidates)), query: query, scope: scope)
        items.removeAll { dropped.contains($0) }
      }
      return (items, ids.count <= limit, read > 0 ? ords[read - 1] : after)
    }

    /// How many items match, estimated from the sample table, and of `grams`, those the
    /// short-gram table lists, with the number of rows each lists.
    private func survey(_ query: SearchQuery, scope: Int, grams: [String]) async throws -> (
      estimate: Int, listed: [String: Int]
    ) {
      var sql = PostgresSQL()
      let (condition, _) = try self.condition(query, scope: scope, sql: &sql)
      let name = sql.bind(layout.name)
      let wanted = sql.bind(grams)
      let statement = """
        SELECT count(*) FILTER (WHERE \(condition)), count(*), \
        (SELECT items FROM \(PostgresTableLayout.registry) WHERE name = \(name)), \
        ARRAY(SELECT gram FROM \(layout.shortGramQuoted) WHERE gram = ANY(\(wanted)::text[]) ORDER BY gram), \
        ARRAY(SELECT cardinality(ids) FROM \(layout.shortGramQuoted) WHERE gram = ANY(\(wanted)::text[]) ORDER BY gram) \
        FROM \(layout.sampleQuoted)
        """
      let surveyed: (Int, Int, Int?, [String], [Int])
      do {
        let query = sql.query(statement)
        let logger = self.logger
        surveyed = try await withConnection(reading: true) { connection in
          var result: (Int, Int, Int?, [String], [Int]) = (0, 0, nil, [], [])
          for try await row in try await connection.query(query, logger: logger).decode(
            (Int, Int, Int?, [String], [Int]).self)
          {
            result = row
          }
          return result
        }
      } catch {
        throw Self.translate(error, address: readAddress, table: layout.name)
      }
      let (matched, sampled, total, listedGrams, listedRows) = surveyed
      let items = total ?? sampled * PostgresTableLayout.sampleRate
      let estimate =
        sampled > 0 ? Int((Double(matched) * Double(items) / Double(sampled)).rounded()) : items
      return (estimate, Dictionary(zip(listedGrams, listedRows)) { first, _ in first })
    }

    /// The condition that narrows a statement to the rows the short-gram table lists for
    /// `grams` (and the irregular rows, which every search settles), and a column that counts
    /// how many of those grams it still lists; nothing and NULL without grams.
    private func shortGramCondition(_ grams: [String]?, sql: inout PostgresSQL) -> (
      condition: String, listed: String
    ) {
      guard let grams else { return ("", "NULL::integer") }
      let bound = sql.bind(grams)
      let table = layout.shortGramQuoted
      return (
        " AND (irregular OR id = ANY(ARRAY(SELECT unnest(ids) FROM \(table) WHERE gram = ANY(\(bound)::text[]))))",
        "(SELECT count(*) FROM \(table) WHERE gram = ANY(\(bound)::text[]))::integer"
      )
    }

    /// The exact count, or nil when it takes longer than `exactCountBudget` (the server
    /// stops it) or has too many rows to settle.
    private func exactCount(matching query: SearchQuery, scope: Int, narrowing: [String]?)
      async throws -> Int?
    {
      var sql = PostgresSQL()
      let (condition, settle) = try self.condition(query, scope: scope, sql: &sql)
      let (narrowed, listed) = shortGramCondition(narrowing, sql: &sql)
      let statement = """
        SELECT \(listed), count(*) FILTER (WHERE NOT \(settle)), \
        coalesce(array_agg(id) FILTER (WHERE \(settle)), '{}') \
        FROM \(layout.quoted) WHERE \(condition)\(narrowed)
        """
      let budget = Self.exactCountBudget
      let counted: (Int?, Int, [Int32])?
      do {
        let query = sql.query(statement)
        let logger = self.logger
        counted = try await withConnection(reading: true) { connection in
          // The budget holds for this statement only: the transaction ends with it.
          try await connection.query("BEGIN", logger: logger)
          try await connection.query(
            PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(budget)"), logger: logger)
          var result: (Int?, Int, [Int32])?
          do {
            for try await row in try await connection.query(query, logger: logger).decode(
              (Int?, Int, [Int32]).self)
            {
              result = row
            }
          } catch let error as PSQLError
            where SearchBackendError.serverStoppedTheStatement(
              state: error.serverInfo?[.sqlState], message: error.serverInfo?[.message])
          {
            result = nil
          }
          try await connection.query("ROLLBACK", logger: logger)
          return result
        }
      } catch {
        throw Self.translate(error, address: readAddress, table: layout.name)
      }
      guard let (stillListed, regular, unsettled) = counted else { return nil }
      // The lists changed under the count (a load between statements): no exact count.
      if let narrowing, stillListed != narrowing.count { return nil }
      guard !unsettled.isEmpty else { return regular }
      guard unsettled.count <= 1_000 else { return nil }
      let candidates = try await records(of: unsettled.map(ItemID.init(rawValue:)))
      let dropped = try dropping(candidates, query: query, scope: scope)
      return regular + unsettled.count - dropped.count
    }
  }
#endif
