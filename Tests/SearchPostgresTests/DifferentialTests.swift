import SearchCore
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
      let backend = try PostgresSearchBackend(
        address: try cluster.address, table: "differential", schema: corpus.model.schema,
        normalizer: corpus.normalizer)
      do {
        try await backend.load(corpus.model)
        try await backend.checkTable()
        let memory = MemorySearchBackend(corpus: corpus)
        var drawer = QueryDrawer(model: corpus.model, seed: 0x5EA2C4)
        let scopes = corpus.scopeBar.scopes.count
        var nonEmpty = 0
        for index in 0..<Self.queriesPerDataSet {
          let text = drawer.next()
          let query = try Query(text, syntax: .extended, normalizer: corpus.normalizer)
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
}
