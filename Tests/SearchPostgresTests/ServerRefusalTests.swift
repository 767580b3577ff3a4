#if PostgreSQL
  import Foundation
  import SearchCore
  import SearchEngine
  import SearchPostgres
  import Synchronization
  import Testing

  /// What the server refuses is said as what it is: a refusal is never "not loaded", a table
  /// altered under a client is "load it again", and any valid table name can be loaded beside
  /// any other.
  @Suite struct ServerRefusalTests {
    /// The words data set's sample: small, one searched field, loaded in a moment.
    static func corpus() throws -> SearchCorpus { try DataSets.corpus("words/sample") }

    private static func checkError(_ backend: PostgresSearchBackend) async -> String? {
      do {
        try await backend.checkTable()
        return nil
      } catch {
        return error.description
      }
    }

    @Test func aRefusalSaysWhatItIsNotThatNothingIsLoaded() async throws {
      let corpus = try Self.corpus()
      try await ThrowawayCluster.with { cluster in
        let loaded = try PostgresSearchBackend(
          address: try cluster.address, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        try await loaded.load(corpus.model)
        try await loaded.checkTable()
        // A query with typo tolerance on is refused with its own advice, never answered
        // exactly and never blamed on the scopes.
        let typos = try SearchQuery(
          "calfornia", syntax: .words, typos: .default, normalizer: corpus.normalizer)
        do {
          let items = try await loaded.items(matching: typos, scope: 0)
          Issue.record("a query with typos was answered: \(items.count) items")
        } catch {
          let text = "\(error)"
          #expect(text.contains("does not match words with typos"), "\(text)")
          #expect(text.contains("TypoTolerance.off") && !text.contains("scopes"), "\(text)")
        }
        await loaded.close()

        // TLS required by the address, which this server does not offer.
        var tls = try cluster.address
        tls.tls = .require
        let secure = try PostgresSearchBackend(
          address: tls, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        let tlsError = await Self.checkError(secure)
        #expect(tlsError?.contains("does not offer TLS") == true, "\(tlsError ?? "no error")")
        #expect(tlsError?.contains("no data set") == false)
        await secure.close()

        // No connection free for the role (its limit reached, as max_connections would be).
        _ = try cluster.psql(
          "CREATE ROLE limited LOGIN CONNECTION LIMIT 0; GRANT SELECT ON ALL TABLES IN SCHEMA public TO limited"
        )
        var address = try cluster.address
        address.user = "limited"
        let limited = try PostgresSearchBackend(
          address: address, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        let limitError = await Self.checkError(limited)
        #expect(
          limitError?.contains("has no connection free") == true, "\(limitError ?? "no error")")
        #expect(limitError?.contains("no data set") == false)
        await limited.close()

        // A database where nothing was ever loaded is still "not loaded".
        _ = try cluster.psql("CREATE DATABASE empty")
        var emptyAddress = try cluster.address
        emptyAddress.database = "empty"
        let empty = try PostgresSearchBackend(
          address: emptyAddress, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        let emptyError = await Self.checkError(empty)
        #expect(emptyError?.contains("has no data set \"words\"") == true, "\(emptyError ?? "")")
        await empty.close()
      }
    }

    /// More searches at once than the backend's pool holds wait their turn: all answer, and
    /// the server never counts more of the backend's connections than the pool.
    ///
    /// A role whose limit is below the pool (a server whose `max_connections` other clients hold)
    /// is a wait for a free connection, not a refusal.
    @Test func moreSearchesThanConnectionsWaitTheirTurn() async throws {
      let corpus = try Self.corpus()
      try await ThrowawayCluster.with { cluster in
        let loader = try PostgresSearchBackend(
          address: try cluster.address, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        try await loader.load(corpus.model)
        await loader.close()
        _ = try cluster.psql(
          "CREATE ROLE scarce LOGIN CONNECTION LIMIT 2; GRANT SELECT ON ALL TABLES IN SCHEMA public TO scarce"
        )
        // The count is read as a user of its own: a session of the backend's user that has
        // just ended (the count's own before) may still be listed on a loaded machine.
        _ = try cluster.psql("CREATE ROLE watcher LOGIN; GRANT pg_read_all_stats TO watcher")
        let memory = MemorySearchBackend(corpus: corpus)
        var drawer = QueryDrawer(model: corpus.model, seed: 0x7001_5EA7)
        let queries = try (0..<24).map { _ in
          try SearchQuery(drawer.next(), syntax: .extended, normalizer: corpus.normalizer)
        }
        var expected: [[ItemID]] = []
        for query in queries { expected.append(try await memory.items(matching: query, scope: 0)) }
        var scarce = try cluster.address
        scarce.user = "scarce"
        for (address, pool) in [(try cluster.address, 3), (scarce, 8)] {
          let backend = try PostgresSearchBackend(
            address: address, table: "words", schema: corpus.model.schema,
            normalizer: corpus.normalizer, requestTimeout: .seconds(120),
            maximumConnections: pool)
          // The server's count, read on a thread of its own: psql blocks, and a task that
          // looped on it would hold one of the few threads every other test's tasks run on.
          let count = { @Sendable in
            let text = try? cluster.psql(
              "SELECT count(*) FROM pg_stat_activity WHERE usename = '\(address.user)' AND backend_type = 'client backend'",
              user: "watcher")
            return text.flatMap { Int($0.filter(\.isNumber)) } ?? 0
          }
          // A loaded machine may still list the setup's sessions a moment after they ended:
          // the count starts once they are gone, so that it sees the backend's alone.
          for _ in 0..<500 where count() > 0 { usleep(10_000) }
          let watch = Mutex((watching: true, peak: 0))
          let watcher = Thread {
            while watch.withLock({ $0.watching }) {
              let seen = count()
              watch.withLock { $0.peak = max($0.peak, seen) }
              usleep(10_000)
            }
          }
          watcher.start()
          let answers = try await withThrowingTaskGroup(of: (Int, [ItemID]).self) { group in
            for (index, query) in queries.enumerated() {
              group.addTask { (index, try await backend.items(matching: query, scope: 0)) }
            }
            var answers = [[ItemID]](repeating: [], count: queries.count)
            for try await (index, items) in group { answers[index] = items }
            return answers
          }
          let peak = watch.withLock {
            $0.watching = false
            return $0.peak
          }
          #expect(answers == expected, "\(address.user)")
          #expect(peak <= (address.user == "scarce" ? 2 : pool), "\(peak)")
          await backend.close()
        }
      }
    }

    /// The table loaded again with other folding while a client runs: the client's next
    /// request, whole or a page, matching or not, is an error that says so, never an answer
    /// folded otherwise.
    @Test func aTableLoadedAgainWithOtherFoldingIsAnErrorNotAnAnswer() async throws {
      let corpus = try Self.corpus()
      try await ThrowawayCluster.with { cluster in
        let client = try PostgresSearchBackend(
          address: try cluster.address, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        try await client.load(corpus.model)
        let query = try SearchQuery("ab", syntax: .extended, normalizer: corpus.normalizer)
        let none = try SearchQuery("qqqzzzqqq", syntax: .extended, normalizer: corpus.normalizer)
        #expect(try await !client.items(matching: query, scope: 0).isEmpty)
        #expect(try await client.page(matching: none, scope: 0, after: nil, limit: 5).rows.isEmpty)

        let caseOnly = try Normalizer(folding: [.case])
        let other = try PostgresSearchBackend(
          address: try cluster.address, table: "words", schema: corpus.model.schema,
          normalizer: caseOnly)
        try await other.load(corpus.model)
        await other.close()

        func failure(_ request: () async throws -> Void) async -> String {
          do {
            try await request()
            return "an answer"
          } catch {
            return String(describing: error)
          }
        }
        let whole = await failure { _ = try await client.items(matching: query, scope: 0) }
        let page = await failure {
          _ = try await client.page(matching: query, scope: 0, after: nil, limit: 5)
        }
        let emptyPage = await failure {
          _ = try await client.page(matching: none, scope: 0, after: nil, limit: 5)
        }
        for message in [whole, page, emptyPage] {
          #expect(message.contains("table \"words\""), "\(message)")
          #expect(message.contains("was loaded as"), "\(message)")
          #expect(message.contains("load it again"), "\(message)")
        }
        await client.close()
      }
    }

    /// A server that stops answering on a connection already open (frozen: it cannot enforce
    /// its own statement timeout) fails the request with a timeout after the client's own
    /// deadline, instead of leaving it without an answer; once the server runs again, the next
    /// request answers on a new connection.
    @Test func aServerThatStopsAnsweringIsATimeoutOnTheClient() async throws {
      let corpus = try Self.corpus()
      try await ThrowawayCluster.with { cluster in
        let backend = try PostgresSearchBackend(
          address: try cluster.address, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer, statementTimeout: .seconds(4),
          requestTimeout: .seconds(5))
        try await backend.load(corpus.model)
        let query = try SearchQuery("ab", syntax: .extended, normalizer: corpus.normalizer)
        let expected = try await backend.items(matching: query, scope: 0)
        let frozen = try cluster.freeze()
        var message = "an answer"
        do { _ = try await backend.items(matching: query, scope: 0) } catch {
          message = String(describing: error)
        }
        cluster.thaw(frozen)
        #expect(message.contains("did not answer within 5"), "\(message)")
        #expect(try await backend.items(matching: query, scope: 0) == expected)
        await backend.close()
      }
    }

    /// A column's type changed under a running client: its next search is an error that says
    /// the layout changed and to load again, not "cannot reach PostgreSQL".
    @Test func aTableAlteredUnderAClientSaysLoadItAgain() async throws {
      let corpus = try Self.corpus()
      try await ThrowawayCluster.with { cluster in
        let backend = try PostgresSearchBackend(
          address: try cluster.address, table: "words", schema: corpus.model.schema,
          normalizer: corpus.normalizer)
        try await backend.load(corpus.model)
        let query = try SearchQuery("ab", syntax: .extended, normalizer: corpus.normalizer)
        let before = try await backend.items(matching: query, scope: 0)
        #expect(!before.isEmpty)
        _ = try cluster.psql("ALTER TABLE words ALTER COLUMN id TYPE bigint")
        var message = ""
        do { _ = try await backend.items(matching: query, scope: 0) } catch {
          message = String(describing: error)
        }
        #expect(message.contains("layout of table \"words\""), "\(message)")
        #expect(message.contains("load it again"), "\(message)")
        #expect(!message.contains("cannot reach"), "\(message)")
        _ = try cluster.psql("ALTER TABLE words RENAME COLUMN ord TO place")
        var renamed = ""
        do { _ = try await backend.items(matching: query, scope: 0) } catch {
          renamed = String(describing: error)
        }
        #expect(renamed.contains("layout of table \"words\""), "\(renamed)")
        await backend.close()
      }
    }

    /// Names PostgreSQL tells apart are tables of their own: names that differ in case, names
    /// that are another table's name plus a suffix PostgreSQL or a derived index name would
    /// use, and 63-character names (the limit) sharing their first 60.
    @Test func everyValidTableNameLoadsBesideTheOthers() async throws {
      let corpus = try Self.corpus()
      let long = String(repeating: "n", count: 60)
      let names = [
        "ab", "Ab", "ws_f0", "ws", "ws_f0_idx", "ab_pkey", "ab_ord", long + "aaa", long + "aab",
      ]
      try await ThrowawayCluster.with { cluster in
        let query = try SearchQuery("ab", syntax: .extended, normalizer: corpus.normalizer)
        let expected = try await MemorySearchBackend(corpus: corpus).items(
          matching: query, scope: 0)
        for name in names {
          let backend = try PostgresSearchBackend(
            address: try cluster.address, table: name, schema: corpus.model.schema,
            normalizer: corpus.normalizer)
          try await backend.load(corpus.model)
          await backend.close()
        }
        // Every table answers, after all were loaded.
        for name in names {
          let backend = try PostgresSearchBackend(
            address: try cluster.address, table: name, schema: corpus.model.schema,
            normalizer: corpus.normalizer)
          try await backend.checkTable()
          #expect(try await backend.items(matching: query, scope: 0) == expected, "\(name)")
          await backend.close()
        }
      }
    }
  }
#endif
