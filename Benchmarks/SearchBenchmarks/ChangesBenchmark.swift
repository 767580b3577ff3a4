import Foundation
import SearchCommandLine
import SearchCore
import SearchCoreTesting
import SearchDataSets
import SearchEngine

/// `SearchBenchmarks --suite changes`: what model changes cost the main actor during a search, on a data
/// set with first-letter sections under collation (default cities500, 234,908 items).
///
/// Measured in the same run, like against like:
/// - one insert through ``SearchController/apply(_:)`` (prepared off the main actor), p99 over
///   200 inserts at random positions, against the baseline of the same insert made the way
///   the controller made it before batches: the whole original table rebuilt and compared on
///   the main actor (fewer repetitions, it is slow);
/// - one batch of 1,000 mixed changes (inserts, renames, removals) in one call, against the
///   same 1,000 changes one call each.
struct ChangesBenchmark {
  let options: Bench
  let corpusPath: String

  @MainActor
  func run() async throws {
    let normalizer = try Normalizer(folding: try options.folding())
    let manifest = try Manifest.load(from: corpusPath)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: corpusPath)
    guard report.rejected.isEmpty else {
      throw CommandError("\(report.rejected.count) lines rejected, first: \(report.rejected[0])")
    }
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    guard let field = manifest.fields.first?.name else {
      throw CommandError("\(corpusPath): a data set without fields has nothing to section")
    }
    let options = SearchController.TableOptions(
      sectioning: .firstLetter(field: field), rowOrder: .collation,
      resultsUseOriginalSections: true, locale: "")
    let clock = ContinuousClock()
    let buildStart = clock.now
    let controller = try SearchController(
      corpus: corpus, tableOptions: options, scheduler: ManualSearchScheduler())
    let build = (clock.now - buildStart).milliseconds
    controller.begin()
    controller.setText(self.options.changesQuery)
    let figures = try await Measure(controller: controller, clock: clock, build: build).run()
    if self.options.json {
      var object = JSONObject()
      object.add("items", corpus.model.count)
      object.add("query", self.options.changesQuery)
      object.add("results", figures.results)
      object.add("table_build_ms", figures.build)
      object.add("one_change_main_ms", figures.one)
      object.add("one_change_main_p50_ms", figures.oneMedian)
      object.add("one_change_rebuild_baseline_ms", figures.rebuild)
      object.add("batch_1000_main_ms", figures.batch)
      object.add("batch_1000_wall_ms", figures.batchWall)
      object.add("batch_1000_one_by_one_main_ms", figures.oneByOne)
      print(object.json)
      return
    }
    print(
      "\(corpus.model.count) items, first-letter sections under collation, \"\(self.options.changesQuery)\" shown (\(figures.results) rows); table built in \(format(figures.build)) ms"
    )
    print(
      "one insert, main actor, p99 of 200:         \(format(figures.one)) ms (p50 \(format(figures.oneMedian)) ms)"
    )
    print(
      "  baseline, rebuild and compare on the main actor, p99: \(format(figures.rebuild)) ms: \(String(format: "%.0f", figures.rebuild / figures.one))x the batch path"
    )
    print(
      "1,000 mixed changes in one batch, main actor: \(format(figures.batch)) ms (\(format(figures.batchWall)) ms with the work off the main actor)"
    )
    print(
      "  baseline, the same 1,000 changes one call each, main actor: \(format(figures.oneByOne)) ms: \(String(format: "%.0f", figures.oneByOne / figures.batch))x the batch"
    )
  }

  private func format(_ value: Double) -> String { String(format: "%.3f", value) }

  struct Figures {
    var build, one, oneMedian, rebuild, batch, batchWall, oneByOne: Double
    var results: Int
  }

  /// The measurements, on the main actor; each call awaited before the next (a job of the main
  /// actor that turned the run loop until a call ended would wait for itself: the call's own
  /// jobs are the main actor's).
  @MainActor
  struct Measure {
    let controller: SearchController
    let clock: ContinuousClock
    let build: Double

    func run() async throws -> Figures {
      var random = SystemRandomNumberGenerator()
      let model = controller.corpus.model
      let template = model.record(of: model.id(at: 0))
      func record(_ name: String) -> SearchModel.Record {
        var record = template
        record.fields[0] = [name]
        return record
      }
      let names = ["San Ignacio Nuevo", "Åsele", "Żabbar", "Ñemby", "Ōita", "Zürich-Süd"]
      var ones: [Double] = []
      for step in 0..<200 {
        let position = Int.random(in: 0...controller.corpus.model.count, using: &random)
        try await controller.apply([.insert(record(names[step % names.count]), at: position)])
        ones.append(controller.lastApplyMainActorTime.milliseconds)
      }
      // The baseline: what a change cost before batches, the original table rebuilt and
      // compared with the old one on the main actor.
      var rebuilds: [Double] = []
      for _ in 0..<10 {
        let start = clock.now
        let old = controller.originalTable
        let new = try SectionedTable(
          items: controller.corpus.model.ids, model: controller.corpus.model,
          sectioning: old.sectioning, rowOrder: old.rowOrder, collation: old.collation)
        _ = TableChanges(from: old, to: new)
        rebuilds.append((clock.now - start).milliseconds)
      }
      let batch = mixedChanges(1_000, record: record, random: &random)
      let wallStart = clock.now
      try await controller.apply(batch)
      let wall = (clock.now - wallStart).milliseconds
      let batchMain = controller.lastApplyMainActorTime.milliseconds
      var oneByOne = 0.0
      for change in mixedChanges(1_000, record: record, random: &random) {
        try await controller.apply([change])
        oneByOne += controller.lastApplyMainActorTime.milliseconds
      }
      return Figures(
        build: build, one: percentile(ones, 0.99), oneMedian: percentile(ones, 0.5),
        rebuild: percentile(rebuilds, 0.99), batch: batchMain, batchWall: wall,
        oneByOne: oneByOne, results: controller.resultsTable.numberOfRows)
    }

    /// A third each of inserts, renames and removals, on distinct items; inserts instead of
    /// renames and removals once a small model has no item left to take.
    func mixedChanges(
      _ count: Int, record: (String) -> SearchModel.Record,
      random: inout SystemRandomNumberGenerator
    ) -> [SearchModel.Change] {
      let model = controller.corpus.model
      var items = model.ids
      items.shuffle(using: &random)
      var taken = items.prefix(2 * count / 3).makeIterator()
      return (0..<count).map { index in
        guard index % 3 != 0, let item = taken.next() else {
          return .insert(record("Sankt Nikolai \(index)"), at: nil)
        }
        return index % 3 == 1
          ? .update(item, with: record("Santa Renamed \(index)")) : .remove(item)
      }
    }
  }
}
