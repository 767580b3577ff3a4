import Foundation
import SearchCore
import SearchDataSets

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    let path = try options.resolvedCorpusPath()
    let queries = try options.queryLines(corpusPath: path)
    let progress = BenchProgress()

    var start = clock.now
    let manifest = try Manifest.load(from: path)
    let (model, report) = try ProgressBar.run(manifest.name, shown: BenchProgress.isShown) {
      try DataSetLoader.load(manifest: manifest, manifestPath: path, progress: $0)
    }
    guard report.rejected.isEmpty else {
      throw CommandError("\(report.rejected.count) lines rejected, first: \(report.rejected[0])")
    }
    let loadTime = clock.now - start
    let peakAfterLoad = Self.peakResidentMegabytes()

    start = clock.now
    let corpus = try ProgressBar.run(manifest.name, shown: BenchProgress.isShown) {
      try SearchCorpus(model: model, normalizer: normalizer, progress: $0)
    }
    let buildTime = clock.now - start
    let peakAfterBuild = Self.peakResidentMegabytes()

    // The bandwidth baseline, before and after the typing (the load on a shared machine
    // changes): half of its passes each time.
    let bandwidth = BandwidthBaseline(columns: corpus.index.foldedColumns)
    var passes = bandwidth.measure(passes: BandwidthBaseline.passes / 2)

    var filter = IncrementalFilter()
    var keystrokes: [Keystroke] = []
    // Clearing the field before each query: the whole scope again, a search the user meets
    // too (measured apart: peers and the Foundation baseline take no empty query).
    var clears: [Double] = []
    let scopes = corpus.scopeBar.scopes.count
    var scope = 0
    for (number, query) in queries.enumerated() {
      progress.show("typing query \(number + 1) of \(queries.count): \(query)")
      // The field is cleared, then the query typed one character at a time.
      clears.append(
        try search("", scope: scope, filter: &filter, corpus: corpus, normalizer: normalizer)
          .milliseconds)
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
    passes += bandwidth.measure(passes: BandwidthBaseline.passes - passes.count)
    progress.clear()

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
    let typing = keystrokes.map(\.milliseconds)
    let longer = keystrokes.filter { $0.foldedLength >= 3 }.map(\.milliseconds)
    let fullScans = keystrokes.filter(\.isFullScan).map(\.milliseconds)

    // The baseline, on an even sample of every keystroke (first letters too): what an app
    // gets from `filter` and Foundation, each keystroke a scan of every searched value; and,
    // like with like, SearchCore's full scan of the same text in a fresh filter.
    let baseline = FoundationBaseline(corpus: corpus)
    let sampleSize = min(options.baselineSample, keystrokes.count)
    let step = max(keystrokes.count / max(sampleSize, 1), 1)
    let sample = stride(from: 0, to: keystrokes.count, by: step).prefix(sampleSize).map {
      keystrokes[$0]
    }
    var foundation: [Double] = []
    var fullScansOnSample: [Double] = []
    var typedOnSample: [Double] = []
    for (index, keystroke) in sample.enumerated() {
      progress.show(
        "Foundation baseline \(index + 1) of \(sample.count): \"\(keystroke.text)\"")
      let begin = clock.now
      let found = baseline.search(keystroke.text, scope: keystroke.scope)
      foundation.append((clock.now - begin).milliseconds)
      if found < 0 { print(found) }
      var fresh = IncrementalFilter()
      let scan = try search(
        keystroke.text, scope: keystroke.scope, filter: &fresh, corpus: corpus,
        normalizer: normalizer)
      fullScansOnSample.append(scan.milliseconds)
      typedOnSample.append(keystroke.milliseconds)
    }
    progress.clear()

    let peer =
      try options.sqlite ? measurePeer(keystrokes, corpus: corpus, progress: progress) : nil

    let summary = Summary(
      items: model.count, queries: queries.count, keystrokes: keystrokes.count,
      loadMilliseconds: loadTime.milliseconds, buildMilliseconds: buildTime.milliseconds,
      typing: typing, longer: longer, fullScans: fullScans, clears: clears,
      foundation: foundation,
      fullScansOnSample: fullScansOnSample, typedOnSample: typedOnSample,
      peakMemory: peakMemory, foldedBytes: bandwidth.byteCount,
      passMilliseconds: percentile(passes, 0.5), peer: peer)
    print(options.json ? summary.json : summary.text)
  }

  /// Builds the SQLite peer over the same items and types the same keystrokes into it (each
  /// distinct text and scope once: SQLite keeps no state between queries, so a repeat costs
  /// what the first did); compares its answers with SearchCore's full scan of the same text.
  private func measurePeer(
    _ keystrokes: [Keystroke], corpus: SearchCorpus, progress: BenchProgress
  ) throws -> PeerFigures {
    let clock = ContinuousClock()
    let model = corpus.model
    progress.show("SQLite: inserting \(model.count) items")
    var start = clock.now
    let peer = try SQLitePeer(model: model, scopes: corpus.scopeBar.scopes)
    let build = (clock.now - start).milliseconds
    let normalizer = corpus.index.normalizer

    struct Answer {
      var milliseconds: Double
      var isSame: Bool
    }
    var answers: [String: Answer] = [:]
    var typing: [Double] = []
    var longer: [Double] = []
    var same = 0
    for (number, keystroke) in keystrokes.enumerated() {
      let key = "\(keystroke.scope)\u{0}\(keystroke.text)"
      let answer: Answer
      if let known = answers[key] {
        answer = known
      } else {
        progress.show(
          "SQLite: keystroke \(number + 1) of \(keystrokes.count): \"\(keystroke.text)\"")
        let query = try Query(keystroke.text, normalizer: normalizer)
        start = clock.now
        let found = try peer.search(query, scope: keystroke.scope)
        let milliseconds = (clock.now - start).milliseconds
        var fresh = IncrementalFilter()
        guard let ours = fresh.search(query, scope: keystroke.scope, in: corpus) else {
          throw CommandError("a search was cancelled")
        }
        let isSame =
          ours.items.count == found.count
          && Set(ours.items) == Set(found.map { model.id(at: $0) })
        answer = Answer(milliseconds: milliseconds, isSame: isSame)
        answers[key] = answer
      }
      typing.append(answer.milliseconds)
      if keystroke.foldedLength >= 3 { longer.append(answer.milliseconds) }
      if answer.isSame { same += 1 }
    }
    progress.clear()
    return PeerFigures(
      name: "SQLite \(SQLitePeer.version) FTS5, trigram tokenizer, case_sensitive 0"
        + (peer.removesDiacritics ? ", remove_diacritics 1" : " (remove_diacritics needs 3.45)"),
      buildMilliseconds: build, typing: typing, longer: longer, distinct: answers.count,
      sameResults: same)
  }

  /// A peer's figures over the same keystrokes.
  private struct PeerFigures {
    var name: String
    var buildMilliseconds: Double
    /// Every keystroke, in the order typed, and those of ≥ 3 folded characters.
    var typing: [Double]
    var longer: [Double]
    /// How many distinct texts and scopes were measured.
    var distinct: Int
    /// The keystrokes whose answer is SearchCore's, item for item.
    var sameResults: Int
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
    var loadMilliseconds: Double
    var buildMilliseconds: Double
    /// Every keystroke as typed, first letters and scope changes included.
    var typing: [Double]
    /// The keystrokes whose query has 3 or more folded characters.
    var longer: [Double]
    var fullScans: [Double]
    /// Clearing the field before each query (the scope's items, no term to match).
    var clears: [Double]
    /// The sample: Foundation's scan, SearchCore's full scan and SearchCore as typed.
    var foundation: [Double]
    var fullScansOnSample: [Double]
    var typedOnSample: [Double]
    var peakMemory: Double
    /// The bandwidth baseline: the folded bytes, and the median time of one memchr pass.
    var foldedBytes: Int
    var passMilliseconds: Double
    var peer: PeerFigures?

    /// A latency in passes of the bandwidth baseline.
    func passes(_ milliseconds: Double) -> Double {
      passMilliseconds > 0 ? milliseconds / passMilliseconds : .nan
    }

    /// How many times faster SearchCore's full scan is than Foundation's, at the median of
    /// the same keystrokes: like with like, each scans every item.
    var fullScanRatio: Double { ratio(foundation, fullScansOnSample) }
    /// How many times faster a keystroke as typed is (narrowed from the previous one, or a
    /// full scan for a first letter) than Foundation's scan, which is what an app that
    /// filters an array gets on every keystroke.
    var typedRatio: Double { ratio(foundation, typedOnSample) }

    private func ratio(_ baseline: [Double], _ ours: [Double]) -> Double {
      let median = percentile(ours, 0.5)
      return median > 0 ? percentile(baseline, 0.5) / median : .nan
    }

    var text: String {
      func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
      // A latency, and the same in passes of the bandwidth baseline.
      func both(_ value: Double) -> String {
        String(format: "%.3f ms = %.2f passes", value, passes(value))
      }
      // Baseline time over SearchCore's: above 1, SearchCore is faster.
      func times(_ value: Double) -> String {
        String(
          format: value < 10 ? "baseline/SearchCore %.2f×" : "baseline/SearchCore %.0f×", value)
      }
      return """
        items: \(items), queries: \(queries), keystrokes: \(keystrokes) (every one counted, first letters and scope changes too)
        load: \(ms(loadMilliseconds)), index build: \(ms(buildMilliseconds))
        bandwidth baseline: one memchr pass over the index's \(foldedBytes) folded bytes, one thread, median of \(BandwidthBaseline.passes): \(ms(passMilliseconds)) (\(String(format: "%.1f", passMilliseconds > 0 ? Double(foldedBytes) / passMilliseconds / 1e6 : .nan)) GB/s)
        keystroke, all \(typing.count): p50 \(both(percentile(typing, 0.5))), p99 \(both(percentile(typing, 0.99))), max \(both(typing.max() ?? 0))
        keystroke, the \(longer.count) of ≥ 3 folded characters: p50 \(both(percentile(longer, 0.5))), p99 \(both(percentile(longer, 0.99)))
        full scan (\(fullScans.count): first letters, scope changes): p50 \(both(percentile(fullScans, 0.5))), p99 \(both(percentile(fullScans, 0.99)))
        clearing the field (\(clears.count), before each query: the whole scope): p50 \(both(percentile(clears, 0.5))), p99 \(both(percentile(clears, 0.99))), max \(both(clears.max() ?? 0))
        peak RSS: \(String(format: "%.1f", peakMemory)) MB (before the baseline ran)
        baseline: items.filter, every word of the text in some searched value (localizedStandardContains), on \(foundation.count) of the keystrokes evenly spread: p50 \(ms(percentile(foundation, 0.5)))
          full scan vs full scan (SearchCore in a fresh filter, same keystrokes): p50 \(ms(percentile(fullScansOnSample, 0.5))), \(times(fullScanRatio))
          as typed vs the baseline's scan (SearchCore narrows from the previous keystroke; an array filter scans every item each time): p50 \(ms(percentile(typedOnSample, 0.5))), \(times(typedRatio))
        """ + peerText
    }

    /// The peer's lines: its figures and, for each, its time over SearchCore's (above 1,
    /// SearchCore is faster).
    private var peerText: String {
      guard let peer else { return "" }
      func over(_ theirs: Double, _ ours: Double) -> String {
        String(format: ours > 0 ? "peer/SearchCore %.1f×" : "", theirs / ours)
      }
      func line(_ values: [Double], _ ours: [Double], _ p: Double) -> String {
        let theirs = percentile(values, p)
        return String(format: "%.3f ms", theirs) + " (" + over(theirs, percentile(ours, p)) + ")"
      }
      return """

        peer: \(peer.name), the same items and keystrokes (\(peer.distinct) distinct texts and scopes, each measured once; terms of < 3 characters, anchors and fuzzy terms by LIKE, a scan of the table)
          index build: \(String(format: "%.1f ms", peer.buildMilliseconds)) (\(over(peer.buildMilliseconds, buildMilliseconds)), SearchCore's index build)
          keystroke, all \(peer.typing.count): p50 \(line(peer.typing, typing, 0.5)), p99 \(line(peer.typing, typing, 0.99)), max \(String(format: "%.3f ms", peer.typing.max() ?? 0))
          keystroke, the \(peer.longer.count) of ≥ 3 folded characters: p50 \(line(peer.longer, longer, 0.5)), p99 \(line(peer.longer, longer, 0.99))
          results item for item SearchCore's on \(peer.sameResults) of \(peer.typing.count) keystrokes (the peer folds case with its tokenizer, ASCII case only in LIKE, and no diacritics without remove_diacritics)
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
      object.add("keystroke_3_chars_p50_ms", percentile(longer, 0.5))
      object.add("keystroke_3_chars_p99_ms", percentile(longer, 0.99))
      object.add("full_scan_p50_ms", percentile(fullScans, 0.5))
      object.add("full_scan_p99_ms", percentile(fullScans, 0.99))
      object.add("clear_p50_ms", percentile(clears, 0.5))
      object.add("clear_p99_ms", percentile(clears, 0.99))
      object.add("clear_max_ms", clears.max() ?? 0)
      object.add("foundation_sample", foundation.count)
      object.add("foundation_scan_p50_ms", percentile(foundation, 0.5))
      object.add("full_scan_on_sample_p50_ms", percentile(fullScansOnSample, 0.5))
      object.add("typed_on_sample_p50_ms", percentile(typedOnSample, 0.5))
      object.add("full_scan_vs_foundation_scan", fullScanRatio)
      object.add("typed_vs_foundation_scan", typedRatio)
      object.add("peak_rss_mb", peakMemory)
      object.add("folded_bytes", foldedBytes)
      object.add("bandwidth_pass_ms", passMilliseconds)
      object.add("keystroke_p50_passes", passes(percentile(typing, 0.5)))
      object.add("keystroke_p99_passes", passes(percentile(typing, 0.99)))
      object.add("keystroke_3_chars_p99_passes", passes(percentile(longer, 0.99)))
      object.add("full_scan_p99_passes", passes(percentile(fullScans, 0.99)))
      if let peer {
        object.add("sqlite", peer.name)
        object.add("sqlite_index_build_ms", peer.buildMilliseconds)
        object.add("sqlite_keystroke_p50_ms", percentile(peer.typing, 0.5))
        object.add("sqlite_keystroke_p99_ms", percentile(peer.typing, 0.99))
        object.add("sqlite_keystroke_max_ms", peer.typing.max() ?? 0)
        object.add("sqlite_keystroke_3_chars_p50_ms", percentile(peer.longer, 0.5))
        object.add("sqlite_keystroke_3_chars_p99_ms", percentile(peer.longer, 0.99))
        object.add("sqlite_distinct_keystrokes", peer.distinct)
        object.add("sqlite_same_results", peer.sameResults)
      }
      return object.json
    }
  }
}

/// The bandwidth baseline: one `memchr` pass over the folded bytes of the index, for a byte
/// that folded text never holds (0xFE is not UTF-8, and the separator is 0xFF), so every byte
/// is read. A keystroke's latency divided by it says how many times the engine reads the index
/// (in effect), whatever the machine and its load.
struct BandwidthBaseline {
  /// How many passes are timed; the median is the baseline.
  static let passes = 20
  let columns: [[UInt8]]

  var byteCount: Int { columns.reduce(0) { $0 + $1.count } }

  /// The time of each of `passes` passes, in milliseconds.
  func measure(passes: Int) -> [Double] {
    let clock = ContinuousClock()
    var found = 0
    let times = (0..<max(passes, 0)).map { _ in
      let start = clock.now
      for column in columns {
        column.withUnsafeBytes { bytes in
          if let base = bytes.baseAddress, memchr(base, 0xFE, bytes.count) != nil { found += 1 }
        }
      }
      return (clock.now - start).milliseconds
    }
    // A byte found would mean the pass stopped early: the baseline would be wrong.
    precondition(found == 0, "0xFE found in folded text")
    return times
  }
}

/// What an app without a search engine writes: `items.filter`, each word of the text found
/// by `localizedStandardContains` (case and diacritics ignored, by the current locale) in
/// some value of a field the scope searches, among the items of the scope's attribute values.
struct FoundationBaseline {
  /// Per item, the values of every field.
  private let values: [[[String]]]
  /// Per item, its attributes.
  private let attributes: [[String]]
  private let schema: Schema
  private let scopes: [Scope]

  init(corpus: SearchCorpus) {
    let model = corpus.model
    let ids = (0..<model.count).map { model.id(at: $0) }
    values = ids.map { id in
      (0..<model.schema.fields.count).map { model.values(of: id, field: $0) }
    }
    attributes = ids.map { id in
      (0..<model.schema.attributes.count).map { model.attribute($0, of: id) }
    }
    schema = model.schema
    scopes = corpus.scopeBar.scopes
  }

  /// The number of items found.
  func search(_ text: String, scope index: Int) -> Int {
    let words = text.split(separator: " ").map(String.init)
    let scope = scopes.indices.contains(index) ? scopes[index] : Scope(title: "All")
    let fields =
      scope.fields.map { names in
        names.compactMap { name in schema.fields.firstIndex { $0.name == name } }
      } ?? schema.fields.indices.filter { schema.fields[$0].isSearched }
    let attribute = scope.attribute.flatMap { schema.attributes.firstIndex(of: $0) }
    var count = 0
    for item in values.indices {
      if let attribute, !scope.values.contains(attributes[item][attribute]) { continue }
      let matches = words.allSatisfy { word in
        fields.contains { field in
          values[item][field].contains { $0.localizedStandardContains(word) }
        }
      }
      if matches { count += 1 }
    }
    return count
  }
}

/// One line of progress on standard error while a benchmark runs, when it is a terminal;
/// cleared before the results are printed.
struct BenchProgress {
  static var isShown: Bool { isatty(STDERR_FILENO) != 0 }

  func show(_ text: String) {
    guard Self.isShown else { return }
    Terminal.write("\r\u{1B}[K" + text, to: STDERR_FILENO)
  }

  func clear() {
    guard Self.isShown else { return }
    Terminal.write("\r\u{1B}[K", to: STDERR_FILENO)
  }
}

/// The value below which a fraction `p` of `values` lie (nearest rank).
func percentile(_ values: [Double], _ p: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
