import Foundation
import TestSupport
import Testing

/// `SearchBenchmarks` through the binary: what it counts, what its ratios compare, and what it
/// says when the data set it measures by default is not built.
///
/// Only the counts and the relations between figures are checked, never a speed.
@Suite(.tags(.manyProcesses)) struct BenchCommandTests {
  /// The typing suite counts every keystroke: each character of each of the queries, those
  /// of every other query (the first, third, …) unscoped, the others in a scope.
  ///
  /// Its headline is the baseline's median over SearchCore's full scan on the same sampled
  /// keystrokes; the SQLite peer answers every keystroke too, and the targets carry both figures.
  @Test func typingCountsEveryKeystrokeAndSaysWhatItCompares() throws {
    let queries = try String(
      contentsOfFile: corpusFile("words/bench-queries.txt"), encoding: .utf8
    ).split(separator: "\n").filter { !$0.isEmpty }
    let expectedKeystrokes = queries.reduce(0) { $0 + $1.count }
    let expectedUnscoped = queries.enumerated().filter { $0.offset % 2 == 0 }
      .reduce(0) { $0 + $1.element.count }
    let json = try runBenchmarks(
      ["--corpus", "products", "--baseline-sample", "4", "--sqlite", "--json"])
    #expect(json.status == 0, "\(json.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    #expect(object["items"] as? Int == 45)
    #expect(object["queries"] as? Int == queries.count)
    #expect(object["keystrokes"] as? Int == expectedKeystrokes)
    #expect(object["unscoped_keystrokes"] as? Int == expectedUnscoped)
    #expect(object["scoped_keystrokes"] as? Int == expectedKeystrokes - expectedUnscoped)
    #expect(object["foundation_sample"] as? Int == 4)
    #expect(object["gap_ms"] as? Int == 0)
    #expect(object["fresh_filter"] as? Bool == false)
    let number = { (key: String) -> Double in (object[key] as? Double) ?? .nan }
    // Each ratio is the baseline's median over SearchCore's median of the same sample.
    let fullScanRatio = number("foundation_scan_p50_ms") / number("full_scan_on_sample_p50_ms")
    let typedRatio = number("foundation_scan_p50_ms") / number("typed_on_sample_p50_ms")
    #expect(abs(number("full_scan_vs_foundation_scan") - fullScanRatio) <= 1e-9 * fullScanRatio)
    #expect(abs(number("typed_vs_foundation_scan") - typedRatio) <= 1e-9 * typedRatio)
    #expect(number("keystroke_max_ms") >= number("keystroke_p99_ms"))
    for key in ["keystroke", "last3", "short", "unscoped", "scoped"] {
      #expect(number(key + "_cpu_p99_ms") >= number(key + "_cpu_p50_ms"), "\(key)")
      #expect(number(key + "_cpu_p50_ms") >= 0, "\(key)")
    }
    // The bandwidth baseline reads the index's folded bytes, and the latencies in passes are
    // the latencies over one pass.
    #expect((object["folded_bytes"] as? Int ?? 0) > 45)
    #expect(number("bandwidth_pass_ms") > 0)
    for key in [
      "keystroke_p50", "keystroke_p99", "keystroke_cpu_p99", "full_scan_p99",
    ] {
      let passes = number(key + "_ms") / number("bandwidth_pass_ms")
      #expect(abs(number(key + "_passes") - passes) <= 1e-9 * passes, "\(key)")
    }
    let unscopedPasses = number("unscoped_cpu_p99_ms") / number("bandwidth_pass_ms")
    #expect(
      abs(number("keystroke_cpu_p99_passes_unscoped") - unscopedPasses) <= 1e-9 * unscopedPasses)
    // The split by the last term's length covers every keystroke with a term, unscoped and
    // scoped: all but the first of the queries that start with an anchor, a lone "^".
    let anchored = queries.enumerated().filter { $0.element.hasPrefix("^") }
    let split = ["last3", "short", "scoped_last3", "scoped_short"].map {
      object[$0 + "_keystrokes"] as? Int ?? -1
    }
    #expect(!anchored.isEmpty)
    #expect(split.reduce(0, +) == expectedKeystrokes - anchored.count)
    #expect(split[0] + split[1] == expectedUnscoped - anchored.filter { $0.offset % 2 == 0 }.count)
    // The ratios to SQLite are ours over its, unscoped.
    for (key, ours, theirs) in [
      ("sqlite_ratio_last3_cpu_p50", "last3_cpu_p50_ms", "sqlite_last3_cpu_p50_ms"),
      ("sqlite_ratio_last3_cpu_p99", "last3_cpu_p99_ms", "sqlite_last3_cpu_p99_ms"),
      ("sqlite_ratio_short_cpu_p99", "short_cpu_p99_ms", "sqlite_short_cpu_p99_ms"),
    ] {
      let ratio = number(ours) / number(theirs)
      #expect(abs(number(key) - ratio) <= 1e-9 * ratio, "\(key)")
    }
    // The peer answered every keystroke; its agreement is the fraction of them with our rows
    // (SQLite 3.40 is given folded values, so on these ASCII queries it agrees on most).
    #expect(object["sqlite_keystrokes"] as? Int == expectedKeystrokes)
    let agreeing = try #require(object["sqlite_agreeing"] as? Int)
    #expect(agreeing > 0 && agreeing <= expectedKeystrokes)
    #expect(
      abs(number("sqlite_agreement") - Double(agreeing) / Double(expectedKeystrokes)) <= 1e-12)
    // The targets: each figure beside its peer's, the ratio theirs, met by the limit.
    let targets = try #require(object["targets"] as? [[String: Any]])
    // Each keystroke's CPU against a memchr pass, ranked against unranked, and three against
    // SQLite (the last term of ≥ 3 characters at p50 and p99, of 1–2 at p99).
    #expect(targets.count == 5)
    for target in targets {
      let name = target["name"] as? String ?? ""
      let figure = (target["figure"] as? Double) ?? .nan
      let peer = (target["peer_figure"] as? Double) ?? .nan
      let ratio = (target["ratio"] as? Double) ?? .nan
      let limit = (target["limit"] as? Double) ?? .nan
      #expect(figure >= 0 && peer > 0, "\(name)")
      #expect(abs(ratio - figure / peer) <= 1e-9 * ratio, "\(name)")
      #expect(target["met"] as? Bool == (ratio <= limit), "\(name)")
    }
    let sqliteP50 = try #require(
      targets.first { ($0["name"] as? String)?.contains("CPU p50 vs SQLite") == true })
    #expect(sqliteP50["figure"] as? Double == number("last3_cpu_p50_ms"))
    #expect(sqliteP50["peer_figure"] as? Double == number("sqlite_last3_cpu_p50_ms"))
    #expect(sqliteP50["limit"] as? Double == 0.5)
    let passes = try #require(
      targets.first { ($0["name"] as? String)?.contains("passes ≤ 3") == true })
    #expect(passes["figure"] as? Double == number("keystroke_cpu_p99_ms"))
    #expect(passes["peer_figure"] as? Double == number("bandwidth_pass_ms"))

    let text = try runBenchmarks(["--corpus", "products", "--baseline-sample", "2"])
    #expect(text.status == 0, "\(text.stderrText)")
    let output = String(decoding: text.stdout, as: UTF8.self)
    #expect(output.contains("keystrokes: \(expectedKeystrokes) (every one counted"))
    #expect(output.contains(": \(expectedUnscoped) unscoped (scope All, every other query) + "))
    #expect(output.contains("headline, like for like: Foundation's items.filter"))
    #expect(output.contains("as typed (not like for like"))
    #expect(output.contains("baseline/SearchCore"))
    #expect(output.contains("bandwidth baseline: one memchr pass over the index's"))
    #expect(output.contains("target products: every keystroke, CPU p99 vs one memchr pass"))
    #expect(!output.contains("SQLite"))
  }

  /// `--gap-ms` and `--fresh-filter` say so in the output, and type the same keystrokes.
  @Test func theGapAndFreshFilterModesTypeTheSameKeystrokes() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("BenchCommandTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let queries = folder.appendingPathComponent("queries.txt")
    try "lap\nphone\n".write(to: queries, atomically: true, encoding: .utf8)
    let result = try runBenchmarks([
      "--corpus", "products", "--baseline-sample", "1", "--gap-ms", "2",
      "--fresh-filter", "--json", "--queries", queries.path,
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    #expect(object["keystrokes"] as? Int == 8)
    #expect(object["unscoped_keystrokes"] as? Int == 3)
    #expect(object["scoped_keystrokes"] as? Int == 5)
    #expect(object["gap_ms"] as? Int == 2)
    #expect(object["fresh_filter"] as? Bool == true)

    let text = try runBenchmarks([
      "--corpus", "products", "--baseline-sample", "1", "--gap-ms", "2",
      "--fresh-filter", "--queries", queries.path,
    ])
    #expect(text.status == 0, "\(text.stderrText)")
    let output = String(decoding: text.stdout, as: UTF8.self)
    #expect(output.contains("mode: a 2 ms gap before each search, CPU caches evicted"))
    #expect(output.contains("; a fresh filter per query"))
  }

  /// The items suite reports, besides the main actor's CPU time, the install by the clock
  /// and a replaceAll of every item with about 1 in 100 changed; `--items-phase` runs one
  /// phase alone, for a profiler.
  @Test func theItemsSuiteTimesTheInstallAndAReplaceAll() throws {
    let json = try runBenchmarks(
      ["--suite", "items", "--sizes", "600", "--change-repetitions", "2", "--json"])
    #expect(json.status == 0, "\(json.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    for key in [
      "batch_1000_main_ms_600", "install_main_p99_ms_600", "install_main_p99_ms_list_600",
      "install_main_p50_ms_search_600", "batch_1000_install_ms_600", "replace_all_main_ms_600",
      "replace_all_install_ms_600", "replace_all_stall_ms_600", "replace_all_wall_ms_600",
      "replace_all_reordered_main_ms_600", "replace_all_reordered_stall_ms_600",
      "replace_all_reordered_wall_ms_600", "replace_all_shuffled_main_ms_600",
      "keystroke_broad_p99_ms_600", "rss_ratio_after_typing_600", "build_wall_ms_600",
      "keystroke_p99_ms_600", "change_stall_p99_ms_600", "batch_1000_stall_ms_600",
    ] {
      #expect(((object[key] as? Double) ?? -1) >= 0, "\(key)")
    }
    // Broad queries are typed, and the main actor is the main thread: every probe wake is on
    // it.
    #expect(((object["keystrokes_broad_600"] as? Int) ?? 0) > 0)
    #expect(((object["probe_wakes_600"] as? Int) ?? 0) > 0)
    #expect(object["probe_wakes_off_main_thread_600"] as? Int == 0)
    // 600 items, about 1 in 100 of them changed by the fixed seed.
    #expect(((object["replace_all_changed_600"] as? Int) ?? 0) > 0)

    let phase = try runBenchmarks(
      ["--suite", "items", "--sizes", "600", "--items-phase", "build"])
    #expect(phase.status == 0, "\(phase.stderrText)")
    #expect(String(decoding: phase.stdout, as: UTF8.self).hasPrefix("600: build "))
  }

  /// A data set with its own queries beside its manifest (the cities' multi-script ones) is
  /// typed with those; `--queries` overrides them.
  @Test func aDataSetsOwnQueriesAreTyped() throws {
    let cities = try String(
      contentsOfFile: corpusFile("cities/bench-queries.txt"), encoding: .utf8
    ).split(separator: "\n").filter { !$0.isEmpty }
    #expect(cities.contains("москва") && cities.contains("東京"))
    let own = try runBenchmarks(
      ["--corpus", "cities", "--baseline-sample", "1", "--json"])
    #expect(own.status == 0, "\(own.stderrText)")
    let object = try #require(try JSONSerialization.jsonObject(with: own.stdout) as? [String: Any])
    #expect(object["queries"] as? Int == cities.count)
    // One keystroke per character.
    #expect(object["keystrokes"] as? Int == cities.reduce(0) { $0 + $1.count })

    // A list given with --queries replaces the data set's own (on a small data set: the
    // point is which list is typed).
    let words = try String(
      contentsOfFile: corpusFile("words/bench-queries.txt"), encoding: .utf8
    ).split(separator: "\n").filter { !$0.isEmpty }
    let given = try runBenchmarks([
      "--corpus", "products", "--baseline-sample", "1", "--json", "--queries",
      corpusFile("words/bench-queries.txt"),
    ])
    #expect(given.status == 0, "\(given.stderrText)")
    let other = try #require(
      try JSONSerialization.jsonObject(with: given.stdout) as? [String: Any])
    #expect(other["queries"] as? Int == words.count)
    #expect(other["keystrokes"] as? Int == words.reduce(0) { $0 + $1.count })
  }

  /// The default data set of the typing suite, W1, is built by a script: a folder whose
  /// `Corpus` has the manifest but not the data file gets the command that builds it.
  @Test func aMissingW1SaysHowToBuildIt() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("BenchCommandTests-\(UUID().uuidString)", isDirectory: true)
    let words = folder.appendingPathComponent("Corpus/words", isDirectory: true)
    try FileManager.default.createDirectory(at: words, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["words.manifest.json", "bench-queries.txt"] {
      try FileManager.default.copyItem(
        atPath: corpusFile("words/" + name), toPath: words.appendingPathComponent(name).path)
    }
    let result = try BinaryRunner.run(
      executable: try BinaryRunner.executableURL(named: "SearchBenchmarks"), [],
      stdinFile: URL(fileURLWithPath: "/dev/null"), timeout: 60, folder: folder)
    #expect(result.status == 2)
    #expect(result.stderrText.hasPrefix("SearchBenchmarks: error: "))
    #expect(result.stderrText.contains("W1"))
    #expect(result.stderrText.contains("bash Corpus/words/build.sh"))
    #expect(result.stderrText.contains("--corpus"))
  }

  /// The start-up suite starts the REPL on a data set and says what its ratio compares.
  @Test func startupMeasuresTheREPLAgainstReadingTheFile() throws {
    let result = try runBenchmarks(
      ["--suite", "startup", "--corpus", "cities", "--runs", "1", "--json"])
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let sets = try #require(object["data_sets"] as? [[String: Any]])
    #expect(sets.count == 1)
    let row = try #require(sets.first)
    let size =
      try FileManager.default.attributesOfItem(atPath: corpusFile("cities/cities.tsv"))[
        .size] as? Int
    #expect(row["data_bytes"] as? Int == size)
    let startup = (row["startup_ms"] as? Double) ?? .nan
    let read = (row["read_ms"] as? Double) ?? .nan
    // Starting the REPL reads the file and does more, so it takes longer than reading it.
    #expect(startup > read)
    #expect(abs(((row["startup_vs_read"] as? Double) ?? .nan) - startup / read) <= 1e-9 * startup)
    #expect(((row["peak_rss_mb"] as? Double) ?? 0) > 1)
    // Each way to start: default folding, +latin, and from a saved index written for the run.
    let variants = try #require(row["variants"] as? [[String: Any]])
    #expect(
      variants.map { $0["variant"] as? String } == [
        "default folding", "--fold +latin", "from a saved index",
      ])
    #expect(variants.first?["startup_ms"] as? Double == startup)
    for variant in variants {
      #expect(((variant["startup_cpu_ms"] as? Double) ?? 0) > 0)
      #expect(((variant["peak_rss_mb"] as? Double) ?? 0) > 1)
    }
    let latin = try #require(variants[1]["startup_ms"] as? Double)
    let saved = try #require(variants[2]["startup_ms"] as? Double)
    let savedPeak = try #require(variants[2]["peak_rss_mb"] as? Double)
    // The targets: start-up against reading, peak memory against the file's size, +latin
    // against default folding (limit 1.5), the saved index's start against default folding,
    // against the 150 ms budget (limit 1) and its peak memory against the file (limit 1.3);
    // each with both figures, and met exactly when its ratio is within its limit.
    let targets = try #require(object["targets"] as? [[String: Any]])
    #expect(targets.count == 6)
    guard targets.count == 6 else { return }
    #expect(targets[0]["figure"] as? Double == startup)
    #expect(targets[0]["peer_figure"] as? Double == read)
    #expect(
      abs(((targets[1]["peer_figure"] as? Double) ?? .nan) - Double(size ?? 0) / 1_048_576) < 1e-9)
    let expected: [(figure: Double, peer: Double, limit: Double?)] = [
      (latin, startup, 1.5), (saved, startup, nil), (saved, 150, 1),
      (savedPeak, Double(size ?? 0) / 1_048_576, 1.3),
    ]
    for (target, want) in zip(targets.dropFirst(2), expected) {
      #expect(target["figure"] as? Double == want.figure)
      #expect(target["peer_figure"] as? Double == want.peer)
      #expect(target["limit"] as? Double == want.limit)
      if let limit = want.limit {
        #expect(target["met"] as? Bool == (want.figure / want.peer <= limit))
      }
    }
  }

  /// The filter suite runs both engines on the same file: where folding agrees (ASCII
  /// queries on these names), they print the same lines, byte for byte.
  @Test func filterRunsBothEnginesOnTheSameLines() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("BenchCommandTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let queries = folder.appendingPathComponent("queries.txt")
    try "tokyo\nkoln\nnew york\n".write(to: queries, atomically: true, encoding: .utf8)
    let result = try runBenchmarks([
      "--suite", "filter", "--corpus", "cities", "--runs", "1", "--json", "--queries",
      queries.path,
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let rows = try #require(object["queries"] as? [[String: Any]])
    #expect(rows.map { $0["query"] as? String } == ["tokyo", "koln", "new york"])
    for row in rows {
      let ours = row["searchrepl_output_bytes"] as? Int ?? -1
      #expect(ours > 0)
      #expect(ours == row["fzf_output_bytes"] as? Int, "\(row["query"] ?? "")")
      #expect(((row["searchrepl_cpu_ms"] as? Double) ?? 0) > 0)
      #expect(((row["fzf_cpu_ms"] as? Double) ?? 0) > 0)
    }
    // The target compares the medians of CPU time over the queries, limit 0.5.
    let target = try #require((object["targets"] as? [[String: Any]])?.first)
    let ours = rows.compactMap { $0["searchrepl_cpu_ms"] as? Double }.sorted()
    #expect(target["figure"] as? Double == ours[1])
    #expect(target["peer_figure"] as? Double == object["fzf_cpu_p50_ms"] as? Double)
    #expect(target["limit"] as? Double == 0.5)
  }

  /// The completions suite types every prefix of every query (in the scope of all items and
  /// in the smallest scope) and reports each figure the text names, the ratios computed from
  /// the figures beside them.
  @Test func theCompletionsSuiteTypesEveryPrefixInTwoScopes() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("BenchCommandTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let queries = folder.appendingPathComponent("queries.txt")
    try "san\nzü\n".write(to: queries, atomically: true, encoding: .utf8)
    let result = try runBenchmarks([
      "--suite", "completions", "--corpus", "products", "--json", "--queries",
      queries.path,
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    #expect(object["items"] as? Int == 45)
    #expect(object["keystrokes"] as? Int == 5)
    #expect(object["limit"] as? Int == 10)
    #expect((object["candidates"] as? Int ?? 0) > 45)
    #expect(object["scope_title"] as? String == "Portable")
    #expect((object["scope_items"] as? Int ?? 0) < 45)
    let number = { (key: String) -> Double in (object[key] as? Double) ?? .nan }
    let build = number("completions_build_ms") / number("corpus_build_ms")
    #expect(abs(number("completions_build_vs_corpus_build") - build) <= 1e-9 * build)
    for scope in ["all", "scope", "scope_unranked"] {
      #expect(number(scope + "_max_ms") >= number(scope + "_p99_ms"))
      #expect(number(scope + "_p99_ms") >= number(scope + "_p50_ms"))
      let ratio = number(scope + "_p99_ms") / number("target_ms")
      #expect(abs(number(scope + "_p99_vs_target") - ratio) <= 1e-9 * ratio)
    }
    #expect(number("index_memory_mb") > 0)
    #expect(number("collation_keys_ms") >= 0)
    #expect(number("scope_unranked_one_letter_max_ms") > 0)
    #expect(number("scope_rank_build_ms") > 0)
    #expect(number("scope_rank_memory_mb") > 0)

    let text = try runBenchmarks([
      "--suite", "completions", "--corpus", "products", "--queries", queries.path,
    ])
    #expect(text.status == 0, "\(text.stderrText)")
    let output = String(decoding: text.stdout, as: UTF8.self)
    #expect(output.contains("keystrokes: 5 (every prefix of every query, top 10 each)"))
    #expect(output.contains("x the corpus build, on first use)"))
    #expect(output.contains("scope All: p50 "))
    #expect(output.contains("scope Portable ("))
    #expect(output.contains("scope Portable without its rank (a set asked for once): p50 "))
  }

  /// Runs the built `SearchBenchmarks` with `arguments`, standard input /dev/null.
  private func runBenchmarks(_ arguments: [String]) throws -> RunResult {
    try BinaryRunner.run(arguments, program: "SearchBenchmarks")
  }

  /// A file of the repository's Corpus folder.
  private func corpusFile(_ path: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Corpus/" + path).path
  }
}
