#if PostgreSQL
  import Foundation
  import SearchCore
  import SearchEngine
  import SearchPostgres
  import Testing

  /// Searches read from a streaming standby (`pg_basebackup -R`), loads and changes go to the
  /// primary: the standby's answers are the in-memory engine's, a client's own change is in its
  /// next search, and a standby that stops is an error until it is back.
  @Suite struct ReplicaTests {
    @Test func searchesReadTheStandbyAndSeeTheClientsOwnChanges() async throws {
      let corpus = try DataSets.corpus("words/sample")
      try await ThrowawayCluster.with { primary in
        // A standby that applies each commit 300 ms late: a search right after a change
        // would not have it without waiting for the replay.
        let standby = try await Task.detached { try primary.startStandby(applyDelay: "300ms") }
          .value
        do {
          try await Self.exercise(corpus: corpus, primary: primary, standby: standby)
          await Task.detached { standby.stop() }.value
        } catch {
          await Task.detached { standby.stop() }.value
          throw error
        }
      }
    }

    private static func exercise(
      corpus: SearchCorpus, primary: ThrowawayCluster, standby: ThrowawayCluster
    ) async throws {
      #expect(
        try standby.psql("SELECT pg_is_in_recovery()").trimmingCharacters(
          in: .whitespacesAndNewlines)
          == "t")
      let backend = try PostgresSearchBackend(
        address: try primary.address, replica: try standby.address, table: "words",
        schema: corpus.model.schema, normalizer: corpus.normalizer, requestTimeout: .seconds(120),
        replayWait: .seconds(15))
      // Loaded through the primary; the standby has the table once it has replayed the load,
      // which the check after it waits for.
      try await backend.load(corpus.model)
      try await backend.checkTable()
      let memory = MemorySearchBackend(corpus: corpus)
      var drawer = QueryDrawer(model: corpus.model, seed: 0x2E91_1CA5)
      for _ in 0..<60 {
        let text = drawer.next()
        let query = try SearchQuery(text, syntax: .extended, normalizer: corpus.normalizer)
        let expected = try await memory.items(matching: query, scope: 0)
        #expect(try await backend.items(matching: query, scope: 0) == expected, "\(text)")
      }

      // A list folded otherwise than the table: the refusal names the standby, which
      // answered, and says to load the primary.
      let caseOnly = try Normalizer(folding: [.case])
      let refolded = try PostgresSearchBackend(
        address: try primary.address, replica: try standby.address, table: "words",
        schema: corpus.model.schema, normalizer: caseOnly)
      for request in ["check", "search"] {
        var refusal = "an answer"
        do {
          if request == "check" {
            try await refolded.checkTable()
          } else {
            _ = try await refolded.items(
              matching: try SearchQuery("ab", normalizer: caseOnly), scope: 0)
          }
        } catch { refusal = String(describing: error) }
        #expect(refusal.contains("at \(try standby.address) was loaded as"), "\(refusal)")
        #expect(refusal.contains("--into \(try primary.address)"), "\(refusal)")
      }
      await refolded.close()

      // A change goes to the primary; the client's next search, on the standby, has it.
      var record = corpus.model.record(of: corpus.model.id(at: 0))
      record.fields[0] = ["zyqxwv"]
      let added = ItemID(rawValue: 1_000_000)
      let query = try SearchQuery("zyqxwv", syntax: .extended, normalizer: corpus.normalizer)
      for round in 0..<5 {
        try await backend.apply([.insert(added, record, after: nil)])
        #expect(try await backend.items(matching: query, scope: 0) == [added], "round \(round)")
        try await backend.apply([.remove(added)])
        #expect(try await backend.items(matching: query, scope: 0) == [], "round \(round)")
      }

      // A standby that lags more than a search waits: the search fails as stale, and answers
      // once the standby has caught up. The impatient backend waits half a second for a replay
      // held back ten.
      let impatient = try PostgresSearchBackend(
        address: try primary.address, replica: try standby.address, table: "words",
        schema: corpus.model.schema, normalizer: corpus.normalizer,
        replayWait: .milliseconds(500))
      try standby.setApplyDelay("10s")
      try await impatient.apply([.insert(added, record, after: nil)])
      var stale = "an answer"
      do { _ = try await impatient.items(matching: query, scope: 0) } catch {
        stale = String(describing: error)
      }
      #expect(stale.contains("has not replayed this client's last change"), "\(stale)")
      #expect(stale.contains("after 0.5 seconds"), "\(stale)")
      try standby.setApplyDelay("0")
      #expect(try await Self.caughtUp(impatient, query: query) == [added])
      // The removal is the impatient backend's: its own next search waits for it.
      try await impatient.apply([.remove(added)])
      #expect(try await Self.caughtUp(impatient, query: query) == [])
      await impatient.close()

      // The primary stops: searches go on from the standby; a change fails.
      let ab = try SearchQuery("ab", syntax: .extended, normalizer: corpus.normalizer)
      let before = try await backend.items(matching: ab, scope: 0)
      try primary.pause()
      #expect(try await backend.items(matching: ab, scope: 0) == before)
      await #expect(throws: SearchBackendError.self) {
        try await backend.apply([.insert(added, record, after: nil)])
      }
      try primary.resume()

      // The standby stops: a search is an error, not an answer; once it is back, it answers.
      try standby.pause()
      await #expect(throws: SearchBackendError.self) {
        _ = try await backend.items(matching: ab, scope: 0)
      }
      try standby.resume()
      #expect(try await backend.items(matching: ab, scope: 0) == before)
      await backend.close()
    }

    /// `backend`'s answer once its replica has replayed its last change: a stale answer is
    /// asked again, for at most 15 seconds.
    private static func caughtUp(_ backend: PostgresSearchBackend, query: SearchQuery)
      async throws -> [ItemID]
    {
      let deadline = ContinuousClock.now + .seconds(15)
      while true {
        do { return try await backend.items(matching: query, scope: 0) } catch let error
          as SearchBackendError where error.code == .timeout && .now < deadline
        {
          try await Task.sleep(for: .milliseconds(100))
        }
      }
    }
  }
#endif
