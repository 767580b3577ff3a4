import Foundation
import SearchCore
import SearchDataSets
import SearchEngine

#if PostgreSQL
  import SearchPostgres
#endif

/// The keystroke latency of a search over PostgreSQL, beside the in-memory engine's.
///
/// It loads a data set into PostgreSQL, then types the benchmark queries into three search
/// controllers in background mode, keystroke by keystroke in turn (a noisy machine slows all
/// three alike): the in-memory engine (the baseline), the server asked for every result (the
/// identities of every match), and the server asked for a first page and a count
/// (`SearchConfiguration.backendPageSize`).
///
/// A keystroke's latency is from `setText` to the reload of its generation on the main actor, what
/// a user waits for; each keystroke waits for its answer before the next, so none is superseded and
/// every one, the first letter included, counts.
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
      guard options.pageSize > 0 else { throw CommandError("--page-size must be at least 1") }
      let normalizer = try Normalizer(folding: try options.folding())
      let path = try options.resolvedCorpusPath()
      let source = try DataSource.load(input: nil, corpus: path)
      let corpus = try SearchCorpus(model: source.model, normalizer: normalizer)
      let backend = try PostgresSearchBackend(
        address: try PostgresAddress(url: url), table: try Server.tableName(forManifest: path),
        schema: source.model.schema, normalizer: normalizer, statementTimeout: nil)
      let report = try await backend.load(source.model)
      let texts = try options.queryLines(corpusPath: path).flatMap {
        query in query.indices.map { String(query[...$0]) }
      }
      let run = try await Self.type(texts, corpus: corpus, backend: backend, page: options.pageSize)
      if let limit = options.showSlowerThan {
        for (text, latency) in zip(texts, run.firstPage) where latency > limit {
          print(String(format: "slow first page: %8.2f ms  \"%@\"", latency, text))
        }
      }
      await backend.close()
      let figures = Figures(run: run, items: corpus.model.count, page: options.pageSize)
      if options.json {
        var json = JSONObject()
        json.add("items", corpus.model.count)
        json.add("keystrokes", texts.count)
        json.add("page_size", options.pageSize)
        json.add("load_copy_s", report.copying.milliseconds / 1000)
        json.add("load_index_s", report.indexing.milliseconds / 1000)
        figures.add(to: &json)
        json.add("rss_mb", ResidentMemory.peakMegabytes())
        print(json.json)
        return
      }
      print(
        "\(corpus.model.count) items; load: copying \(Self.text(report.copying)) (folding and COPY), indexing \(Self.text(report.indexing)) (pg_trgm GIN, sample)"
      )
      figures.print(keystrokes: texts.count)
      print(
        String(
          format: "peak resident memory of this process: %.0f MB", ResidentMemory.peakMegabytes()))
    }
  #endif

  private static func text(_ duration: Duration) -> String {
    String(format: "%.1f s", duration.milliseconds / 1000)
  }

  /// What each keystroke cost in each of the three controllers, and how the first-page
  /// controller counted.
  struct Run {
    var memory: [Double] = []
    var everyResult: [Double] = []
    var firstPage: [Double] = []
    /// Keystrokes whose first page was the whole answer, or came with an exact or an
    /// estimated count.
    var complete = 0
    var exact = 0
    var estimated = 0
    /// For each estimate: |estimate − true count| / true count, the true count from memory.
    var estimateErrors: [Double] = []
    /// Keystrokes whose first page differed from the first rows of the in-memory answer (or
    /// from all of it, for a page that says it is the whole answer), or whose exact count
    /// differed from its size, or whose every-result answer differed: 0 unless the server
    /// answers wrongly.
    var mismatches = 0
  }

  struct Figures {
    let run: Run
    let items: Int
    let page: Int

    func add(to json: inout JSONObject) {
      for (name, values) in [
        ("memory", run.memory), ("server_all", run.everyResult), ("server_page", run.firstPage),
      ] {
        json.add("\(name)_p50_ms", percentile(values, 0.5))
        json.add("\(name)_p99_ms", percentile(values, 0.99))
        json.add("\(name)_max_ms", values.max() ?? .nan)
      }
      json.add("page_complete", run.complete)
      json.add("page_count_exact", run.exact)
      json.add("page_count_estimated", run.estimated)
      json.add("estimate_error_p50", percentile(run.estimateErrors, 0.5))
      json.add("estimate_error_max", run.estimateErrors.max() ?? .nan)
      json.add("page_mismatches", run.mismatches)
    }

    func print(keystrokes: Int) {
      func line(_ name: String, _ values: [Double]) -> String {
        String(
          format: "%@ p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms", name, percentile(values, 0.5),
          percentile(values, 0.99), values.max() ?? .nan)
      }
      Swift.print(
        "\(keystrokes) keystrokes, each from setText to its reload, background mode, the three controllers in turn:"
      )
      Swift.print(line("in memory (baseline)              ", run.memory))
      Swift.print(line("PostgreSQL, every result          ", run.everyResult))
      Swift.print(line("PostgreSQL, first \(page) rows + count", run.firstPage))
      Swift.print(
        String(
          format:
            "every result / in memory: %.1fx at p99; first page / in memory: %.1fx at p99; first page / every result: %.2fx at p99",
          percentile(run.everyResult, 0.99) / percentile(run.memory, 0.99),
          percentile(run.firstPage, 0.99) / percentile(run.memory, 0.99),
          percentile(run.firstPage, 0.99) / percentile(run.everyResult, 0.99)))
      Swift.print(
        String(
          format:
            "first pages: %d the whole answer, %d with an exact count, %d with an estimate (error p50 %.1f %%, max %.1f %%); %d differ from memory",
          run.complete, run.exact, run.estimated, percentile(run.estimateErrors, 0.5) * 100,
          (run.estimateErrors.max() ?? .nan) * 100, run.mismatches))
    }
  }

  /// Types the keystrokes into the three controllers in turn, waiting for each one's reload.
  @MainActor
  private static func type(
    _ texts: [String], corpus: SearchCorpus, backend: any SearchBackend, page: Int
  ) async throws -> Run {
    let memory = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background))
    let everyResult = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
    let firstPage = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background, backendPageSize: page),
      backend: backend)
    var errors: [String] = []
    let tokens = [memory, everyResult, firstPage].map { controller in
      controller.observe { event in
        if case .error(let message) = event { errors.append(message) }
      }
    }
    let clock = ContinuousClock()
    var run = Run()
    for controller in [memory, everyResult, firstPage] { controller.begin() }
    for text in texts {
      for (controller, path) in [
        (memory, \Run.memory), (everyResult, \Run.everyResult), (firstPage, \Run.firstPage),
      ] {
        let start = clock.now
        controller.setText(text)
        await controller.waitUntilIdle()
        run[keyPath: path].append((clock.now - start).milliseconds)
        if let error = errors.first { throw CommandError("\"\(text)\": \(error)") }
      }
      let truth = memory.results?.items ?? []
      guard let shown = firstPage.results else { continue }
      if shown.isComplete {
        run.complete += 1
      } else if shown.count.isExact {
        run.exact += 1
      } else {
        run.estimated += 1
        if !truth.isEmpty {
          run.estimateErrors.append(
            abs(Double(shown.count.value - truth.count)) / Double(truth.count))
        }
      }
      if Array(truth.prefix(shown.items.count)) != shown.items
        || (shown.isComplete && shown.items.count != truth.count)
        || (shown.count.isExact && shown.count.value != truth.count)
        || everyResult.results?.items != truth
      {
        run.mismatches += 1
      }
    }
    withExtendedLifetime(tokens) {}
    return run
  }
}
