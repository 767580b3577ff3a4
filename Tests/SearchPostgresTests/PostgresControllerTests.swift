#if PostgreSQL
  import Foundation
  import SearchCore
  import SearchEngine
  import SearchPostgres
  import Testing
  import SearchCoreTesting

  @testable import SearchCore

  /// Keystrokes of the session over the server: 2,000, or 700 under a sanitizer (`.ci/run` sets
  /// SANITIZER), where each costs ten times more.
  private let stressKeystrokes =
    ProcessInfo.processInfo.environment["SANITIZER"] == nil ? 2_000 : 700

  /// The search controller over PostgreSQL: background searches answered by the server, model
  /// changes made there first, failures reported with the last results kept.
  @MainActor
  @Suite struct PostgresControllerTests {
    /// Starts a cluster, loads a data set and runs `body` with a backend whose pool runs (its
    /// timeouts patient, as ``ThrowawayCluster/backend(table:schema:normalizer:statementTimeout:)``
    /// says).
    static func withBackend(
      _ dataSet: String,
      _ body:
        @MainActor (SearchCorpus, PostgresSearchBackend, ThrowawayCluster) async throws -> Void
    ) async throws {
      // Loading blocks its thread: off the main actor.
      let corpus = try await Task.detached { try DataSets.corpus(dataSet) }.value
      try await ThrowawayCluster.with { cluster in
        let backend = try cluster.backend(
          table: "items", schema: corpus.model.schema, normalizer: corpus.normalizer)
        try await backend.load(corpus.model)
        try await backend.checkTable()
        try await body(corpus, backend, cluster)
        await backend.close()
      }
    }

    /// Typing, scope changes, batches of changes and a cancel, with real background searches on
    /// the server: the controller keeps its promises to a front (``ControllerInvariants``), the
    /// settled results equal a fresh in-memory search (ranked), the server holds
    /// the changed model, and nothing arrives after cancel.
    @Test func typingWhileTheModelChanges() async throws {
      try await Self.withBackend("words/sample") { corpus, backend, _ in
        let controller = try SearchController(
          corpus: corpus, configuration: SearchConfiguration(mode: .background, ranksResults: true),
          backend: backend)
        let words = corpus.model.ids.compactMap { corpus.model.values(of: $0, field: 0).first }
        var random = SplitMix64(seed: 0x5EA5C4)
        let invariants = ControllerInvariants(watching: controller)
        controller.begin()
        let mutator = Task { @MainActor in
          var random = SplitMix64(seed: 0xD1CE)
          for step in 0..<40 {
            let model = controller.corpus.model
            var batch: [SearchModel.Change] = []
            for _ in 0..<(1 + random.next() % 4) {
              if step % 3 == 2 {
                batch.append(.remove(model.id(at: Int(random.next() % UInt64(model.count)))))
                break
              }
              let word = words[Int(random.next() % UInt64(words.count))] + "x"
              batch.append(
                .insert(
                  SearchModel.Record(fields: [[word]], attributes: ["Swedish"]),
                  at: Int(random.next() % UInt64(model.count + 1))))
            }
            try await controller.apply(batch)
            for _ in 0..<(random.next() % 20) { await Task.yield() }
          }
        }
        // Of twelve keys: two backspaces, one fresh start on a word's first five letters, one
        // of the eight scope buttons, eight letters typed.
        let targets = words.map { String($0.lowercased().prefix(5)) }
        let odds = TypingSession.Odds(backspace: 2, startOver: 1, selectScope: 1, outOf: 12)
        var session = TypingSession(target: "a")
        for _ in 0..<stressKeystrokes {
          let key = session.pressRandomKey(odds, using: &random, targets: targets, scopes: 8)
          if key == .selectScope { try controller.selectScope(session.scope) }
          controller.setText(session.text)
          for _ in 0..<(random.next() % 6) { await Task.yield() }
        }
        try await mutator.value
        try controller.selectScope(0)
        controller.setText("ab")
        await Self.settle(controller)

        let query = try SearchQuery("ab", normalizer: controller.corpus.normalizer)
        var fresh = IncrementalFilter()
        let found = fresh.search(query, scope: 0, in: controller.corpus)
        let expected = try #require(found)
        #expect(controller.results?.items == expected.items)
        #expect(controller.resultsTable.numberOfRows == expected.items.count)
        let ranked = controller.corpus.ranked(expected)
        #expect(controller.resultsTable.sections.flatMap(\.items) == ranked)
        #expect(controller.results?.path == .backend)
        // The server holds the model as changed: every item, none more.
        let everything = try await backend.items(
          matching: try SearchQuery("", normalizer: corpus.normalizer), scope: 0)
        #expect(everything == controller.corpus.model.ids)

        controller.setText("abc")
        controller.setText("abd")
        controller.cancel()
        invariants.end()
        await Self.settle(controller)
        #expect(invariants.problems == [])
        #expect(invariants.errors == [])
        #expect(invariants.reloads > 0)
        #expect(controller.discardedSearches > 0)
        withExtendedLifetime(invariants) {}
      }
    }

    /// Ranked results are in one order wherever they come from: the server's answer typed
    /// keystroke by keystroke, the in-memory controller narrowing keystroke by keystroke, and a
    /// fresh search in memory; over the cities, whose manifest ranks by population.
    @Test func rankedResultsAreInMemorysOrder() async throws {
      try await Self.withBackend("cities/cities") { corpus, backend, _ in
        let configuration = SearchConfiguration(
          mode: .background, ranksResults: true, querySyntax: .words, typos: .off)
        let server = try SearchController(
          corpus: corpus, configuration: configuration, backend: backend)
        var inMemory = configuration
        inMemory.mode = .immediate
        let memory = try SearchController(corpus: corpus, configuration: inMemory)
        server.begin()
        memory.begin()
        for text in ["zur", "chic", "los a", "kuala", "sant", "san ", "york", "new y"] {
          var typed = ""
          for character in text {
            typed.append(character)
            server.setText(typed)
            memory.setText(typed)
          }
          await Self.settle(server)
          let query = try SearchQuery(
            text, syntax: .words, typos: .off, normalizer: corpus.normalizer)
          var filter = IncrementalFilter()
          let found = filter.search(query, scope: 0, in: corpus)
          let ranked = corpus.ranked(try #require(found))
          #expect(!ranked.isEmpty)
          #expect(memory.resultsTable.sections.flatMap(\.items) == ranked, "\(text)")
          #expect(server.resultsTable.sections.flatMap(\.items) == ranked, "\(text)")
          #expect(server.results?.path == .backend)
          server.setText("")
          memory.setText("")
        }
        await Self.settle(server)
      }
    }

    /// The server goes away: the search reports it as an error event that says what to do, the
    /// results on screen stay, a change is refused and made nowhere; when the server is back,
    /// the next keystroke searches again.
    @Test func serverGoesAwayAndComesBack() async throws {
      try await Self.withBackend("words/sample") { corpus, backend, cluster in
        let (controller, log, token, shown) = try await Self.showingBer(corpus, backend)
        #expect(!shown.isEmpty)
        #expect(log.errors == [])

        try await Task.detached { try cluster.pause() }.value
        controller.setText("berg")
        await Self.settle(controller)
        #expect(log.errors.count == 1)
        #expect(log.errors.first?.contains("PostgreSQL") == true, "\(log.errors)")
        #expect(controller.results?.items == shown, "the last results stay on screen")
        #expect(controller.results?.query.text == "ber")

        let before = controller.corpus.model.ids
        await #expect(throws: SearchCorpus.Error.self) {
          try await controller.apply([
            .insert(SearchModel.Record(fields: [["bergamotx"]], attributes: ["Italian"]), at: nil)
          ])
        }
        #expect(controller.corpus.model.ids == before, "a refused change is made nowhere")

        try await Task.detached { try cluster.resume() }.value
        // Each keystroke tries again; the pool may take a moment to reconnect.
        for attempt in 0..<40 where controller.results?.query.text != "berg" {
          controller.setText(attempt % 2 == 0 ? "bergs" : "berg")
          controller.setText("berg")
          await Self.settle(controller)
          if controller.results?.query.text != "berg" {
            try await Task.sleep(for: .milliseconds(250))
          }
        }
        var fresh = IncrementalFilter()
        let expected = fresh.search(
          try SearchQuery("berg", normalizer: corpus.normalizer), scope: 0, in: controller.corpus)
        #expect(controller.results?.items == expected?.items)
        #expect(controller.results?.query.text == "berg", "\(log.errors.suffix(3))")
        withExtendedLifetime(token) {}
      }
    }

    /// The connection drops in the middle of a search (the server ends the session while the
    /// search waits for a table another session locked): a lost connection is reported with
    /// what to do, the results on screen stay, and the next keystroke searches again.
    @Test func connectionDroppedMidSearch() async throws {
      try await Self.withBackend("words/sample") { corpus, backend, cluster in
        let (controller, log, token, shown) = try await Self.showingBer(corpus, backend)

        let locker = Task.detached {
          _ = try? cluster.psql(
            "BEGIN; LOCK TABLE items IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(300)")
        }
        try await Self.poll(
          cluster,
          until:
            "SELECT count(*) FROM pg_locks WHERE granted AND mode = 'AccessExclusiveLock' AND relation = 'items'::regclass"
        )
        controller.setText("berg")
        try await Self.poll(
          cluster, until: "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        _ = try await Task.detached {
          try cluster.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
        }.value
        await Self.settle(controller)
        #expect(log.errors.count == 1, "\(log.errors)")
        #expect(log.errors.first?.contains("ended the connection") == true, "\(log.errors)")
        #expect(log.errors.first?.contains("tries again") == true)
        #expect(controller.results?.items == shown, "the last results stay on screen")
        #expect(controller.results?.query.text == "ber")

        _ = try await Task.detached {
          try cluster.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
              + "WHERE query LIKE '%pg_sleep%' AND pid <> pg_backend_pid()")
        }.value
        await locker.value
        controller.setText("ber")
        controller.setText("berg")
        await Self.settle(controller)
        var fresh = IncrementalFilter()
        let expected = fresh.search(
          try SearchQuery("berg", normalizer: corpus.normalizer), scope: 0, in: controller.corpus)
        #expect(controller.results?.query.text == "berg", "\(log.errors)")
        #expect(controller.results?.items == expected?.items)
        withExtendedLifetime(token) {}
      }
    }

    /// A background-mode controller over the server with the results of "ber" on screen, the
    /// log of its error events (kept while the token lives), and those results.
    private static func showingBer(_ corpus: SearchCorpus, _ backend: PostgresSearchBackend)
      async throws -> (SearchController, Log, SearchController.ObservationToken, [ItemID])
    {
      let controller = try SearchController(
        corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
      let log = Log()
      let token = controller.observe { event in
        if case .error(let message) = event { log.errors.append(message) }
      }
      controller.begin()
      controller.setText("ber")
      await settle(controller)
      return (controller, log, token, try #require(controller.results?.items))
    }

    /// Waits until the controller is idle, as `waitUntilIdle()` does, but records what it
    /// waits for and returns after `limit`: a request that never ends fails the test with the
    /// driver's state instead of hanging the whole run (a bound, not a timing assertion).
    static func settle(
      _ controller: SearchController, within limit: Duration = .seconds(180),
      sourceLocation: SourceLocation = #_sourceLocation
    ) async {
      let clock = ContinuousClock()
      let deadline = clock.now + limit
      while !controller.isIdle {
        guard clock.now < deadline else {
          Issue.record(
            "not idle after \(limit): \(controller.diagnosticDescription)",
            sourceLocation: sourceLocation)
          return
        }
        try? await Task.sleep(for: .milliseconds(20))
      }
    }

    /// Waits until a count query answers more than zero (a bound, not a timing assertion).
    static func poll(_ cluster: ThrowawayCluster, until sql: String) async throws {
      for _ in 0..<600 {
        let count = try await Task.detached { try cluster.psql(sql) }.value
        if let value = Int(count.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0 {
          return
        }
        try await Task.sleep(for: .milliseconds(100))
      }
      Issue.record("never true: \(sql)")
    }

    /// A search the server stops at its time limit is reported as a timeout that says what to
    /// do.
    @Test func statementTimeoutIsReported() async throws {
      try await Self.withBackend("cities/cities") { corpus, _, cluster in
        let impatient = try PostgresSearchBackend(
          address: try cluster.address, table: "items", schema: corpus.model.schema,
          normalizer: corpus.normalizer, statementTimeout: .milliseconds(1))
        do {
          // A fuzzy term over every alternate name: a regular expression on each row.
          _ = try await impatient.items(
            matching: try SearchQuery("'aeiou", normalizer: corpus.normalizer), scope: 0)
          Issue.record("the search finished within 1 ms")
        } catch let error as SearchBackendError {
          #expect(error.code == .timeout, "\(error)")
          #expect(error.advice.contains("narrow"))
        }
        await impatient.close()
      }
    }

    /// A server that is not there is reported as unreachable (a refused connection fails at
    /// once; one that hangs, after the connect timeout).
    @Test func unreachableServer() async throws {
      let corpus = try await Task.detached { try DataSets.corpus("words/sample") }.value
      // A port held without listening: refused, and no other test's cluster can take it.
      let closed = try PortListener(listening: false)
      defer { closed.close() }
      let port = closed.port
      let backend = try PostgresSearchBackend(
        address: try PostgresAddress(
          url: "postgres://search@127.0.0.1:\(port)/postgres?sslmode=disable"),
        table: "items", schema: corpus.model.schema, normalizer: corpus.normalizer,
        connectTimeout: .seconds(1))
      do {
        _ = try await backend.items(
          matching: try SearchQuery("a", normalizer: corpus.normalizer), scope: 0)
        Issue.record("a search without a server answered")
      } catch let error as SearchBackendError {
        #expect(error.code == .unreachable, "\(error)")
        #expect(error.description.contains("127.0.0.1:\(port)"))
      }
    }

    /// Keyset pages, read one after another, are the whole result in order; a paging window
    /// reads only the pages it shows.
    @Test func pagesMakeTheWholeResult() async throws {
      try await Self.withBackend("cities/cities") { corpus, backend, _ in
        for (text, scope) in [("ber", 0), ("!a", 5), ("'zrh", 0), ("^san", 2)] {
          let query = try SearchQuery(text, normalizer: corpus.normalizer)
          let whole = try await backend.items(matching: query, scope: scope)
          var pages: [ItemID] = []
          var cursor: PostgresCursor?
          var count = 0
          repeat {
            let page = try await backend.page(
              matching: query, scope: scope, after: cursor, limit: 100)
            #expect(page.rows.count <= 100)
            #expect(page.next == nil || page.rows.count == 100)
            for row in page.rows { #expect(row.record == corpus.model.record(of: row.id)) }
            pages += page.rows.map(\.id)
            cursor = page.next
            count += 1
          } while cursor != nil && count < 200
          #expect(pages == whole, "\(text) in scope \(scope)")
        }
        // A paging window over the server shows, page for page, what a window over the
        // in-memory engine shows, and reads the same pages: the visible one and its neighbours.
        let memory = MemorySearchBackend(corpus: corpus)
        for (text, scope) in [("ber", 0), ("!a", 5), ("^san", 2)] {
          let query = try SearchQuery(text, normalizer: corpus.normalizer)
          let render: @Sendable (ItemID, SearchModel.Record) throws -> SearchModel.Record = { $1 }
          let server = try BackendPagingWindow(
            backend: backend, query: query, scope: scope, pageSize: 25, render: render)
          let local = try BackendPagingWindow(
            backend: memory, query: query, scope: scope, pageSize: 25, render: render)
          for page in [0, 1, 2, 3, 9, 8, 2, 400] {
            try await server.show(page: page)
            try await local.show(page: page)
            #expect(server.currentPage == local.currentPage, "\(text) page \(page)")
            #expect(server.visibleRows.map(\.item) == local.visibleRows.map(\.item))
            #expect(server.visibleRows.map(\.row) == local.visibleRows.map(\.row))
            #expect(server.materializedPages == local.materializedPages)
            #expect(server.pagesRead == local.pagesRead, "\(text) page \(page)")
            #expect(server.pageCount == local.pageCount)
          }
        }
      }
    }
  }

  @MainActor
  private final class Log {
    var errors: [String] = []
  }
#endif
