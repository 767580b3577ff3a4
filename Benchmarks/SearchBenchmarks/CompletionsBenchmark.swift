import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

/// `SearchBenchmarks --suite completions`: the top 10 completions of every keystroke of the data set's
/// queries (default cities500), in the scope of all items and in the smallest scope.
///
/// Measured in the same run: the completion index's build against the corpus's own build
/// (the index is built on first use, so this is what the first completion costs), and the
/// cost of a collation sort key for every candidate, which the index leaves out (ties rank
/// by the folded text's byte order). Latencies are reported against the target of 2 ms per
/// keystroke at p99.
struct CompletionsBenchmark {
  let options: Bench

  /// The latency a keystroke's completions should stay under at p99.
  static let targetMilliseconds = 2.0
  /// How many completions each keystroke asks for.
  static let limit = 10

  func run() throws {
    let clock = ContinuousClock()
    let normalizer = try Normalizer(folding: try options.folding())
    let path = try options.resolvedCorpusPath()
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
    guard report.rejected.isEmpty else {
      throw CommandError("\(report.rejected.count) lines rejected, first: \(report.rejected[0])")
    }
    var start = clock.now
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    let corpusBuild = (clock.now - start).milliseconds
    start = clock.now
    corpus.buildCompletions()
    let completionsBuild = (clock.now - start).milliseconds
    let candidates = corpus.completionCandidateCount
    let memory = Double(corpus.completionMemoryBytes) / 1_048_576

    // What collation keys for every candidate would add to the build (one thread).
    let keys = corpus.completionKeys
    let collator = try ICU.Collator(locale: normalizer.locale ?? "")
    start = clock.now
    var keyBytes = 0
    for key in keys { keyBytes += collator.sortKey(key).count }
    let collation = (clock.now - start).milliseconds
    if keyBytes < 0 { print(keyBytes) }

    let texts = try options.queryLines(corpusPath: path).flatMap { query in
      query.indices.map { String(query[...$0]) }
    }
    let (scope, scopeItems) = smallestScope(of: corpus)
    var all: [Double] = []
    var scoped: [Double] = []
    var found = 0
    for text in texts {
      start = clock.now
      found += corpus.completions(for: text, scope: 0, limit: Self.limit).count
      all.append((clock.now - start).milliseconds)
      start = clock.now
      found += corpus.completions(for: text, scope: scope, limit: Self.limit).count
      scoped.append((clock.now - start).milliseconds)
      if let limit = options.showSlowerThan {
        for (scope, time) in [(0, all[all.count - 1]), (scope, scoped[scoped.count - 1])]
        where time > limit {
          print(String(format: "slow: %8.3f ms  scope %d  \"%@\"", time, scope, text))
        }
      }
    }
    // A set asked for once (a scope and a passing token filter) has no rank: the walk by
    // weight over every item, then the scan. Its worst case: one letter (the widest ranges)
    // in the smallest scope, where the heaviest candidates are mostly outside it.
    var unranked: [Double] = []
    for text in texts {
      start = clock.now
      found += corpus.completionsWithoutRank(for: text, scope: scope, limit: Self.limit).count
      unranked.append((clock.now - start).milliseconds)
    }
    var letters: [Double] = []
    for letter in "abcdefghijklmnopqrstuvwxyz" {
      start = clock.now
      found +=
        corpus.completionsWithoutRank(for: String(letter), scope: scope, limit: Self.limit)
        .count
      letters.append((clock.now - start).milliseconds)
    }
    start = clock.now
    let rankBytes = corpus.buildCompletionRank(scope: scope)
    let rankBuild = (clock.now - start).milliseconds

    let figures = Figures(
      items: model.count, candidates: candidates, memoryMegabytes: memory,
      corpusBuild: corpusBuild, completionsBuild: completionsBuild, collationKeys: collation,
      keystrokes: texts.count, found: found, all: all,
      scopeTitle: corpus.scopeBar.scopes[scope].title, scopeItems: scopeItems, scoped: scoped,
      unranked: unranked, letters: letters, rankBuild: rankBuild,
      rankMegabytes: Double(rankBytes) / 1_048_576)
    print(options.json ? figures.json : figures.text)
  }

  /// The scope with the fewest items (the first of all items when there is no other), and its
  /// number of items.
  private func smallestScope(of corpus: SearchCorpus) -> (scope: Int, items: Int) {
    let model = corpus.model
    var best = (scope: 0, items: model.count)
    for (index, scope) in corpus.scopeBar.scopes.enumerated() {
      guard let name = scope.attribute, let attribute = model.schema.attributeIndex(named: name)
      else { continue }
      let members = model.ids.reduce(0) {
        $0 + (scope.values.contains(model.attribute(attribute, of: $1)) ? 1 : 0)
      }
      if members > 0 && (best.scope == 0 || members < best.items) { best = (index, members) }
    }
    return best
  }

  struct Figures {
    var items, candidates: Int
    var memoryMegabytes, corpusBuild, completionsBuild, collationKeys: Double
    var keystrokes, found: Int
    var all: [Double]
    var scopeTitle: String
    var scopeItems: Int
    var scoped, unranked, letters: [Double]
    var rankBuild, rankMegabytes: Double

    var json: String {
      var object = JSONObject()
      object.add("items", items)
      object.add("candidates", candidates)
      object.add("index_memory_mb", memoryMegabytes)
      object.add("corpus_build_ms", corpusBuild)
      object.add("completions_build_ms", completionsBuild)
      object.add("completions_build_vs_corpus_build", completionsBuild / corpusBuild)
      object.add("collation_keys_ms", collationKeys)
      object.add("keystrokes", keystrokes)
      object.add("limit", CompletionsBenchmark.limit)
      object.add("target_ms", CompletionsBenchmark.targetMilliseconds)
      for (name, values) in [("all", all), ("scope", scoped), ("scope_unranked", unranked)] {
        object.add("\(name)_p50_ms", percentile(values, 0.5))
        object.add("\(name)_p99_ms", percentile(values, 0.99))
        object.add("\(name)_max_ms", values.max() ?? 0)
        object.add(
          "\(name)_p99_vs_target",
          percentile(values, 0.99) / CompletionsBenchmark.targetMilliseconds)
      }
      object.add("scope_title", scopeTitle)
      object.add("scope_items", scopeItems)
      object.add("scope_unranked_one_letter_max_ms", letters.max() ?? 0)
      object.add("scope_rank_build_ms", rankBuild)
      object.add("scope_rank_memory_mb", rankMegabytes)
      return object.json
    }

    var text: String {
      func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
      func line(_ name: String, _ values: [Double]) -> String {
        let p99 = percentile(values, 0.99)
        return
          "\(name): p50 \(ms(percentile(values, 0.5)))  p99 \(ms(p99))  max \(ms(values.max() ?? 0))"
          + String(format: "  (p99 %.2fx the %.0f ms target)", p99 / target, target)
      }
      let target = CompletionsBenchmark.targetMilliseconds
      return [
        "\(items) items, \(candidates) completion candidates, index \(String(format: "%.1f", memoryMegabytes)) MB",
        "corpus build \(ms(corpusBuild)); completion index build \(ms(completionsBuild))"
          + String(
            format: " (%.2fx the corpus build, on first use)", completionsBuild / corpusBuild),
        "collation sort keys for every candidate (left out; ties by byte order): \(ms(collationKeys))"
          + String(format: " (%.2fx the index build)", collationKeys / completionsBuild),
        "keystrokes: \(keystrokes) (every prefix of every query, top \(CompletionsBenchmark.limit) each)",
        line("scope All", all),
        line("scope \(scopeTitle) (\(scopeItems) items)", scoped),
        "  its rank (built at its second lookup, which it slows): \(ms(rankBuild)),"
          + String(format: " %.1f MB", rankMegabytes),
        line("scope \(scopeTitle) without its rank (a set asked for once)", unranked),
        "  one letter a-z without the rank: max \(ms(letters.max() ?? 0))",
      ].joined(separator: "\n")
    }
  }
}
