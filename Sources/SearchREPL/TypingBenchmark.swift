import Foundation
import SearchCore

/// Types a fixed list of queries character by character into the incremental filter, as a
/// person at a search field would, and measures every keystroke.
struct TypingBenchmark {
  let options: Bench

  /// Every how many queries the scope changes (and the query runs again, a full scan).
  static let scopeChangeEvery = 10

  private struct Keystroke {
    var text: String
    var scope: Int
    var foldedLength: Int
    var milliseconds: Double
    var isFullScan: Bool
    var results: Int
  }

  func run() throws {
    let clock = ContinuousClock()
    let normalizer = try Normalizer(folding: try options.folding())
    let queries = try loadQueries()

    var start = clock.now
    let manifest = try Manifest.load(from: options.corpusPath)
    let (model, report) = try DataSetLoader.load(
      manifest: manifest, manifestPath: options.corpusPath)
    guard report.rejected.isEmpty else {
      throw CommandError("\(report.rejected.count) lines rejected, first: \(report.rejected[0])")
    }
    let loadTime = clock.now - start
    let peakAfterLoad = Self.peakResidentMegabytes()

    start = clock.now
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    let buildTime = clock.now - start
    let peakAfterBuild = Self.peakResidentMegabytes()

    var filter = IncrementalFilter()
    var keystrokes: [Keystroke] = []
    let scopes = corpus.scopeBar.scopes.count
    var scope = 0
    for (number, query) in queries.enumerated() {
      // The field is cleared, then the query typed one character at a time.
      _ = try search("", scope: scope, filter: &filter, corpus: corpus, normalizer: normalizer)
      var typed = ""
      for character in query {
        typed.append(character)
        keystrokes.append(
          try search(typed, scope: scope, filter: &filter, corpus: corpus, normalizer: normalizer))
      }
      if (number + 1) % Self.scopeChangeEvery == 0 && scopes > 1 {
        scope = scope + 1 < scopes ? scope + 1 : 0
        keystrokes.append(
          try search(typed, scope: scope, filter: &filter, corpus: corpus, normalizer: normalizer))
      }
    }
    let peakMemory = Self.peakResidentMegabytes()

    if options.showSlowerThan != nil {
      print(
        String(
          format: "peak RSS after load %.1f MB, after index build %.1f MB, after typing %.1f MB",
          peakAfterLoad, peakAfterBuild, peakMemory))
    }
    if let limit = options.showSlowerThan {
      for keystroke in keystrokes where keystroke.milliseconds > limit {
        let line = String(
          format: "slow: %8.3f ms  scope %d  %@  %d results  %@", keystroke.milliseconds,
          keystroke.scope, keystroke.isFullScan ? "full scan" : "narrowed ", keystroke.results,
          "\"\(keystroke.text)\"")
        print(line)
      }
    }
    let measured = keystrokes.filter { $0.foldedLength >= 2 }
    let typing = measured.map(\.milliseconds)
    let fullScans = keystrokes.filter(\.isFullScan).map(\.milliseconds)

    // The baseline on an even sample of the measured keystrokes.
    let words = (0..<model.count).map { model.values(of: model.id(at: $0), field: 0).first ?? "" }
    let sampleSize = min(options.baselineSample, measured.count)
    let step = max(measured.count / max(sampleSize, 1), 1)
    let sample = stride(from: 0, to: measured.count, by: step).prefix(sampleSize).map {
      measured[$0]
    }
    var baseline: [Double] = []
    var ours: [Double] = []
    for keystroke in sample {
      let begin = clock.now
      let found = words.filter { $0.localizedStandardContains(keystroke.text) }
      baseline.append((clock.now - begin).milliseconds)
      if found.count < 0 { print(found.count) }
      ours.append(keystroke.milliseconds)
    }

    let summary = Summary(
      items: model.count, queries: queries.count, keystrokes: keystrokes.count,
      measuredKeystrokes: measured.count, loadMilliseconds: loadTime.milliseconds,
      buildMilliseconds: buildTime.milliseconds, typing: typing, fullScans: fullScans,
      baseline: baseline, oursOnSample: ours, peakMemory: peakMemory)
    print(options.json ? summary.json : summary.text)
  }

  private func search(
    _ text: String, scope: Int, filter: inout IncrementalFilter, corpus: SearchCorpus,
    normalizer: Normalizer
  ) throws -> Keystroke {
    let clock = ContinuousClock()
    let start = clock.now
    let query = try Query(text, normalizer: normalizer)
    guard let result = filter.search(query, scope: scope, in: corpus) else {
      throw CommandError("a search was cancelled")
    }
    let time = clock.now - start
    let folded = query.sets.flatMap(\.terms).reduce(0) {
      $0 + String(decoding: $1.pattern.utf8, as: UTF8.self).count
    }
    return Keystroke(
      text: text, scope: scope, foldedLength: folded, milliseconds: time.milliseconds,
      isFullScan: result.path == .fullScan && !query.isEmpty, results: result.items.count)
  }

  private func loadQueries() throws -> [String] {
    let input = try LineInput(
      bytes: try Terminal.readAll(path: options.queries), source: options.queries)
    let queries = (0..<input.count).map { input.line($0) }.filter { !$0.isEmpty }
    guard !queries.isEmpty else { throw CommandError("\(options.queries): no queries") }
    return queries
  }

  /// The process's peak resident memory, from /proc/self/status (VmHWM).
  static func peakResidentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return .nan
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let number = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first
      if let kilobytes = number.flatMap({ Double($0) }) { return kilobytes / 1024 }
    }
    return .nan
  }

  private struct Summary {
    var items: Int
    var queries: Int
    var keystrokes: Int
    var measuredKeystrokes: Int
    var loadMilliseconds: Double
    var buildMilliseconds: Double
    var typing: [Double]
    var fullScans: [Double]
    var baseline: [Double]
    var oursOnSample: [Double]
    var peakMemory: Double

    var speedup: Double {
      let ours = percentile(oursOnSample, 0.5)
      return ours > 0 ? percentile(baseline, 0.5) / ours : .nan
    }

    var text: String {
      func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
      return """
        items: \(items), queries: \(queries), keystrokes: \(keystrokes) (\(measuredKeystrokes) of ≥ 2 folded characters)
        load: \(ms(loadMilliseconds)), index build: \(ms(buildMilliseconds))
        keystroke: p50 \(ms(percentile(typing, 0.5))), p99 \(ms(percentile(typing, 0.99))), max \(ms(typing.max() ?? 0))
        full scan (\(fullScans.count): first keystrokes, scope changes): p50 \(ms(percentile(fullScans, 0.5))), p99 \(ms(percentile(fullScans, 0.99)))
        peak RSS: \(String(format: "%.1f", peakMemory)) MB (before the baseline ran)
        baseline items.filter { $0.localizedStandardContains(text) } on \(baseline.count) of the keystrokes: p50 \(ms(percentile(baseline, 0.5))); SearchCore on the same: p50 \(ms(percentile(oursOnSample, 0.5))); speedup \(String(format: "%.0f", speedup))x
        """
    }

    var json: String {
      var object = JSONObject()
      object.add("items", items)
      object.add("queries", queries)
      object.add("keystrokes", keystrokes)
      object.add("load_ms", loadMilliseconds)
      object.add("index_build_ms", buildMilliseconds)
      object.add("keystroke_p50_ms", percentile(typing, 0.5))
      object.add("keystroke_p99_ms", percentile(typing, 0.99))
      object.add("keystroke_max_ms", typing.max() ?? 0)
      object.add("full_scan_p50_ms", percentile(fullScans, 0.5))
      object.add("full_scan_p99_ms", percentile(fullScans, 0.99))
      object.add("foundation_keystroke_p50_ms", percentile(baseline, 0.5))
      object.add("foundation_sample", baseline.count)
      object.add("speedup_vs_foundation", speedup)
      object.add("peak_rss_mb", peakMemory)
      return object.json
    }
  }
}

/// The value below which a fraction `p` of `values` lie (nearest rank).
func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
