import Foundation
import SearchCommandLine
import SearchCore
import SearchCoreTesting
import SearchDataSets
import SearchEngine

/// Types the benchmark queries into a ``SearchController`` and compares, keystroke by
/// keystroke and in the same run, with the bare incremental filter: what the controller adds
/// (decisions, events, the results table) in immediate mode, and how little of the work stays
/// on the main actor in background mode.
struct ControllerBenchmark {
  let options: Bench

  func run() throws {
    let normalizer = try Normalizer(folding: try options.folding())
    let path = try options.resolvedCorpusPath()
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(
      manifest: manifest, manifestPath: path)
    guard report.rejected.isEmpty else {
      throw CommandError("\(report.rejected.count) lines rejected, first: \(report.rejected[0])")
    }
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    let texts = try options.queryLines(corpusPath: path).flatMap {
      query in [""] + query.indices.map { String(query[...$0]) }
    }
    let clock = ContinuousClock()

    // Baseline: the incremental filter alone, as `SearchBenchmarks --suite typing` types.
    var filter = IncrementalFilter()
    var bare: [Double] = []
    for text in texts {
      let start = clock.now
      let query = try SearchQuery(text, normalizer: normalizer)
      _ = filter.search(query, scope: 0, in: corpus)
      bare.append((clock.now - start).milliseconds)
    }

    let (immediate, background, backgroundTotal, discarded) = try MainActor.assumeIsolated {
      let immediateController = try SearchController(
        corpus: corpus, scheduler: ManualSearchScheduler())
      immediateController.begin()
      var immediate: [Double] = []
      for text in texts {
        let start = clock.now
        immediateController.setText(text)
        immediate.append((clock.now - start).milliseconds)
      }
      // Background: the main actor only decides and starts; searches run when the scheduler
      // is told, here after each query's keystrokes, so most of them are superseded.
      let scheduler = ManualSearchScheduler()
      let controller = try SearchController(
        corpus: corpus, configuration: SearchConfiguration(mode: .background),
        scheduler: scheduler)
      controller.begin()
      var background: [Double] = []
      let total = clock.now
      for text in texts {
        let start = clock.now
        controller.setText(text)
        background.append((clock.now - start).milliseconds)
        if text.isEmpty { scheduler.runAllSearches() }
      }
      scheduler.runAllSearches()
      return (immediate, background, (clock.now - total).milliseconds, controller.discardedSearches)
    }

    func line(_ name: String, _ values: [Double]) -> String {
      String(
        format: "%@ p50 %.3f ms  p99 %.3f ms  max %.3f ms", name, percentile(values, 0.5),
        percentile(values, 0.99), values.max() ?? .nan)
    }
    print("\(texts.count) keystrokes on \(corpus.model.count) items")
    print(line("bare filter (baseline)      ", bare))
    print(line("controller, immediate       ", immediate))
    print(line("controller, background, main", background))
    print(
      String(
        format:
          "immediate / bare: %.2fx at p50, %.2fx at p99; background main actor / bare: %.3fx at p99",
        percentile(immediate, 0.5) / percentile(bare, 0.5),
        percentile(immediate, 0.99) / percentile(bare, 0.99),
        percentile(background, 0.99) / percentile(bare, 0.99)))
    print(
      String(
        format: "background: %.0f ms in all, %d of %d searches superseded and dropped",
        backgroundTotal, discarded, texts.count))
  }
}
