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

/// One run of a program as a user starts it, measured from outside: wall time from spawn to
/// exit, and the process's own peak resident memory (`wait4`'s `ru_maxrss`, which counts that
/// child only), and its CPU time (user and system, `wait4`'s `ru_utime` and `ru_stime`).
struct SpawnedRun {
  var milliseconds: Double
  /// The child's user and system CPU time, every thread.
  var cpuMilliseconds: Double
  var peakMegabytes: Double
  /// The size of what it wrote on standard output.
  var outputBytes: Int

  /// Runs `program` (found on PATH when it has no slash) with `arguments`, standard input
  /// from `input`, standard output into a scratch file (so that writing costs what it costs
  /// into a file, and its size is known), standard error kept for the error message.
  static func run(_ program: String, _ arguments: [String], input: String) throws -> SpawnedRun {
    let folder = FileManager.default.temporaryDirectory.path
    let output = folder + "/searchrepl-bench-\(getpid()).out"
    let errors = folder + "/searchrepl-bench-\(getpid()).err"
    defer {
      unlink(output)
      unlink(errors)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([program] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    resetPeakMemory()
    let clock = ContinuousClock()
    let start = clock.now
    var pid = pid_t()
    let spawned = posix_spawnp(&pid, program, &actions, nil, argv + [nil], environ)
    guard spawned == 0 else {
      throw CommandError("cannot start \(program): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = clock.now - start
    let exitCode = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    // Exit status 1 is "nothing found" for filter and fzf alike: a measurement, not a failure.
    guard exitCode == 0 || exitCode == 1 else {
      let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      throw CommandError(
        "\(([program] + arguments).joined(separator: " ")) < \(input) failed"
          + (exitCode < 0 ? " (killed by a signal)" : " with status \(exitCode)")
          + (message.isEmpty ? "" : ": " + message.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    var information = stat()
    let size = stat(output, &information) == 0 ? Int(information.st_size) : 0
    // Linux gives ru_maxrss in KiB.
    func milliseconds(_ time: timeval) -> Double {
      Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000
    }
    return SpawnedRun(
      milliseconds: elapsed.milliseconds,
      cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime),
      peakMegabytes: Double(usage.ru_maxrss) / 1024,
      outputBytes: size)
  }

  /// Lowers this process's peak resident memory to its current one (Linux: `5` into
  /// `/proc/self/clear_refs`; elsewhere nothing).
  ///
  /// On Linux a child started by `posix_spawn` shares this process's memory until it runs
  /// its program, and the kernel counts this process's peak into the child's `ru_maxrss`:
  /// without the reset, a child could not measure below the bench's own peak (55 MB after
  /// reading W1's data file), whatever it used itself. After it, the floor is this
  /// process's memory at the start, well under any child's measured here.
  private static func resetPeakMemory() {
    #if os(Linux)
      let descriptor = open("/proc/self/clear_refs", O_WRONLY)
      guard descriptor >= 0 else { return }
      _ = write(descriptor, "5", 1)
      close(descriptor)
    #endif
  }

  /// The `SearchREPL` executable built beside this one (both are products of the package), to
  /// run it as a user would.
  static func searchREPLExecutable() throws -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { throw CommandError("cannot find this executable (/proc/self/exe)") }
    let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let folder = own.lastIndex(of: "/").map { String(own[...$0]) } ?? "./"
    let path = folder + "SearchREPL"
    guard access(path, X_OK) == 0 else {
      throw CommandError(
        "no SearchREPL executable beside this one (\(path)): build it with the same"
          + " configuration, e.g. `swift build -c release --product SearchREPL`")
    }
    return path
  }
}

/// The medians of several runs of one command.
struct RunFigures {
  var milliseconds: Double
  var cpuMilliseconds: Double
  var peakMegabytes: Double
  var outputBytes: Int

  init(_ runs: [SpawnedRun]) {
    milliseconds = percentile(runs.map(\.milliseconds), 0.5)
    cpuMilliseconds = percentile(runs.map(\.cpuMilliseconds), 0.5)
    peakMegabytes = percentile(runs.map(\.peakMegabytes), 0.5)
    outputBytes = runs.first?.outputBytes ?? 0
  }
}

/// `SearchBenchmarks --suite startup`: the time from starting `SearchREPL repl --corpus NAME` to its prompt
/// (it loads, indexes, builds the table, then reads end of input and quits), and its peak
/// memory, for each benchmark data set that is built, in each way to start (``variants``).
///
/// The baselines, in the same run: reading the data set's file once (what no loader can beat), the
/// file's size for peak memory, and the first way to start for the others.
struct StartupBenchmark {
  let options: Bench
  static let dataSets = ["cities", "w1", "cities500"]

  /// A way to start the REPL: its name, the arguments added after `repl --corpus PATH`, and
  /// whether it reads a saved index (written once per data set before the runs, by
  /// `SearchREPL index`, into a temporary file that `--index` names).
  struct Variant {
    var name: String
    var arguments: [String]
    var readsSavedIndex = false
  }

  /// The ways to start measured, the first the baseline of the others.
  ///
  /// The two that build ignore a saved index beside the manifest, so that what they measure is the
  /// build.
  static let variants = [
    Variant(name: "default folding", arguments: ["--no-index"]),
    Variant(name: "--fold +latin", arguments: ["--no-index", "--fold", "+latin"]),
    Variant(name: "from a saved index", arguments: [], readsSavedIndex: true),
  ]

  /// The speed targets' limits: a start from a saved index within 150 ms wall and 1.3× the data file's
  /// size in peak memory; `--fold +latin` within 1.5× the default folding's start.
  static let savedStartBudgetMilliseconds = 150.0
  static let savedPeakLimit = 1.3
  static let latinLimit = 1.5

  private struct Row {
    var name: String
    var bytes: Int
    var read: Double
    /// Per variant, in the order of ``variants``.
    var starts: [RunFigures]
  }

  func run() throws {
    let executable = try SpawnedRun.searchREPLExecutable()
    let runs = max(options.runs, 1)
    var rows: [Row] = []
    let progress = BenchProgress()
    for name in options.corpus.map({ [$0] }) ?? Self.dataSets {
      let path: String
      let manifest: Manifest
      do {
        path = try CorpusPaths.manifest(name)
        manifest = try Manifest.load(from: path)
      } catch {
        print("\(name): not measured (\(error))")
        continue
      }
      let data = manifest.dataFilePath(manifestPath: path)
      guard FileManager.default.fileExists(atPath: data) else {
        print("\(name): not measured (\(data) is not built; Corpus/README.md says how)")
        continue
      }
      let savedIndex = FileManager.default.temporaryDirectory
        .appendingPathComponent("searchrepl-bench-\(getpid())-\(name).index").path
      defer { try? FileManager.default.removeItem(atPath: savedIndex) }
      if Self.variants.contains(where: \.readsSavedIndex) {
        progress.show("\(name): writing a saved index")
        let written = try SpawnedRun.run(
          executable, ["index", "--corpus", path, "--output", savedIndex], input: "/dev/null")
        guard FileManager.default.fileExists(atPath: savedIndex) else {
          throw CommandError(
            "\(name): `SearchREPL index --corpus \(path) --output \(savedIndex)` wrote no file"
              + " (it printed \(written.outputBytes) bytes); run it by hand to see why")
        }
      }
      // Reading and each way to start alternate, so that all meet the same load.
      var reads: [Double] = []
      var starts = Array(repeating: [SpawnedRun](), count: Self.variants.count)
      var bytes = 0
      for run in 0..<runs {
        progress.show("\(name): run \(run + 1) of \(runs)")
        let clock = ContinuousClock()
        let begin = clock.now
        bytes = try FileBytes.contents(of: data).mapError { CommandError("\(data): \($0)") }
          .get().count
        reads.append((clock.now - begin).milliseconds)
        for (index, variant) in Self.variants.enumerated() {
          starts[index].append(
            try SpawnedRun.run(
              executable,
              ["repl", "--corpus", path] + variant.arguments
                + (variant.readsSavedIndex ? ["--index", savedIndex] : []),
              input: "/dev/null"))
        }
      }
      rows.append(
        Row(
          name: name, bytes: bytes, read: percentile(reads, 0.5),
          starts: starts.map(RunFigures.init)))
    }
    progress.clear()
    let targets = rows.flatMap { row -> [BenchTarget] in
      guard let first = row.starts.first else { return [] }
      var targets = [
        BenchTarget(
          name: "\(row.name): start-up wall vs reading the data file", figure: first.milliseconds,
          peerFigure: row.read, unit: "ms", limit: nil),
        BenchTarget(
          name: "\(row.name): start-up peak RSS vs the data file's size",
          figure: first.peakMegabytes, peerFigure: Double(row.bytes) / 1_048_576, unit: "MiB",
          limit: nil),
      ]
      for (variant, start) in zip(Self.variants, row.starts).dropFirst() {
        targets.append(
          BenchTarget(
            name: "\(row.name): start-up wall, \(variant.name) vs \(Self.variants[0].name)",
            figure: start.milliseconds, peerFigure: first.milliseconds, unit: "ms",
            limit: variant.readsSavedIndex ? nil : Self.latinLimit))
        if variant.readsSavedIndex {
          targets.append(
            BenchTarget(
              name: "\(row.name): start-up wall \(variant.name) vs a 150 ms budget",
              figure: start.milliseconds, peerFigure: Self.savedStartBudgetMilliseconds,
              unit: "ms", limit: 1))
          targets.append(
            BenchTarget(
              name: "\(row.name): start-up peak RSS \(variant.name) vs the data file's size",
              figure: start.peakMegabytes, peerFigure: Double(row.bytes) / 1_048_576,
              unit: "MiB", limit: Self.savedPeakLimit))
        }
      }
      return targets
    }
    if options.json {
      let objects = rows.map { row -> String in
        var object = JSONObject()
        object.add("data_set", row.name)
        object.add("data_bytes", row.bytes)
        object.add("read_ms", row.read)
        if let first = row.starts.first {
          object.add("startup_ms", first.milliseconds)
          object.add("startup_vs_read", row.read > 0 ? first.milliseconds / row.read : .nan)
          object.add("peak_rss_mb", first.peakMegabytes)
        }
        let variants = zip(Self.variants, row.starts).map { variant, start -> String in
          var object = JSONObject()
          object.add("variant", variant.name)
          object.add("arguments", raw: JSONObject.array(variant.arguments.map(JSONObject.quoted)))
          object.add("startup_ms", start.milliseconds)
          object.add("startup_cpu_ms", start.cpuMilliseconds)
          object.add("peak_rss_mb", start.peakMegabytes)
          return object.json
        }
        object.add("variants", raw: JSONObject.array(variants))
        return object.json
      }
      var object = JSONObject()
      object.add("runs", runs)
      object.add("data_sets", raw: JSONObject.array(objects))
      object.add("targets", raw: JSONObject.array(targets.map(\.json)))
      print(object.json)
      return
    }
    print(
      "start-up: `SearchREPL repl --corpus NAME [VARIANT] < /dev/null` (load, index, table,"
        + " prompt, quit), median of \(runs) runs, each way to start interleaved with reading"
        + " the data file once in the same run")
    for row in rows {
      print(
        String(
          format: "%@: reading the %.1f MB file: %.1f ms", row.name, Double(row.bytes) / 1e6,
          row.read))
      for (variant, start) in zip(Self.variants, row.starts) {
        print(
          String(
            format:
              "  %@: wall %.0f ms (%.1f reads), CPU %.0f ms, peak RSS %.1f MB (%.2f× the file)",
            variant.name, start.milliseconds,
            row.read > 0 ? start.milliseconds / row.read : .nan, start.cpuMilliseconds,
            start.peakMegabytes, start.peakMegabytes / (Double(row.bytes) / 1_048_576)))
      }
    }
    print("targets (our figure vs its baseline, from this run; ratio = figure/baseline):")
    targets.forEach { print($0.text) }
  }
}

/// `SearchBenchmarks --suite filter`: `SearchREPL filter QUERY < FILE` against `fzf --filter QUERY --exact
/// -i --no-sort < FILE` (both whole processes, input order, the same lines), for the first
/// queries of the data set's list, engines interleaved.
///
/// The target compares the children's CPU time (user and system, from `wait4`), which a shared
/// machine's load changes less than wall time; wall time is reported beside it.
struct FilterBenchmark {
  let options: Bench
  /// How many of the data set's queries are run (each whole, as a command line).
  static let queryCount = 10

  func run() throws {
    let executable = try SpawnedRun.searchREPLExecutable()
    let path = try options.resolvedCorpusPath()
    let manifest = try Manifest.load(from: path)
    let data = manifest.dataFilePath(manifestPath: path)
    let queries = try options.queryLines(corpusPath: path).prefix(Self.queryCount)
    let runs = max(options.runs, 1)
    let progress = BenchProgress()
    var ours: [Double] = []
    var theirs: [Double] = []
    var oursCPU: [Double] = []
    var theirsCPU: [Double] = []
    var rows: [String] = []
    var objects: [String] = []
    for (number, query) in queries.enumerated() {
      progress.show("query \(number + 1) of \(queries.count): \(query)")
      var mine: [SpawnedRun] = []
      var fzf: [SpawnedRun] = []
      for _ in 0..<runs {
        mine.append(try SpawnedRun.run(executable, ["filter", "--", query], input: data))
        fzf.append(
          try SpawnedRun.run("fzf", ["--filter", query, "--exact", "-i", "--no-sort"], input: data))
      }
      let a = RunFigures(mine)
      let b = RunFigures(fzf)
      ours.append(a.milliseconds)
      theirs.append(b.milliseconds)
      oursCPU.append(a.cpuMilliseconds)
      theirsCPU.append(b.cpuMilliseconds)
      let quoted = "\"\(query)\""
      rows.append(
        "  " + quoted + String(repeating: " ", count: max(20 - quoted.count, 1))
          + String(
            format:
              "SearchREPL CPU %7.1f ms wall %7.1f ms %6.1f MB %9d bytes out | fzf CPU %7.1f ms wall %7.1f ms %6.1f MB %9d bytes out | CPU %.2f×",
            a.cpuMilliseconds, a.milliseconds, a.peakMegabytes, a.outputBytes, b.cpuMilliseconds,
            b.milliseconds, b.peakMegabytes, b.outputBytes, a.cpuMilliseconds / b.cpuMilliseconds))
      var object = JSONObject()
      object.add("query", query)
      object.add("searchrepl_ms", a.milliseconds)
      object.add("searchrepl_cpu_ms", a.cpuMilliseconds)
      object.add("fzf_cpu_ms", b.cpuMilliseconds)
      object.add("searchrepl_peak_rss_mb", a.peakMegabytes)
      object.add("searchrepl_output_bytes", a.outputBytes)
      object.add("fzf_ms", b.milliseconds)
      object.add("fzf_peak_rss_mb", b.peakMegabytes)
      object.add("fzf_output_bytes", b.outputBytes)
      objects.append(object.json)
    }
    progress.clear()
    let ratio = percentile(ours, 0.5) / percentile(theirs, 0.5)
    let target = BenchTarget(
      name: "\(manifest.name): whole-process filter, CPU (user+sys), median over the queries,"
        + " vs fzf --filter --exact -i --no-sort",
      figure: percentile(oursCPU, 0.5), peerFigure: percentile(theirsCPU, 0.5), unit: "ms",
      limit: 0.5)
    if options.json {
      var object = JSONObject()
      object.add("data", data)
      object.add("runs", runs)
      object.add("searchrepl_p50_ms", percentile(ours, 0.5))
      object.add("fzf_p50_ms", percentile(theirs, 0.5))
      object.add("searchrepl_vs_fzf", ratio)
      object.add("searchrepl_cpu_p50_ms", target.figure)
      object.add("fzf_cpu_p50_ms", target.peerFigure)
      object.add("searchrepl_vs_fzf_cpu", target.ratio)
      object.add("queries", raw: JSONObject.array(objects))
      object.add("targets", raw: JSONObject.array([target.json]))
      print(object.json)
      return
    }
    print(
      "filter: `SearchREPL filter Q < \(data)` against `fzf --filter Q --exact -i --no-sort` on"
        + " the same file, whole processes, median of \(runs) runs each, interleaved."
        + " Outputs differ where folding does (fzf folds only Latin diacritics, SearchREPL also"
        + " width, ligatures, other scripts' marks).")
    rows.forEach { print($0) }
    print(
      String(
        format:
          "median over the queries, wall: SearchREPL %.1f ms, fzf %.1f ms: SearchREPL/fzf %.2f×",
        percentile(ours, 0.5), percentile(theirs, 0.5), ratio))
    print("targets (our figure vs the peer's, from this run; ratio = ours/peer's):")
    print(target.text)
  }
}
