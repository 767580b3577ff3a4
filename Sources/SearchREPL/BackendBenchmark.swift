import Foundation
import SearchCore
import SearchDataSets

#if PostgreSQL
  import SearchPostgres
#endif

/// Loads a data set into PostgreSQL, then types the benchmark queries into a search controller
/// in background mode twice in the same run: answered by the server, and by the in-memory
/// engine (the baseline). A keystroke's latency is from `setText` to the reload of its
/// generation on the main actor, what a user waits for; each keystroke waits for its answer
/// before the next, so none is superseded and every one, the first letter included, counts.
struct BackendBenchmark {
  let options: Bench
  let url: String

  @MainActor
  func run() async throws {
    #if PostgreSQL
      try await measure()
    #else
      throw Server.unavailable("bench --suite backend")
    #endif
  }

  #if PostgreSQL
    @MainActor
    private func measure() async throws {
      let normalizer = try Normalizer(folding: try options.folding())
      let path = try options.resolvedCorpusPath()
      let source = try DataSource.load(input: nil, corpus: path)
      let corpus = try SearchCorpus(model: source.model, normalizer: normalizer)
      let backend = try PostgresSearchBackend(
        address: try PostgresAddress(url: url), table: try Load.tableName(forManifest: path),
        schema: source.model.schema, normalizer: normalizer, statementTimeout: nil)
      let report = try await backend.load(source.model)
      let texts = try options.queryLines(corpusPath: path).flatMap {
        query in query.indices.map { String(query[...$0]) }
      }
      let memory = try await Self.type(texts, corpus: corpus, backend: nil)
      let server = try await Self.type(texts, corpus: corpus, backend: backend)
      await backend.close()

      func line(_ name: String, _ values: [Double]) -> String {
        String(
          format: "%@ p50 %.2f ms  p99 %.2f ms  max %.2f ms", name, percentile(values, 0.5),
          percentile(values, 0.99), values.max() ?? .nan)
      }
      print(
        "\(corpus.model.count) items; load: copying \(Self.text(report.copying)) (folding and COPY), indexing \(Self.text(report.indexing)) (pg_trgm GIN)"
      )
      print("\(texts.count) keystrokes, each from setText to its reload, background mode")
      print(line("in memory (baseline)", memory))
      print(line("PostgreSQL          ", server))
      print(
        String(
          format: "PostgreSQL / in memory: %.1fx at p50, %.1fx at p99",
          percentile(server, 0.5) / percentile(memory, 0.5),
          percentile(server, 0.99) / percentile(memory, 0.99)))
    }
  #endif

  private static func text(_ duration: Duration) -> String {
    String(format: "%.1f s", duration.milliseconds / 1000)
  }

  /// Types the keystrokes, waiting for each one's reload; returns the latencies in ms.
  @MainActor
  private static func type(_ texts: [String], corpus: SearchCorpus, backend: (any SearchBackend)?)
    async throws -> [Double]
  {
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
    var errors: [String] = []
    let token = controller.observe { event in
      if case .error(let message) = event { errors.append(message) }
    }
    controller.begin()
    let clock = ContinuousClock()
    var latencies: [Double] = []
    for text in texts {
      let start = clock.now
      controller.setText(text)
      await controller.waitUntilIdle()
      latencies.append((clock.now - start).milliseconds)
      if let error = errors.first { throw CommandError("\"\(text)\": \(error)") }
    }
    withExtendedLifetime(token) {}
    return latencies
  }
}
