import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

/// `SearchBenchmarks --suite typos`: queries with one or two typos drawn from the data set, typed
/// character by character into SearchCore's words syntax with typo tolerance, against the
/// same queries typed correctly with typos off (today's exact search: the baseline), and into
/// tantivy's fuzzy queries (the peer, Scripts/typo-peer.py), keystroke by keystroke in the same
/// run; then recall: how often the value the person meant is among the first 10 rows.
struct TyposBenchmark {
  let options: Bench

  /// How many queries of each kind are drawn, and from which seed.
  static let queriesPerKind = 100
  static let seed: UInt64 = 20_261_126

  private struct Typed {
    /// CPU and wall time of every keystroke, in milliseconds.
    var cpu: [Double] = []
    var wall: [Double] = []
    /// The peer's CPU time of every keystroke.
    var peerCPU: [Double] = []
    /// Queries whose intended value is among our first 10 rows, and the peer's.
    var found = 0
    var peerFound = 0
    var queries = 0
  }

  func run() throws {
    let normalizer = try Normalizer(folding: try options.folding())
    let path = try options.resolvedCorpusPath()
    let progress = BenchProgress()
    let manifest = try Manifest.load(from: path)
    let (model, loadReport) = try ProgressBar.run(manifest.name, shown: BenchProgress.isShown) {
      try DataSetLoader.load(manifest: manifest, manifestPath: path, progress: $0)
    }
    guard loadReport.rejected.isEmpty else {
      throw CommandError(
        "\(loadReport.rejected.count) lines rejected, first: \(loadReport.rejected[0])")
    }
    let corpus = try ProgressBar.run(manifest.name, shown: BenchProgress.isShown) {
      try SearchCorpus(model: model, normalizer: normalizer, progress: $0)
    }
    let tolerance =
      try options.typos.map { text throws(CommandError) in try TypoOption.tolerance(text) }
      ?? .default
    guard let oneFrom = tolerance.oneTypoFrom, let twoFrom = tolerance.twoTyposFrom else {
      throw CommandError("--typos off: the typos suite measures typo tolerance; give a rule")
    }
    let one = try TypoQuery.draw(
      count: Self.queriesPerKind, typos: 1, minimumLength: oneFrom,
      from: model, normalizer: normalizer, seed: Self.seed)
    let two = try TypoQuery.draw(
      count: Self.queriesPerKind, typos: 2, minimumLength: twoFrom,
      from: model, normalizer: normalizer, seed: Self.seed + 1)

    progress.show("the peer: tantivy over \(model.count) items")
    let peer: TypoPeer?
    let peerNote: String
    do {
      peer = try TypoPeer(
        python: try Self.peerPython(), script: CorpusPaths.repositoryScript("typo-peer.py"),
        model: model, normalizer: normalizer, oneTypoFrom: oneFrom, twoTyposFrom: twoFrom)
      peerNote =
        "tantivy 0.27 (PyPI), fuzzy term queries, the values and queries folded by SearchCore"
    } catch {
      peer = nil
      peerNote = "no peer: \(error)"
    }

    var exact = Typed()
    var typing = [Typed(), Typed()]
    var exactFilter = IncrementalFilter()
    var typoFilter = IncrementalFilter()
    for (number, query) in (one + two).enumerated() {
      progress.show("query \(number + 1) of \(one.count + two.count): \(query.mistyped)")
      // The correct query and the mistyped one in turn, the order alternating.
      for round in 0..<2 {
        if (round == 0) == (number % 2 == 0) {
          try type(
            query.correct, typos: .off, filter: &exactFilter, corpus: corpus, into: &exact,
            intended: query, peer: nil)
        } else {
          try type(
            query.mistyped, typos: tolerance, filter: &typoFilter, corpus: corpus,
            into: &typing[query.typos - 1], intended: query, peer: peer)
        }
      }
    }
    progress.clear()
    try report(
      exact: exact, typing: typing, corpus: corpus, manifest: manifest, peerNote: peerNote,
      peerBuild: peer?.buildMilliseconds, lengths: (oneFrom, twoFrom))
  }

  /// Clears the field and types `text` one character at a time with `typos`, every keystroke
  /// timed (and asked of the peer, when given); at the last keystroke, whether a row of the
  /// first 10 (ranked) has the intended value.
  private func type(
    _ text: String, typos: TypoTolerance, filter: inout IncrementalFilter,
    corpus: SearchCorpus, into typed: inout Typed, intended: TypoQuery, peer: TypoPeer?
  ) throws {
    let clock = ContinuousClock()
    let normalizer = corpus.normalizer
    _ = filter.search(
      try SearchQuery("", syntax: .words, normalizer: normalizer), scope: 0, in: corpus)
    var prefix = ""
    var last: SearchResult?
    var peerAnswer: TypoPeer.Answer?
    for character in text {
      prefix.append(character)
      let peerFirst = typed.cpu.count % 2 == 1
      if peerFirst, let peer { peerAnswer = try peer.search(prefix) }
      let cpu = processCPUMilliseconds()
      let start = clock.now
      let query = try SearchQuery(prefix, syntax: .words, typos: typos, normalizer: normalizer)
      guard let result = filter.search(query, scope: 0, in: corpus) else {
        throw CommandError("a search was cancelled")
      }
      typed.wall.append((clock.now - start).milliseconds)
      typed.cpu.append(processCPUMilliseconds() - cpu)
      if !peerFirst, let peer { peerAnswer = try peer.search(prefix) }
      if let peerAnswer { typed.peerCPU.append(peerAnswer.cpuMilliseconds) }
      last = result
    }
    typed.queries += 1
    guard let last else { return }
    let rows = corpus.ranked(last).prefix(10)
    if rows.contains(where: { Self.has(intended, $0, corpus) }) { typed.found += 1 }
    if let peerAnswer,
      peerAnswer.positions.contains(where: {
        Self.has(intended, corpus.model.id(at: $0), corpus)
      })
    {
      typed.peerFound += 1
    }
  }

  /// Whether item `id` has the intended value in the field it was drawn from.
  private static func has(_ intended: TypoQuery, _ id: ItemID, _ corpus: SearchCorpus) -> Bool {
    corpus.model.values(of: id, field: intended.field).contains {
      (try? corpus.normalizer.fold($0)) == intended.intended
    }
  }

  /// The python of the peer's virtual environment (Scripts/typo-peer-venv.sh makes it).
  private static func peerPython() throws -> String {
    let script = CorpusPaths.repositoryScript("typo-peer-venv.sh")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let python = String(decoding: data, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    guard process.terminationStatus == 0, !python.isEmpty else {
      throw CommandError(
        "\(script) could not make tantivy's virtual environment (PyPI unreachable?)")
    }
    return python
  }

  private func report(
    exact: Typed, typing: [Typed], corpus: SearchCorpus, manifest: Manifest, peerNote: String,
    peerBuild: Double?, lengths: (one: Int, two: Int)
  ) throws {
    let name = manifest.name
    let mistyped = typing[0].cpu + typing[1].cpu
    let exactP99 = percentile(exact.cpu, 0.99)
    func recall(_ found: Int, _ queries: Int) -> Double {
      queries > 0 ? Double(found) / Double(queries) * 100 : .nan
    }
    let oneRecall = recall(typing[0].found, typing[0].queries)
    var targets = [
      BenchTarget(
        name:
          "\(name): keystrokes of queries with 1 or 2 typos (typos on), CPU p99 vs the same queries typed correctly (typos off)",
        figure: percentile(mistyped, 0.99), peerFigure: exactP99, unit: "ms", limit: 2),
      BenchTarget(
        name:
          "\(name): single-typo queries whose intended value is not in the first 10 rows, vs the 5% allowed",
        figure: 100 - oneRecall, peerFigure: 5, unit: "%", limit: 1),
    ]
    let peerTyped = typing[0].peerCPU + typing[1].peerCPU
    if !peerTyped.isEmpty {
      targets.append(
        BenchTarget(
          name: "\(name): keystrokes of queries with typos, CPU p99 vs tantivy's fuzzy queries",
          figure: percentile(mistyped, 0.99), peerFigure: percentile(peerTyped, 0.99),
          unit: "ms", limit: nil))
    }
    if options.json {
      var object = JSONObject()
      object.add("suite", "typos")
      object.add("corpus", name)
      object.add("items", corpus.model.count)
      object.add("peer", peerNote)
      if let peerBuild { object.add("peer_build_cpu_ms", peerBuild) }
      for (label, typed) in [("exact", exact), ("one_typo", typing[0]), ("two_typos", typing[1])] {
        var part = JSONObject()
        part.add("queries", typed.queries)
        part.add("keystrokes", typed.cpu.count)
        part.add("cpu_p50_ms", percentile(typed.cpu, 0.5))
        part.add("cpu_p99_ms", percentile(typed.cpu, 0.99))
        part.add("wall_p99_ms", percentile(typed.wall, 0.99))
        part.add("recall_at_10", recall(typed.found, typed.queries))
        if !typed.peerCPU.isEmpty {
          part.add("peer_cpu_p50_ms", percentile(typed.peerCPU, 0.5))
          part.add("peer_cpu_p99_ms", percentile(typed.peerCPU, 0.99))
          part.add("peer_recall_at_10", recall(typed.peerFound, typed.queries))
        }
        object.add(label, raw: part.json)
      }
      object.add("targets", raw: "[" + targets.map(\.json).joined(separator: ",") + "]")
      print(object.json)
      return
    }
    func ms(_ value: Double) -> String { String(format: "%.3f ms", value) }
    print(
      """
      typos: \(name), \(corpus.model.count) items; queries drawn with seed \(Self.seed): an item's value, its words up to one of ≥ \(lengths.one) characters (≥ \(lengths.two) for two typos), that word mistyped (a character replaced, inserted, deleted, or two swapped); half typed folded
      every keystroke counted, in scope All, the words syntax; the CPU time is the whole process's
      peer: \(peerNote)\(peerBuild.map { String(format: ", its index built in %.0f ms CPU", $0) } ?? "")
      """)
    for (label, typed) in [
      ("typed correctly, typos off (the baseline)", exact), ("one typo, typos on", typing[0]),
      ("two typos, typos on", typing[1]),
    ] {
      var line =
        "  \(label): \(typed.queries) queries, \(typed.cpu.count) keystrokes, CPU p50 \(ms(percentile(typed.cpu, 0.5))), p99 \(ms(percentile(typed.cpu, 0.99))); wall p99 \(ms(percentile(typed.wall, 0.99))); intended value in the first 10: "
        + String(format: "%.1f%%", recall(typed.found, typed.queries))
      if !typed.peerCPU.isEmpty {
        line +=
          "; tantivy CPU p50 \(ms(percentile(typed.peerCPU, 0.5))), p99 \(ms(percentile(typed.peerCPU, 0.99))), in the first 10: "
          + String(format: "%.1f%%", recall(typed.peerFound, typed.queries))
      }
      print(line)
    }
    print("targets (our figure vs the baseline's or peer's, from this run; ratio = ours/theirs):")
    for target in targets { print(target.text) }
  }
}
