#if PostgreSQL
  import SearchCore
  import SearchEngine
  import SearchDataSets
  import SearchPostgres
  import Testing

  /// PostgreSQL answers as the in-memory engine does, query for query: the same items, in the
  /// same order.
  @Suite struct DifferentialTests {
    static let queriesPerDataSet = 520

    @Test(arguments: ["cities/cities", "words/sample"])
    func sameItemsAsInMemory(dataSet: String) async throws {
      let corpus = try DataSets.corpus(dataSet)
      try await ThrowawayCluster.with { cluster in
        let backend = try cluster.backend(
          table: "differential", schema: corpus.model.schema, normalizer: corpus.normalizer)
        do {
          try await backend.load(corpus.model)
          try await backend.checkTable()
          let memory = MemorySearchBackend(corpus: corpus)
          var drawer = QueryDrawer(model: corpus.model, seed: 0x5EA2C4)
          let scopes = corpus.scopeBar.scopes.count
          var nonEmpty = 0
          for index in 0..<Self.queriesPerDataSet {
            let text = drawer.next()
            let query = try SearchQuery(text, syntax: .extended, normalizer: corpus.normalizer)
            let scope = index % scopes
            let expected = try await memory.items(matching: query, scope: scope)
            let found: [ItemID]
            do { found = try await backend.items(matching: query, scope: scope) } catch {
              print("failed: \(text) scope \(scope): \(error)")
              throw error
            }
            #expect(found == expected, "\(dataSet): \"\(text)\" in scope \(scope)")
            if found != expected { break }
            if !expected.isEmpty { nonEmpty += 1 }
          }
          // The draw is not degenerate: most queries find something, some find nothing.
          #expect(nonEmpty > Self.queriesPerDataSet / 3)
          #expect(nonEmpty < Self.queriesPerDataSet)
          // Hostile text changed nothing on the server.
          try await backend.checkTable()
          await backend.close()
        }
      }
    }

    /// Fuzzy terms past the length a regular expression can take answer as in memory: one of
    /// 100 characters drawn in order from a long value finds it, and one of 100,000 characters
    /// finds nothing, without an error.
    @Test func longFuzzyTermsAnswerAsInMemory() async throws {
      let long = (0..<40).map { "word\($0)" }.joined(separator: " ")
      let lines = [long, "short", String(long.prefix(150))]
      let input = try LineInput(bytes: Array(lines.joined(separator: "\n").utf8), source: "t")
      let corpus = try SearchCorpus(model: DataSetLoader.loadLines(input), normalizer: Normalizer())
      let characters = long.filter { $0 != " " }.map { $0 }  // a space would split the term
      let drawn = stride(from: 0, to: characters.count, by: 3).prefix(100).map { characters[$0] }
      let queries = [
        "'" + String(drawn), "'" + String(repeating: "ab", count: 50_000),
        "'" + String(drawn) + " short", "!'" + String(drawn),
      ]
      try await ThrowawayCluster.with { cluster in
        let backend = try cluster.backend(
          table: "long", schema: corpus.model.schema, normalizer: corpus.normalizer)
        try await backend.load(corpus.model)
        let memory = MemorySearchBackend(corpus: corpus)
        for text in queries {
          let query = try SearchQuery(text, syntax: .extended, normalizer: corpus.normalizer)
          let expected = try await memory.items(matching: query, scope: 0)
          let found = try await backend.items(matching: query, scope: 0)
          #expect(found == expected, "\(text.prefix(40))…")
        }
        // The drawn term matches the long line (its characters in order), not "short".
        let drawnQuery = try SearchQuery(
          "'" + String(drawn), syntax: .extended, normalizer: corpus.normalizer)
        let matched = try await backend.items(matching: drawnQuery, scope: 0).map(\.rawValue)
        #expect(matched.contains(0) && !matched.contains(1), "\(matched)")
        await backend.close()
      }
    }

    /// Under latin folding, runs transliterated with context and terms with spaces (which also
    /// match without them) answer alike on the server.
    @Test func sameItemsUnderLatinFolding() async throws {
      let lines = [
        "Οδυσσεύς", "Odysseus", "你好", "ni hao", "nihao", "你好 世界", "コーヒー", "kohi",
        "ラーメン", "Москва", "Moskva", "Санкт-Петербург", "北京市", "new york", "Newyork",
        "東京タワー", "Ευρώπη", "hao ni",
      ]
      let queries = [
        "odysseus", "Οδυσσεύς", "nihao", "你好", "ni\\ hao", "!ni\\ hao", "^ni\\ hao$",
        "'ni\\ hao", "ni\\ hao$", "^ni\\ hao", "a | !ni\\ hao", "kohi", "ramen", "moskva",
        "sankt-peterburg", "beijing", "new\\ york", "!new\\ york", "tawa", "europe", "hao ni",
        "shi\\ jie", "nihao\\ shijie",
      ]
      let input = try LineInput(bytes: Array(lines.joined(separator: "\n").utf8), source: "t")
      let normalizer = try Normalizer(folding: [.case, .diacritics, .compatibility, .latin])
      let corpus = try SearchCorpus(model: DataSetLoader.loadLines(input), normalizer: normalizer)
      try await ThrowawayCluster.with { cluster in
        let backend = try cluster.backend(
          table: "latin", schema: corpus.model.schema, normalizer: normalizer)
        try await backend.load(corpus.model)
        let memory = MemorySearchBackend(corpus: corpus)
        for text in queries {
          let query = try SearchQuery(text, syntax: .extended, normalizer: normalizer)
          let expected = try await memory.items(matching: query, scope: 0)
          let found = try await backend.items(matching: query, scope: 0)
          #expect(found == expected, "\"\(text)\"")
          #expect(!expected.isEmpty || text.hasPrefix("!"), "\"\(text)\"")
        }
        await backend.close()
      }
    }
  }
#endif
