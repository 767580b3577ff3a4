import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Types a fixed list of queries character by character into the incremental filter, as a
/// person at a search field would, and measures every keystroke: wall time and the process's
/// CPU time (the scans run on every core), scoped and unscoped keystrokes apart, and, with
/// `--sqlite`, SQLite FTS5 typed the same keystrokes interleaved with ours.
struct TypingBenchmark {
  let options: Bench

  /// The scope a query is typed in: every other query in scope 0 (all items, unscoped), the
  /// others in the other scopes in turn, so that half the keystrokes are unscoped.
  static func scope(ofQuery number: Int, scopes: Int) -> Int {
    guard scopes > 1, number % 2 == 1 else { return 0 }
    return 1 + (number / 2) % (scopes - 1)
  }

  private struct Keystroke {
    var text: String
    var scope: Int
    /// The folded length, in characters, of the query's last term: what SQLite's trigram
    /// index needs 3 of, and what a keystroke adds to.
    var lastTermLength: Int
    var milliseconds: Double
    /// The process's CPU time over the keystroke (every thread).
    var cpuMilliseconds: Double
    var isFullScan: Bool
    var results: Int
    /// Ranking the results after the search (``SearchCorpus/ranked(_:)``): wall and CPU time.
    var rankMilliseconds = 0.0
    var rankCPUMilliseconds = 0.0
    /// The peer's answer to the same keystroke, when it is typed too.
    var peer: PeerAnswer?
  }

  /// SQLite's answer to one keystroke.
  private struct PeerAnswer {
    var milliseconds: Double
    var cpuMilliseconds: Double
    /// Why its rows are not ours, item for item; nil when they are.
    var disagreement: Disagreement?
  }

  /// Why SQLite's rows for a keystroke differ from SearchCore's, and an example.
  private struct Disagreement {
    var reason: String
    var example: String
  }

  func run() throws {
    let clock = ContinuousClock()
    let normalizer = try Normalizer(folding: try options.folding())
    let path = try options.resolvedCorpusPath()
    let queries = try options.queryLines(corpusPath: path)
    let progress = BenchProgress()
    guard options.gapMs >= 0 else {
      throw CommandError("--gap-ms \(options.gapMs): give a pause of 0 or more milliseconds")
    }

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

    // The peer, built before the typing so that each keystroke goes to both in turn.
    var peer: SQLitePeer?
    var peerBuild = 0.0
    if options.sqlite {
      progress.show("SQLite: inserting \(model.count) items")
      start = clock.now
      peer = try SQLitePeer(
        model: model, scopes: corpus.scopeBar.scopes, folding: options.sqliteRaw ? nil : normalizer)
      peerBuild = (clock.now - start).milliseconds
    }

    // The bandwidth baseline, before and after the typing (the load on a shared machine
    // changes): half of its passes each time.
    let bandwidth = BandwidthBaseline(columns: corpus.index.foldedColumns)
    var passes = bandwidth.measure(passes: BandwidthBaseline.passes / 2)

    let evictor = options.gapMs > 0 ? CacheEvictor() : nil
    // A pause before each search in --gap-ms mode: the caches evicted, then the gap slept.
    func pause() {
      guard let evictor else { return }
      evictor.evict()
      usleep(UInt32(options.gapMs * 1000))
    }

    // With --typos: the word index built first and timed apart, and each keystroke typed
    // again as words without typos, into a filter of its own, the order alternating.
    let tolerance = try options.typos.map { (text: String) throws(CommandError) in
      try TypoOption.tolerance(text)
    }
    var exactFilter = IncrementalFilter()
    var exactTimes: [Double] = []
    var exactCPU: [Double] = []
    var wordIndexBuild = 0.0
    var wordIndexPeak = 0.0
    if tolerance != nil {
      progress.show("building the word index")
      let peakBefore = Self.peakResidentMegabytes()
      start = clock.now
      corpus.prepareWordIndex()
      wordIndexBuild = (clock.now - start).milliseconds
      wordIndexPeak = Self.peakResidentMegabytes() - peakBefore
    }
    var filter = IncrementalFilter()
    var keystrokes: [Keystroke] = []
    // Clearing the field before each query: the whole scope again, a search the user meets
    // too (measured apart: peers and the Foundation baseline take no empty query).
    var clears: [Double] = []
    let scopes = corpus.scopeBar.scopes.count
    for (number, query) in queries.enumerated() {
      progress.show("typing query \(number + 1) of \(queries.count): \(query)")
      let scope = Self.scope(ofQuery: number, scopes: scopes)
      if options.freshFilter { filter = IncrementalFilter() }
      // The field is cleared, then the query typed one character at a time.
      pause()
      clears.append(
        try search("", scope: scope, filter: &filter, corpus: corpus, normalizer: normalizer)
          .keystroke.milliseconds)
      var typed = ""
      for character in query {
        typed.append(character)
        pause()
        // Ours and the peer's (or, with --typos, the exact words') in turn, the order
        // alternating keystroke by keystroke.
        let peerFirst = keystrokes.count % 2 == 1
        var theirs: (milliseconds: Double, cpu: Double, rows: [Int])?
        func exactWords() throws {
          guard tolerance != nil else { return }
          let exact = try search(
            typed, scope: scope, filter: &exactFilter, corpus: corpus, normalizer: normalizer,
            syntax: .words, typos: .off)
          exactTimes.append(exact.keystroke.milliseconds)
          exactCPU.append(exact.keystroke.cpuMilliseconds)
        }
        if peerFirst {
          if let peer { theirs = try ask(peer, typed, scope: scope, normalizer) }
          try exactWords()
        }
        var (keystroke, items) = try search(
          typed, scope: scope, filter: &filter, corpus: corpus, normalizer: normalizer,
          syntax: tolerance == nil ? .extended : .words, typos: tolerance ?? .off, ranks: true)
        if !peerFirst {
          if let peer { theirs = try ask(peer, typed, scope: scope, normalizer) }
          try exactWords()
        }
        if let theirs, let peer {
          keystroke.peer = PeerAnswer(
            milliseconds: theirs.milliseconds, cpuMilliseconds: theirs.cpu,
            disagreement: Self.disagreement(
              typed, ours: items, theirs: theirs.rows.map { model.id(at: $0) }, peer: peer,
              model: model, normalizer: normalizer))
        }
        keystrokes.append(keystroke)
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
          format: "slow: %8.3f ms (CPU %8.3f ms)  scope %d  %@  %d results  %@",
          keystroke.milliseconds, keystroke.cpuMilliseconds, keystroke.scope,
          keystroke.isFullScan ? "full scan" : "narrowed ", keystroke.results,
          "\"\(keystroke.text)\"")
        print(line)
      }
    }

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
      fullScansOnSample.append(scan.keystroke.milliseconds)
      typedOnSample.append(keystroke.milliseconds)
    }
    progress.clear()

    let all = keystrokes
    let summary = Summary(
      corpusName: manifest.name, items: model.count, queries: queries.count,
      scopeTitle: corpus.scopeBar.scopes.first?.title ?? "All",
      loadMilliseconds: loadTime.milliseconds, buildMilliseconds: buildTime.milliseconds,
      gapMilliseconds: options.gapMs, freshFilter: options.freshFilter,
      typing: all.map(\.milliseconds), cpu: all.map(\.cpuMilliseconds),
      split: Split(all),
      unscopedCPU: all.filter { $0.scope == 0 }.map(\.cpuMilliseconds),
      unscoped: all.filter { $0.scope == 0 }.map(\.milliseconds),
      ranked: all.map { $0.milliseconds + $0.rankMilliseconds },
      rankedCPU: all.map { $0.cpuMilliseconds + $0.rankCPUMilliseconds },
      scoped: all.filter { $0.scope != 0 }.map(\.milliseconds),
      scopedCPU: all.filter { $0.scope != 0 }.map(\.cpuMilliseconds),
      fullScans: all.filter(\.isFullScan).map(\.milliseconds), clears: clears,
      foundation: foundation,
      fullScansOnSample: fullScansOnSample, typedOnSample: typedOnSample,
      peakMemory: peakMemory, gramBytes: corpus.index.gramByteCount,
      gramBuildMilliseconds: corpus.index.gramBuildTime.milliseconds,
      foldedBytes: bandwidth.byteCount,
      passMilliseconds: percentile(passes, 0.5),
      peer: peer.map { peer in
        PeerFigures(
          name: "SQLite \(SQLitePeer.version) FTS5, trigram tokenizer, case_sensitive 0"
            + (peer.removesDiacritics
              ? ", remove_diacritics 1"
              : peer.isFolded
                ? " (no remove_diacritics before 3.45: fed SearchCore's folded values and"
                  + " folded queries, so it is compared on matching, not folding)"
                : " (no remove_diacritics before 3.45, raw values: it folds case only)"),
          buildMilliseconds: peerBuild,
          typing: all.compactMap(\.peer?.milliseconds),
          cpu: all.compactMap(\.peer?.cpuMilliseconds),
          split: Split(all) { $0.peer?.cpuMilliseconds },
          disagreements: all.compactMap(\.peer?.disagreement))
      })
    print(options.json ? summary.json : summary.text)
    if let tolerance, !options.json {
      let typing = keystrokes.map(\.milliseconds)
      let cpu = keystrokes.map(\.cpuMilliseconds)
      print(
        String(
          format:
            "typos %@: word index built in %.1f ms (peak RSS +%.1f MB); keystrokes as words with typos p50 %.3f ms, "
            + "p99 %.3f ms (CPU p99 %.3f ms); the same as words without typos p50 %.3f ms, "
            + "p99 %.3f ms (CPU p99 %.3f ms); p99 ratio %.2f (CPU %.2f)",
          tolerance.description, wordIndexBuild, wordIndexPeak, percentile(typing, 0.5),
          percentile(typing, 0.99), percentile(cpu, 0.99), percentile(exactTimes, 0.5),
          percentile(exactTimes, 0.99), percentile(exactCPU, 0.99),
          percentile(typing, 0.99) / percentile(exactTimes, 0.99),
          percentile(cpu, 0.99) / percentile(exactCPU, 0.99)))
    }
  }

  /// Asks the peer one keystroke's text: its wall and CPU time (parsing and SQL included, as
  /// ours includes parsing) and the positions of its rows.
  private func ask(_ peer: SQLitePeer, _ text: String, scope: Int, _ normalizer: Normalizer)
    throws -> (milliseconds: Double, cpu: Double, rows: [Int])
  {
    let clock = ContinuousClock()
    let cpu = processCPUMilliseconds()
    let start = clock.now
    let query = try SearchQuery(text, normalizer: normalizer)
    let rows = try peer.search(query, scope: scope)
    let wall = (clock.now - start).milliseconds
    return (wall, processCPUMilliseconds() - cpu, rows)
  }

  /// Why SQLite's rows for `text` are not ours (nil when they are), with an example item.
  private static func disagreement(
    _ text: String, ours: [ItemID], theirs: [ItemID], peer: SQLitePeer, model: SearchModel,
    normalizer: Normalizer
  ) -> Disagreement? {
    let (mine, peers) = (Set(ours), Set(theirs))
    guard mine != peers || ours.count != theirs.count else { return nil }
    let onlyOurs = ours.first { !peers.contains($0) }
    let onlyTheirs = theirs.first { !mine.contains($0) }
    let item = onlyOurs ?? onlyTheirs ?? ours[0]
    let value = model.values(of: item, field: 0).first ?? ""
    let example = "\"\(text)\": \(onlyOurs != nil ? "only ours" : "only SQLite's") \"\(value)\""
    let query = try? SearchQuery(text, normalizer: normalizer)
    let shortNonASCII = query?.sets.flatMap(\.terms).contains { term in
      let folded = String(decoding: term.pattern.utf8, as: UTF8.self)
      return folded.count < SQLitePeerQuery.indexedLength && folded.utf8.contains { $0 >= 0x80 }
    }
    if shortNonASCII == true && !peer.isFolded {
      return Disagreement(
        reason: "a term of < 3 characters with a non-ASCII letter: LIKE folds ASCII case only",
        example: example)
    }
    if !peer.removesDiacritics && !peer.isFolded {
      return Disagreement(
        reason: "no remove_diacritics (raw values): SQLite folds case only", example: example)
    }
    if onlyOurs != nil {
      return Disagreement(
        reason:
          "SearchCore folds more (ß = ss, ligatures, other scripts' marks): rows SQLite misses",
        example: example)
    }
    return Disagreement(
      reason: "SQLite matches more (its folding or its LIKE): rows SearchCore leaves out",
      example: example)
  }

  /// A peer's figures over the same keystrokes, typed interleaved with ours.
  private struct PeerFigures {
    var name: String
    var buildMilliseconds: Double
    /// Every keystroke, in the order typed: wall and CPU.
    var typing: [Double]
    var cpu: [Double]
    /// Its CPU time split as ours.
    var split: Split
    /// Why its rows were not ours, one for each keystroke where they were not.
    var disagreements: [Disagreement]

    /// The keystrokes whose answer is SearchCore's, item for item.
    var agreeing: Int { typing.count - disagreements.count }
    /// The fraction of keystrokes whose rows are ours.
    var agreement: Double { typing.isEmpty ? .nan : Double(agreeing) / Double(typing.count) }
  }

  /// CPU times of the keystrokes by the length of the query's last term (≥ 3 characters, what
  /// a trigram index answers; 1–2) and by scope (unscoped, the headline, and scoped).
  private struct Split {
    var last3: [Double] = []
    var short: [Double] = []
    var scopedLast3: [Double] = []
    var scopedShort: [Double] = []

    /// The CPU time `time` gives of each of `keystrokes` (ours unless told).
    init(_ keystrokes: [Keystroke], time: (Keystroke) -> Double? = { $0.cpuMilliseconds }) {
      for keystroke in keystrokes where keystroke.lastTermLength > 0 {
        guard let value = time(keystroke) else { continue }
        switch (keystroke.scope == 0, keystroke.lastTermLength >= 3) {
        case (true, true): last3.append(value)
        case (true, false): short.append(value)
        case (false, true): scopedLast3.append(value)
        case (false, false): scopedShort.append(value)
        }
      }
    }
  }

  private func search(
    _ text: String, scope: Int, filter: inout IncrementalFilter, corpus: SearchCorpus,
    normalizer: Normalizer, syntax: SearchQuery.Syntax = .extended, typos: TypoTolerance = .off,
    ranks: Bool = false
  ) throws -> (keystroke: Keystroke, items: [ItemID]) {
    let clock = ContinuousClock()
    let cpu = processCPUMilliseconds()
    let start = clock.now
    let query = try SearchQuery(text, syntax: syntax, typos: typos, normalizer: normalizer)
    guard let result = filter.search(query, scope: scope, in: corpus) else {
      throw CommandError("a search was cancelled")
    }
    let time = clock.now - start
    let cpuTime = processCPUMilliseconds() - cpu
    let lastTerm = query.sets.last?.terms.last.map {
      String(decoding: $0.pattern.utf8, as: UTF8.self).count
    }
    var keystroke = Keystroke(
      text: text, scope: scope, lastTermLength: lastTerm ?? 0,
      milliseconds: time.milliseconds,
      cpuMilliseconds: cpuTime, isFullScan: result.path == .fullScan && !query.isEmpty,
      results: result.items.count)
    if ranks {
      // Then the same results ranked, timed apart: a ranked list's keystroke is both.
      let rankCPU = processCPUMilliseconds()
      let rankStart = clock.now
      let ranked = corpus.ranked(result)
      keystroke.rankMilliseconds = (clock.now - rankStart).milliseconds
      keystroke.rankCPUMilliseconds = processCPUMilliseconds() - rankCPU
      guard ranked.count == result.items.count else {
        throw CommandError(
          "ranking \"\(text)\" gave \(ranked.count) of \(result.items.count) items")
      }
    }
    return (keystroke, result.items)
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
    var corpusName: String
    var items: Int
    var queries: Int
    /// The title of scope 0, the unscoped one.
    var scopeTitle: String
    var loadMilliseconds: Double
    var buildMilliseconds: Double
    /// The pause before each search (0: back to back), and whether each query had a fresh
    /// filter (no incremental cache from the previous query).
    var gapMilliseconds: Int
    var freshFilter: Bool
    /// Every keystroke as typed, first letters included: wall and the process's CPU time.
    var typing: [Double]
    var cpu: [Double]
    /// The CPU time by the last term's length and by scope.
    var split: Split
    /// The keystrokes in scope 0 (all items) and in the other scopes.
    var unscopedCPU: [Double]
    var unscoped: [Double]
    /// Every keystroke with its results ranked after the search: wall and CPU time.
    var ranked: [Double]
    var rankedCPU: [Double]
    var scoped: [Double]
    var scopedCPU: [Double]
    var fullScans: [Double]
    /// Clearing the field before each query (the scope's items, no term to match).
    var clears: [Double]
    /// The sample: Foundation's scan, SearchCore's full scan and SearchCore as typed.
    var foundation: [Double]
    var fullScansOnSample: [Double]
    var typedOnSample: [Double]
    var peakMemory: Double
    /// The gram index: its bytes, and its build, part of the index build.
    var gramBytes: Int
    var gramBuildMilliseconds: Double
    /// The bandwidth baseline: the folded bytes, and the median time of one memchr pass.
    var foldedBytes: Int
    var passMilliseconds: Double
    var peer: PeerFigures?

    var keystrokes: Int { typing.count }

    /// A latency in passes of the bandwidth baseline.
    func passes(_ milliseconds: Double) -> Double {
      passMilliseconds > 0 ? milliseconds / passMilliseconds : .nan
    }

    /// The headline, like with like: how many times faster SearchCore's full scan is than
    /// Foundation's, at the median of the same keystrokes (each scans every item).
    var fullScanRatio: Double { ratio(foundation, fullScansOnSample) }
    /// How many times faster a keystroke as typed is (narrowed from the previous one, or a
    /// full scan for a first letter) than Foundation's scan, which is what an app that
    /// filters an array gets on every keystroke: not like with like.
    var typedRatio: Double { ratio(foundation, typedOnSample) }

    private func ratio(_ baseline: [Double], _ ours: [Double]) -> Double {
      let median = percentile(ours, 0.5)
      return median > 0 ? percentile(baseline, 0.5) / median : .nan
    }

    /// The speed targets this run measures, each figure beside its peer's.
    var targets: [BenchTarget] {
      let name = corpusName
      var targets = [
        BenchTarget(
          name: "\(name): every keystroke, CPU p99 vs one memchr pass (passes ≤ 3)",
          figure: percentile(cpu, 0.99), peerFigure: passMilliseconds, unit: "ms", limit: 3),
        BenchTarget(
          name: "\(name): every keystroke ranked, wall p99 vs unranked (≤ 1.25)",
          figure: percentile(ranked, 0.99), peerFigure: percentile(typing, 0.99), unit: "ms",
          limit: 1.25),
      ]
      if let peer {
        let (ours, theirs) = (split, peer.split)
        targets += [
          BenchTarget(
            name: "\(name): unscoped, last term ≥ 3 characters, CPU p50 vs SQLite FTS5 trigram",
            figure: percentile(ours.last3, 0.5), peerFigure: percentile(theirs.last3, 0.5),
            unit: "ms", limit: 0.5),
          BenchTarget(
            name: "\(name): unscoped, last term ≥ 3 characters, CPU p99 vs SQLite FTS5 trigram",
            figure: percentile(ours.last3, 0.99), peerFigure: percentile(theirs.last3, 0.99),
            unit: "ms", limit: 0.5),
          BenchTarget(
            name: "\(name): unscoped, last term of 1–2 characters, CPU p99 vs SQLite FTS5 trigram"
              + " (20× ahead)",
            figure: percentile(ours.short, 0.99), peerFigure: percentile(theirs.short, 0.99),
            unit: "ms", limit: 0.05),
        ]
      }
      return targets
    }

    var text: String {
      func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
      // p50, p99 and max of wall and CPU time, the CPU time also in passes.
      func line(_ wall: [Double], _ cpu: [Double]) -> String {
        let cpu99 = percentile(cpu, 0.99)
        return "wall p50 \(ms(percentile(wall, 0.5))), p99 \(ms(percentile(wall, 0.99))), max "
          + "\(ms(wall.max() ?? .nan)); CPU p50 \(ms(percentile(cpu, 0.5))), p99 \(ms(cpu99))"
          + String(
            format: " = %.2f passes (p50 %.2f)", passes(cpu99), passes(percentile(cpu, 0.5)))
      }
      func cpuLine(_ cpu: [Double]) -> String {
        "p50 \(ms(percentile(cpu, 0.5))), p99 \(ms(percentile(cpu, 0.99)))"
      }
      // Baseline time over SearchCore's: above 1, SearchCore is faster.
      func times(_ value: Double) -> String {
        String(
          format: value < 10 ? "baseline/SearchCore %.2f×" : "baseline/SearchCore %.0f×", value)
      }
      let mode =
        (gapMilliseconds > 0
          ? "a \(gapMilliseconds) ms gap before each search, CPU caches evicted (\(CacheEvictor.byteCount >> 20) MiB touched)"
          : "back to back, caches hot")
        + (freshFilter
          ? "; a fresh filter per query" : "; one filter, its cache kept across queries")
      return """
        items: \(items), queries: \(queries), keystrokes: \(keystrokes) (every one counted, first letters too): \(unscoped.count) unscoped (scope \(scopeTitle), every other query) + \(scoped.count) scoped (the other scopes in turn)
        mode: \(mode); CPU time is the whole process's (the scans use every core)
        load: \(ms(loadMilliseconds)), index build: \(ms(buildMilliseconds)) (its grams: \(ms(gramBuildMilliseconds)), \(String(format: "%.1f MB, %.2f× the folded bytes", Double(gramBytes) / 1_048_576, Double(gramBytes) / Double(max(foldedBytes, 1)))))
        bandwidth baseline: one memchr pass over the index's \(foldedBytes) folded bytes, one thread, median of \(BandwidthBaseline.passes): \(ms(passMilliseconds)) (\(String(format: "%.1f", passMilliseconds > 0 ? Double(foldedBytes) / passMilliseconds / 1e6 : .nan)) GB/s)
        keystroke, all \(typing.count): \(line(typing, cpu))
        keystroke, the \(unscoped.count) unscoped: \(line(unscoped, unscopedCPU))
        keystroke, the \(scoped.count) scoped: \(line(scoped, scopedCPU))
        keystroke CPU by the last term's length: unscoped, ≥ 3 characters (\(split.last3.count)): \(cpuLine(split.last3)); 1–2 (\(split.short.count)): \(cpuLine(split.short))
          scoped, ≥ 3 (\(split.scopedLast3.count)): \(cpuLine(split.scopedLast3)); 1–2 (\(split.scopedShort.count)): \(cpuLine(split.scopedShort))
        keystroke ranked, all \(ranked.count) (the search above, then its results ranked by the data set's rules): \(line(ranked, rankedCPU))
        full scan (\(fullScans.count): first letters, after a fresh filter): wall p50 \(ms(percentile(fullScans, 0.5))), p99 \(ms(percentile(fullScans, 0.99)))
        clearing the field (\(clears.count), before each query: the whole scope): wall p50 \(ms(percentile(clears, 0.5))), p99 \(ms(percentile(clears, 0.99))), max \(ms(clears.max() ?? 0))
        peak RSS: \(String(format: "%.1f", peakMemory)) MB (before the baseline ran)
        headline, like for like: Foundation's items.filter (localizedStandardContains, every word in some searched value) vs SearchCore's full scan in a fresh filter, the same \(foundation.count) keystrokes evenly spread: p50 \(ms(percentile(foundation, 0.5))) vs \(ms(percentile(fullScansOnSample, 0.5))), \(times(fullScanRatio))
          as typed (not like for like: SearchCore narrows from the previous keystroke, the array filter scans every item each time): SearchCore p50 \(ms(percentile(typedOnSample, 0.5))), \(times(typedRatio))
        """ + peerText
          + "\ntargets (our figure vs the peer's, from this run; ratio = ours/peer's):\n"
          + targets.map(\.text).joined(separator: "\n")
    }

    /// The peer's lines: its figures and, for each, its time over SearchCore's (above 1,
    /// SearchCore is faster).
    private var peerText: String {
      guard let peer else { return "" }
      func pair(_ values: [Double], _ ours: [Double], _ p: Double) -> String {
        let theirs = percentile(values, p)
        let mine = percentile(ours, p)
        return String(
          format: "%.3f ms (ours %.3f ms, ours/peer %.2f×)", theirs, mine, mine / theirs)
      }
      return """

        peer: \(peer.name); typed interleaved with ours, keystroke by keystroke (the order alternating), the same items, scopes and keystrokes; terms of < 3 characters, anchors and fuzzy terms by LIKE, a scan of the table
          index build: \(String(format: "%.1f ms", peer.buildMilliseconds)) (SearchCore's: \(String(format: "%.1f ms", buildMilliseconds)))
          keystroke, all \(peer.typing.count): CPU p50 \(pair(peer.cpu, cpu, 0.5)), p99 \(pair(peer.cpu, cpu, 0.99)); wall p50 \(pair(peer.typing, typing, 0.5)), p99 \(pair(peer.typing, typing, 0.99))
          unscoped, the headline (its scope-free schema): last term ≥ 3 characters (\(peer.split.last3.count)), CPU p50 \(pair(peer.split.last3, split.last3, 0.5)), p99 \(pair(peer.split.last3, split.last3, 0.99)); 1–2 characters (\(peer.split.short.count)), CPU p50 \(pair(peer.split.short, split.short, 0.5)), p99 \(pair(peer.split.short, split.short, 0.99))
          scoped, apart (scopes through an indexed column of a table beside the index): ≥ 3 (\(peer.split.scopedLast3.count)), CPU p50 \(pair(peer.split.scopedLast3, split.scopedLast3, 0.5)), p99 \(pair(peer.split.scopedLast3, split.scopedLast3, 0.99)); 1–2 (\(peer.split.scopedShort.count)), CPU p99 \(pair(peer.split.scopedShort, split.scopedShort, 0.99))
          agreement: \(peer.agreeing) of \(peer.typing.count) keystrokes (\(String(format: "%.1f%%", peer.agreement * 100))) have SearchCore's rows, item for item
        """ + disagreementText(peer.disagreements)
    }

    /// Each reason for a disagreement: how many keystrokes, and the first one's example.
    private func disagreementText(_ disagreements: [Disagreement]) -> String {
      var order: [String] = []
      var byReason: [String: (count: Int, example: String)] = [:]
      for disagreement in disagreements {
        if byReason[disagreement.reason] == nil { order.append(disagreement.reason) }
        byReason[disagreement.reason, default: (0, disagreement.example)].count += 1
      }
      return order.map { reason in
        let entry = byReason[reason] ?? (0, "")
        return "\n    \(entry.count) × \(reason); first: \(entry.example)"
      }.joined()
    }

    var json: String {
      var object = JSONObject()
      object.add("data_set", corpusName)
      object.add("items", items)
      object.add("queries", queries)
      object.add("keystrokes", keystrokes)
      object.add("unscoped_keystrokes", unscoped.count)
      object.add("scoped_keystrokes", scoped.count)
      object.add("gap_ms", gapMilliseconds)
      object.add("fresh_filter", freshFilter)
      object.add("load_ms", loadMilliseconds)
      object.add("index_build_ms", buildMilliseconds)
      object.add("keystroke_p50_ms", percentile(typing, 0.5))
      object.add("keystroke_p99_ms", percentile(typing, 0.99))
      object.add("keystroke_max_ms", typing.max() ?? 0)
      object.add("keystroke_cpu_p50_ms", percentile(cpu, 0.5))
      object.add("keystroke_cpu_p99_ms", percentile(cpu, 0.99))
      object.add("ranked_keystroke_p50_ms", percentile(ranked, 0.5))
      object.add("ranked_keystroke_p99_ms", percentile(ranked, 0.99))
      object.add("ranked_keystroke_max_ms", ranked.max() ?? 0)
      object.add("ranked_keystroke_cpu_p99_ms", percentile(rankedCPU, 0.99))
      for (key, values) in [
        ("last3", split.last3), ("short", split.short), ("scoped_last3", split.scopedLast3),
        ("scoped_short", split.scopedShort),
      ] {
        object.add(key + "_keystrokes", values.count)
        object.add(key + "_cpu_p50_ms", percentile(values, 0.5))
        object.add(key + "_cpu_p99_ms", percentile(values, 0.99))
      }
      object.add("unscoped_p50_ms", percentile(unscoped, 0.5))
      object.add("unscoped_p99_ms", percentile(unscoped, 0.99))
      object.add("unscoped_cpu_p50_ms", percentile(unscopedCPU, 0.5))
      object.add("unscoped_cpu_p99_ms", percentile(unscopedCPU, 0.99))
      object.add("scoped_p50_ms", percentile(scoped, 0.5))
      object.add("scoped_p99_ms", percentile(scoped, 0.99))
      object.add("scoped_cpu_p50_ms", percentile(scopedCPU, 0.5))
      object.add("scoped_cpu_p99_ms", percentile(scopedCPU, 0.99))
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
      object.add("gram_index_mb", Double(gramBytes) / 1_048_576)
      object.add("gram_index_build_ms", gramBuildMilliseconds)
      object.add("peak_rss_mb", peakMemory)
      object.add("folded_bytes", foldedBytes)
      object.add("bandwidth_pass_ms", passMilliseconds)
      object.add("keystroke_p50_passes", passes(percentile(typing, 0.5)))
      object.add("keystroke_p99_passes", passes(percentile(typing, 0.99)))
      object.add("keystroke_cpu_p99_passes", passes(percentile(cpu, 0.99)))
      object.add("keystroke_cpu_p99_passes_unscoped", passes(percentile(unscopedCPU, 0.99)))
      object.add("full_scan_p99_passes", passes(percentile(fullScans, 0.99)))
      if let peer {
        object.add("sqlite", peer.name)
        object.add("sqlite_index_build_ms", peer.buildMilliseconds)
        object.add("sqlite_keystrokes", peer.typing.count)
        object.add("sqlite_keystroke_p50_ms", percentile(peer.typing, 0.5))
        object.add("sqlite_keystroke_p99_ms", percentile(peer.typing, 0.99))
        object.add("sqlite_keystroke_cpu_p50_ms", percentile(peer.cpu, 0.5))
        object.add("sqlite_keystroke_cpu_p99_ms", percentile(peer.cpu, 0.99))
        for (key, values) in [
          ("last3", peer.split.last3), ("short", peer.split.short),
          ("scoped_last3", peer.split.scopedLast3), ("scoped_short", peer.split.scopedShort),
        ] {
          object.add("sqlite_" + key + "_cpu_p50_ms", percentile(values, 0.5))
          object.add("sqlite_" + key + "_cpu_p99_ms", percentile(values, 0.99))
        }
        // Ours over SQLite's, unscoped: below 1, SearchCore is faster.
        object.add(
          "sqlite_ratio_last3_cpu_p50",
          percentile(split.last3, 0.5) / percentile(peer.split.last3, 0.5))
        object.add(
          "sqlite_ratio_last3_cpu_p99",
          percentile(split.last3, 0.99) / percentile(peer.split.last3, 0.99))
        object.add(
          "sqlite_ratio_short_cpu_p99",
          percentile(split.short, 0.99) / percentile(peer.split.short, 0.99))
        object.add("sqlite_agreeing", peer.agreeing)
        object.add("sqlite_agreement", peer.agreement)
      }
      object.add("targets", raw: JSONObject.array(targets.map(\.json)))
      return object.json
    }
  }
}

/// The bandwidth baseline: one `memchr` pass over the folded bytes of the index, for a byte
/// that folded text never holds (0xFE is not UTF-8, and the separator is 0xFF), so every byte
/// is read.
///
/// A keystroke's latency divided by it says how many times the engine reads the index (in effect),
/// whatever the machine and its load.
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
  private let schema: SearchModel.Schema
  private let scopes: [ScopeBar.Scope]

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
    let scope = scopes.indices.contains(index) ? scopes[index] : ScopeBar.Scope(title: "All")
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
