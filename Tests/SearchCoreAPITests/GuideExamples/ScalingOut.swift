#if PostgreSQL
  // The ScalingOut guide's swift block, verbatim (GuideExampleTests checks that every swift block
  // of the guides is in this folder).
  import SearchCore
  import SearchDataSets
  import SearchPostgres

  /// A product as the app shows it in a row.
  struct Product: Sendable {
    let id: ItemID
    let name: String

    init(id: ItemID, record: SearchModel.Record) {
      self.id = id
      name = record.fields.first?.first ?? ""
    }
  }

  /// Pages of the products read from a PostgreSQL server.
  ///
  /// Compiled only, never called: it needs a server with the products loaded into a table
  /// (SearchPostgresTests drive the paging window over a throwaway cluster).
  @MainActor
  func scalingOutExample(text: String) async throws {
    let manifest = try Manifest.load(from: "Corpus/products/products.manifest.json")
    let normalizer = try Normalizer()  // the folding the table was loaded with
    let backend = try PostgresSearchBackend(
      address: try PostgresAddress(url: "postgres://search@db.example/catalogue"),
      table: "products", schema: try manifest.schema(), normalizer: normalizer)
    let window = try BackendPagingWindow(
      backend: backend, query: try SearchQuery(text, normalizer: normalizer), pageSize: 50
    ) { id, record in Product(id: id, record: record) }
    try await window.show(page: 0)  // reads pages 0 and 1
    try await window.showNext()  // reads page 2 only
  }
#endif
