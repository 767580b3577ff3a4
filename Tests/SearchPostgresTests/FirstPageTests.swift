#if PostgreSQL
  import SearchCore
  import SearchEngine
  import SearchDataSets
  import SearchPostgres
  import Testing

  /// A first page from the server: the first rows of the in-memory answer and a count that is
  /// exact when it says so, an estimate near the truth when not; the sample behind the
  /// estimate follows every change.
  @Suite struct FirstPageTests {
    static let limit = 20

    /// The hash in the names of the table "pages"'s companions (see the table layout).
    static func hash(_ cluster: ThrowawayCluster) throws -> String {
      try cluster.psql(
        "SELECT split_part(indexname, '~', 2) FROM pg_indexes WHERE indexname LIKE 'pages~%~sample_id'"
      ).filter { !$0.isWhitespace }
    }

    /// A page of 2^62 rows, or `Int.max`, is every match: no arithmetic on the limit traps.
    @Test func anyLimitIsEveryMatchWithoutOverflow() async throws {
      let corpus = try DataSets.corpus("words/sample")
      try await ThrowawayCluster.with { cluster in
        let backend = try cluster.backend(
          table: "words", schema: corpus.model.schema, normalizer: corpus.normalizer)
        try await backend.load(corpus.model)
        let memory = MemorySearchBackend(corpus: corpus)
        for text in ["a", "ab", "qqqzzz"] {
          let query = try SearchQuery(text, syntax: .extended, normalizer: corpus.normalizer)
          let expected = try await memory.items(matching: query, scope: 0)
          for limit in [1 << 62, Int.max] {
            let first = try await backend.prefix(matching: query, scope: 0, limit: limit)
            #expect(first.items == expected && first.isComplete, "\(text), \(limit)")
            let page = try await backend.page(matching: query, scope: 0, after: nil, limit: limit)
            #expect(page.rows.map(\.id) == expected && page.next == nil, "\(text), \(limit)")
          }
        }
        await backend.close()
      }
    }

    @Test func firstPagesAnswerAsInMemory() async throws {
      let corpus = try DataSets.corpus("cities/cities")
      try await ThrowawayCluster.with { cluster in
        let backend = try cluster.backend(
          table: "pages", schema: corpus.model.schema, normalizer: corpus.normalizer)
        try await backend.load(corpus.model)
        let memory = MemorySearchBackend(corpus: corpus)
        var drawer = QueryDrawer(model: corpus.model, seed: 0xF125_7A6E)
        let scopes = corpus.scopeBar.scopes.count
        // Drawn queries, and short ones that match much of the list (where only the sample
        // can count in time).
        // Short ones that few rows hold (read from the short grams' lists), and the same
        // in a scope, with an anchor, or beside a longer term.
        let texts =
          (0..<120).map { _ in drawer.next() } + ["a", "e", "an", "o", "s", "'a"]
          + ["東", "ø", "^ö", "ž", "ij", "zq", "東 | ø", "ø ber", "!ø", "ø$", "12"]
        var (complete, estimated) = (0, 0)
        for (index, text) in texts.enumerated() {
          let query = try SearchQuery(text, syntax: .extended, normalizer: corpus.normalizer)
          let scope = index % scopes
          let expected = try await memory.items(matching: query, scope: scope)
          let page = try await backend.prefix(matching: query, scope: scope, limit: Self.limit)
          let what = "\"\(text)\" in scope \(scope)"
          #expect(page.items == Array(expected.prefix(Self.limit)), "\(what)")
          #expect(page.isComplete == (expected.count <= Self.limit), "\(what)")
          if page.isComplete { complete += 1 }
          switch page.count {
          case .exact(let count):
            #expect(count == expected.count, "\(what)")
          case .estimate(let count):
            estimated += 1
            #expect(!page.isComplete && count > page.items.count, "\(what)")
            // One row in 32 is sampled, about 1,060 of these 34,006: past a thousand
            // matches (some 30 sampled, a standard deviation near a fifth), the estimate is
            // within half of the truth.
            if expected.count > 1_000 {
              #expect(abs(count - expected.count) * 2 < expected.count, "\(what): \(count)")
            }
          }
        }
        #expect(complete > 10 && complete < texts.count)
        // "a" matches more than 20,000 of 34,006 cities: no exact count is tried.
        #expect(estimated >= 1)

        // Listed grams to change rows with: two of one scalar, two of two.
        let listed = try cluster.psql(
          "SELECT gram FROM \"pages~\(try Self.hash(cluster))~short\" WHERE cardinality(ids) BETWEEN 3 AND 50 ORDER BY length(gram), gram"
        ).split(separator: "\n").map(String.init).filter {
          $0.unicodeScalars.allSatisfy(\.properties.isAlphabetic)
        }
        let singles = listed.filter { $0.unicodeScalars.count == 1 }.prefix(2)
        let pairs = listed.filter { $0.unicodeScalars.count == 2 }.prefix(2)
        let grams = Array(singles + pairs)
        #expect(grams.count == 4, "\(listed.prefix(20))")
        // Changes reach the sample: its rows stay those of the table whose identity hashes in.
        let changes: [BackendChange] =
          (0..<300).map { .remove(ItemID(rawValue: Int32($0 * 7))) }
          + (0..<200).map {
            .update(
              ItemID(rawValue: Int32($0 * 11 + 1)),
              SearchModel.Record(
                fields: [["Aaron \($0)"], []], attributes: ["1", "XX", "Europe", "7"]))
          }
          + (0..<150).map {
            .insert(
              ItemID(rawValue: Int32(corpus.model.identityLimit + $0)),
              SearchModel.Record(
                fields: [["Anew \($0)"], []], attributes: ["2", "XX", "Asia", "9"]),
              after: nil)
          }
          // Rows that gain a listed gram, and rows that hold one and lose it.
          + grams.enumerated().map { index, gram in
            .insert(
              ItemID(rawValue: Int32(corpus.model.identityLimit + 150 + index)),
              SearchModel.Record(
                fields: [["New \(gram)"], []], attributes: ["3", "XX", "Asia", "9"]),
              after: ItemID(rawValue: Int32(index * 1_000 + 3)))
          }
          + grams.enumerated().map { index, gram in
            .update(
              ItemID(rawValue: Int32(index * 7 + 2)),
              SearchModel.Record(
                fields: [["Now \(gram)"], ["x"]], attributes: ["4", "XX", "Europe", "9"]))
          }
        // And rows holding a listed gram that lose it or go.
        let holders = try grams.map { gram in
          try cluster.psql(
            "SELECT ids[1], ids[2] FROM \"pages~\(try Self.hash(cluster))~short\" WHERE gram = '\(gram)'"
          ).split(separator: "|").compactMap { Int32($0.filter(\.isNumber)) }
        }
        let losing: [BackendChange] = holders.flatMap { ids -> [BackendChange] in
          guard ids.count == 2 else { return [] }
          return [
            .update(
              ItemID(rawValue: ids[0]),
              SearchModel.Record(fields: [["Plain"], []], attributes: ["5", "XX", "Europe", "9"])),
            .remove(ItemID(rawValue: ids[1])),
          ]
        }
        let touched = Set(changes.map(\.id))
        try await backend.apply(changes + losing.filter { !touched.contains($0.id) })
        let table = "\"pages~\(try Self.hash(cluster))~sample\""
        let differing = try cluster.psql(
          """
          SELECT count(*) FROM ((SELECT * FROM \(table) EXCEPT SELECT * FROM pages WHERE (hashint4(id) & 31) = 0) \
          UNION ALL (SELECT * FROM pages WHERE (hashint4(id) & 31) = 0 EXCEPT SELECT * FROM \(table))) d
          """)
        #expect(differing.filter { !$0.isWhitespace } == "0")
        #expect(
          try cluster.psql("SELECT count(*) > 900 FROM \(table)").filter { !$0.isWhitespace } == "t"
        )
        // Each changed gram's list is still every row that holds it (and perhaps more).
        for gram in grams {
          let missing = try cluster.psql(
            """
            SELECT count(*) FROM pages t, \"pages~\(try Self.hash(cluster))~short\" s WHERE s.gram = '\(gram)' \
            AND (strpos(t.f0, s.gram) > 0 OR strpos(t.f1, s.gram) > 0) AND NOT (t.id = ANY(s.ids))
            """)
          #expect(missing.filter { !$0.isWhitespace } == "0", "\(gram)")
        }
        let anchored = grams.map { "^" + $0 }
        for text in ["aaron", "anew", "a", "ber"] + grams + anchored {
          let query = try SearchQuery(text, syntax: .extended, normalizer: corpus.normalizer)
          let all = try await backend.items(matching: query, scope: 0)
          let page = try await backend.prefix(matching: query, scope: 0, limit: Self.limit)
          #expect(page.items == Array(all.prefix(Self.limit)), "\(text)")
          if page.count.isExact { #expect(page.count.value == all.count, "\(text)") }
        }
        await backend.close()
      }
    }
  }
#endif
