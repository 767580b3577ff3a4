import Foundation
import SearchCommandLine
import SearchCore
import SearchCoreTesting
import SearchEngine
import Synchronization

/// `SearchBenchmarks --suite items`: the path an app takes, ``ItemSearch`` end to end, on generated
/// contacts of the GettingStarted guide's shape (name, company, e-mails, a group as scope,
/// first-letter sections under collation, background searches), at each of `--sizes`.
///
/// An app table view follows the update stream as the guide's does (`update.apply(to:)`, which
/// reads each update's change set on the main actor).
///
/// What the main actor pays is measured two ways, since a busy machine stretches wall time:
/// - **busy**: the CPU time of the threads that serve the main actor over the operation
///   (``MainThreadCPU``, an upper bound), taken in a pass without the probe;
/// - **stall**: the longest time work on the main actor held it, found by a probe task that
///   sleeps 1 ms at a time on it and reads the main actor's CPU time at each wake, as a
///   frame-drop detector would; the longest lateness of a wake is reported beside it, which
///   also counts the machine running other threads (background work on every core), against
///   the lateness of the same probe on an idle and on a loaded machine, measured in the same
///   run.
///
/// The install, the part of a change that runs synchronously on the main actor (checking the
/// batch, the controller's install, the update delivered to the table view), is also timed by
/// the clock (``ItemSearch/lastApplyMainActorTime``), which separates it from the rest of the
/// main actor's time (hopping to and from the background, waking, freeing).
///
/// The baselines, measured in the same run on the same items: the engine under the search
/// (``SearchCorpus`` built from the same model, and ``IncrementalFilter`` typing the same
/// keystrokes), the build (against which `replaceAll` is set: what rebuilding the search
/// would cost) and one frame, 16.7 ms.
///
/// `--items-phase` runs one phase alone, for a profiler: `build`, or `list-changes` (single
/// changes and a batch with the whole list on screen, without the probe).
@MainActor
struct ItemsBenchmark {
  let options: Bench

  func run() async throws {
    let sizes = options.sizes
    guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }) else {
      throw CommandError("--sizes needs positive item counts, such as 20000,200000")
    }
    if let phase = options.itemsPhase {
      for size in sizes { try await profile(phase, size: size) }
      return
    }
    var json = JSONObject()
    let idle = await StallProbe.noiseFloor()
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let loaded = await StallProbe.noiseFloor(loadedWith: cores)
    json.add("probe_late_idle_p99_ms", idle)
    json.add("probe_late_loaded_p99_ms", loaded)
    if !options.json {
      print(
        "ItemSearch over generated contacts (name, company, e-mails; 3 scopes; first-letter"
          + " sections under collation; background searches of words with typo tolerance, the"
          + " default, so the build includes the word index; a table view applying every"
          + " update). Probe (a 1 ms sleep on the main actor) lateness p99: idle"
          + " \(Self.format(idle)) ms, with \(cores) busy background threads"
          + " \(Self.format(loaded)) ms.")
    }
    for size in sizes {
      let figures = try await measure(size: size)
      figures.add(to: &json, suffix: Self.suffix(size))
      if !options.json { figures.print(size: size) }
    }
    json.add("rss_mb", ResidentMemory.peakMegabytes())
    if options.json { print(json.json) }
  }

  /// "_20k" for 20,000 items, "_200k" for 200,000, "_1234" for other counts.
  nonisolated static func suffix(_ size: Int) -> String {
    size % 1_000 == 0 ? "_\(size / 1_000)k" : "_\(size)"
  }

  nonisolated static func format(_ value: Double) -> String { String(format: "%.3f", value) }

  // MARK: One phase, for a profiler

  /// Runs one phase alone at `size`, and prints its wall time.
  func profile(_ phase: Bench.ItemsPhase, size: Int) async throws {
    var contacts = BenchContact.generate(count: size, seed: 27)
    var start = ContinuousClock.now
    let search = try await makeSearch(contacts)
    print("\(size): build \(Self.format((ContinuousClock.now - start).milliseconds)) ms")
    var random = SplitMix64(seed: 28)
    switch phase {
    case .build, .listChanges: break
    case .sync:
      for order in SyncOrder.allCases {
        let synced = Self.synced(contacts, order: order, random: &random)
        start = .now
        try await search.replaceAll(synced.list)
        await search.settled()
        contacts = synced.list
        print(
          "\(size): replaceAll given \(order.rawValue)"
            + " \(Self.format((ContinuousClock.now - start).milliseconds)) ms, main actor by the"
            + " clock \(Self.format(search.lastApplyMainActorTime.milliseconds)) ms, of which"
            + " the controller's \(Self.format(search.controller.lastApplyMainActorTime.milliseconds)) ms"
        )
      }
      return
    case .keystrokes:
      search.isActive = true
      start = .now
      for query in Self.queries {
        for end in query.indices {
          search.text = String(query[...end])
          await search.settled()
        }
        search.text = ""
        await search.settled()
      }
      print("\(size): keystrokes \(Self.format((ContinuousClock.now - start).milliseconds)) ms")
      let typed = ResidentMemory.megabytes()
      ResidentMemory.trim()
      print(
        "\(size): RSS \(Self.format(typed)) MB after typing,"
          + " \(Self.format(ResidentMemory.megabytes())) MB after malloc_trim")
      return
    }
    guard phase == .listChanges else { return }
    search.isActive = false
    await search.settled()
    start = .now
    for step in 0..<(3 * options.changeRepetitions) {
      try await search.apply([nextChange(step, contacts: &contacts, random: &random)])
      await search.settled()
    }
    print(
      "\(size): \(3 * options.changeRepetitions) single changes"
        + " \(Self.format((ContinuousClock.now - start).milliseconds)) ms")
    start = .now
    try await search.apply((0..<1_000).map { nextChange($0, contacts: &contacts, random: &random) })
    await search.settled()
    print("\(size): a batch of 1,000 \(Self.format((ContinuousClock.now - start).milliseconds)) ms")
  }

  // MARK: One size

  func measure(size: Int) async throws -> Figures {
    var figures = Figures()
    let before = ResidentMemory.megabytes()
    var contacts = BenchContact.generate(count: size, seed: 27)
    figures.itemsMB = ResidentMemory.megabytes() - before
    let probe = StallProbe()

    // The build: wall time and main-actor CPU. The stall of a build (a second one, with the
    // probe) and the engine's baseline build come after the memory after typing is read: what
    // they free the allocator keeps, and an app builds once.
    let memoryBefore = ResidentMemory.megabytes()
    var start = ContinuousClock.now
    var cpu = MainThreadCPU.now()
    let search: ItemSearch<BenchContact, BenchContact.Group, Never> = try await makeSearch(
      contacts)
    figures.buildMainMS = MainThreadCPU.now() - cpu
    figures.buildWallMS = (ContinuousClock.now - start).milliseconds
    figures.buildMB = ResidentMemory.megabytes() - memoryBefore
    let tableView = CountingTableView()
    let token = search.observe { update in update.apply(to: tableView) }
    defer { token.cancel() }

    // Keystrokes, every one, each waited for until its update is on screen.
    search.isActive = true
    var keystrokes: [Double] = []
    var broad: [Double] = []
    var busy: [Double] = []
    var late: [Double] = []
    var typed: [String] = []
    var shares: [(query: String, share: Double)] = []
    func keystroke(_ text: String) async {
      probe.start()
      start = .now
      search.text = text
      await search.settled()
      keystrokes.append((ContinuousClock.now - start).milliseconds)
      let share = Double(search.count(in: nil) ?? 0) / Double(max(search.count, 1))
      if share >= Self.broadShare { broad.append(keystrokes.last ?? 0) }
      if !text.isEmpty { shares.append((text, share)) }
      let stall = probe.takeLongest()
      busy.append(stall.busy)
      late.append(stall.late)
      if let limit = options.showSlowerThan, max(stall.late, keystrokes.last ?? 0) > limit {
        print(
          "  slow keystroke at \(size): \"\(text)\" settled in"
            + " \(Self.format(keystrokes.last ?? 0)) ms, longest stall"
            + " \(Self.format(stall.busy)) ms (wake \(Self.format(stall.late)) ms late),"
            + " \(search.rows.count) rows")
      }
    }
    for query in Self.queries {
      for end in query.indices {
        let text = String(query[...end])
        await keystroke(text)
        typed.append(text)
      }
      await keystroke("")
    }
    probe.stop()
    figures.keystrokeP50 = percentile(keystrokes, 0.5)
    figures.keystrokeP99 = percentile(keystrokes, 0.99)
    figures.keystrokeMax = keystrokes.max() ?? 0
    figures.broadP99 = percentile(broad, 0.99)
    figures.broadKeystrokes = broad.count
    figures.queryShares = Self.queries.map { query in
      (query, shares.last { $0.query == query }?.share ?? 0)
    }
    // Memory after use: the word index and both tables are built by now.
    figures.typedMB = ResidentMemory.megabytes() - memoryBefore
    // Apart, labelled: what of it the allocator keeps of freed blocks, given back by a trim.
    ResidentMemory.trim()
    figures.typedTrimmedMB = ResidentMemory.megabytes() - memoryBefore

    // The stall of a second build, with the probe.
    probe.start()
    let second = try await makeSearch(contacts)
    figures.buildStall = probe.takeLongest()
    withExtendedLifetime(second) {}
    // The baseline of the build: the engine's corpus over the same model, alone.
    start = .now
    _ = try SearchCorpus(
      model: search.controller.corpus.model, normalizer: search.controller.corpus.normalizer)
    figures.engineBuildMS = (ContinuousClock.now - start).milliseconds
    figures.keystrokeStall = (percentile(busy, 0.99), percentile(late, 0.99))
    figures.keystrokes = keystrokes.count
    figures.engineKeystrokeP99 = try engineKeystrokes(
      typed, corpus: search.controller.corpus, typos: search.controller.configuration.typos)

    // Changes: with the whole list on screen, then with a search on screen.
    var random = SplitMix64(seed: 28)
    for onScreen in [Screen.wholeList, .search] {
      if onScreen == .search {
        search.isActive = true
        search.text = Self.shownSearch
      } else {
        search.isActive = false
      }
      await search.settled()
      var main: [Double] = []
      var install: [Double] = []
      var busy: [Double] = []
      var late: [Double] = []
      for step in 0..<(3 * options.changeRepetitions) {
        let change = nextChange(step, contacts: &contacts, random: &random)
        cpu = MainThreadCPU.now()
        try await search.apply([change])
        await search.settled()
        main.append(MainThreadCPU.now() - cpu)
        install.append(search.lastApplyMainActorTime.milliseconds)
        let probed = nextChange(step, contacts: &contacts, random: &random)
        probe.start()
        try await search.apply([probed])
        await search.settled()
        let stall = probe.takeLongest()
        busy.append(stall.busy)
        late.append(stall.late)
      }
      let batch = (0..<1_000).map { nextChange($0, contacts: &contacts, random: &random) }
      cpu = MainThreadCPU.now()
      start = .now
      try await search.apply(batch)
      await search.settled()
      let batchMain = MainThreadCPU.now() - cpu
      let batchWall = (ContinuousClock.now - start).milliseconds
      let batchInstall = search.lastApplyMainActorTime.milliseconds
      let probedBatch = (0..<1_000).map { nextChange($0, contacts: &contacts, random: &random) }
      probe.start()
      try await search.apply(probedBatch)
      await search.settled()
      let batchStall = probe.takeLongest()
      probe.stop()
      let side = ChangeFigures(
        mainP99: percentile(main, 0.99), mainP50: percentile(main, 0.5),
        installP99: percentile(install, 0.99), installP50: percentile(install, 0.5),
        stallP99: (percentile(busy, 0.99), percentile(late, 0.99)), batchMain: batchMain,
        batchInstall: batchInstall, batchWall: batchWall, batchStall: batchStall,
        rows: search.rows.count)
      if onScreen == .wholeList { figures.wholeList = side } else { figures.searching = side }
    }
    search.isActive = false
    await search.settled()

    // A sync: the whole list replaced by a version where about 1 in 100 items changed, with
    // the whole list on screen, given in the list's order and in three others; each first
    // timed, then again (another sync) with the probe.
    for order in SyncOrder.allCases {
      var synced = Self.synced(contacts, order: order, random: &random)
      var figure = Figures.ReplaceAllFigures()
      cpu = MainThreadCPU.now()
      start = .now
      try await search.replaceAll(synced.list)
      await search.settled()
      figure.main = MainThreadCPU.now() - cpu
      figure.wall = (ContinuousClock.now - start).milliseconds
      figure.install = search.lastApplyMainActorTime.milliseconds
      figure.changed = synced.changed
      contacts = synced.list
      synced = Self.synced(contacts, order: order, random: &random)
      probe.start()
      try await search.replaceAll(synced.list)
      await search.settled()
      figure.stall = probe.takeLongest()
      probe.stop()
      contacts = synced.list
      guard search.count == contacts.count else {
        throw CommandError("replaceAll left \(search.count) items, not \(contacts.count)")
      }
      figures.replaceAll.append((order, figure))
    }
    figures.wakesOffMain = probe.wakesOffMain
    figures.wakes = probe.wakes
    figures.rowsApplied = tableView.rows
    return figures
  }

  /// What is on screen while items change.
  enum Screen { case wholeList, search }

  /// The search shown while items change with a search on screen.
  static let shownSearch = "mü"

  /// The queries typed, character by character, each after clearing the field: names,
  /// companies and mail domains of the generated contacts, in several scripts, and broad
  /// ones that match most contacts (single letters, "an", parts of every e-mail address).
  static let queries = [
    "mü", "müller", "anna", "kenji", "søren", "acme", "ирина", "łukasz", "zoë garcía", "gmail",
    "chen", "o'brien", "a", "e", "an", "example.", "com", "mail",
  ]

  /// The share of the items from which a keystroke's result counts as broad.
  nonisolated static let broadShare = 0.3

  /// The orders a sync gives the list in.
  enum SyncOrder: String, CaseIterable {
    case given, reversed
    case byName = "sorted by name"
    case shuffled
  }

  private func makeSearch(_ contacts: [BenchContact]) async throws -> ItemSearch<
    BenchContact, BenchContact.Group, Never
  > {
    try await ItemSearch(
      contacts, searching: \.name, \.company, \.emails,
      scopes: .cases(\.group),
      configuration: .init(
        sections: .firstLetter(\.name), search: SearchConfiguration(mode: .background)))
  }

  /// The engine under the search typing the same keystrokes in one ``IncrementalFilter``
  /// (narrowing as it goes, as the controller does) with the same typo tolerance, p99 in
  /// milliseconds.
  private func engineKeystrokes(_ texts: [String], corpus: SearchCorpus, typos: TypoTolerance)
    throws -> Double
  {
    var filter = IncrementalFilter()
    var times: [Double] = []
    for text in texts {
      let start = ContinuousClock.now
      let query = try SearchQuery(text, syntax: .words, typos: typos, normalizer: corpus.normalizer)
      let found = filter.search(query, scope: 0, in: corpus)?.items.count ?? 0
      times.append((ContinuousClock.now - start).milliseconds)
      if found < 0 { Swift.print(found) }
    }
    return percentile(times, 0.99)
  }

  /// `contacts` after a sync that changed about 1 in 100 of them (a third of those renamed,
  /// a third removed, and a third with a new contact inserted before them), given in `order`;
  /// and how many changed.
  private static func synced(
    _ contacts: [BenchContact], order: SyncOrder, random: inout SplitMix64
  ) -> (list: [BenchContact], changed: Int) {
    var (list, changed) = synced(contacts, random: &random)
    switch order {
    case .given: break
    case .reversed: list.reverse()
    case .byName: list.sort { ($0.name, $0.id) < ($1.name, $1.id) }
    case .shuffled: list.shuffle(using: &random)
    }
    return (list, changed)
  }

  private static func synced(_ contacts: [BenchContact], random: inout SplitMix64) -> (
    list: [BenchContact], changed: Int
  ) {
    var list: [BenchContact] = []
    list.reserveCapacity(contacts.count + contacts.count / 200)
    var changed = 0
    for contact in contacts {
      guard random.next() % 100 == 0 else {
        list.append(contact)
        continue
      }
      changed += 1
      switch changed % 3 {
      case 0:
        var renamed = contact
        renamed.name = BenchContact.make(id: 0, random: &random).name
        list.append(renamed)
      case 1:
        break
      default:
        list.append(BenchContact.make(id: BenchContact.nextID(), random: &random))
        list.append(contact)
      }
    }
    return (list, changed)
  }

  /// A third each of inserts, renames and removals.
  private func nextChange(
    _ step: Int, contacts: inout [BenchContact], random: inout SplitMix64
  ) -> ItemChange<BenchContact> {
    switch step % 3 {
    case 0:
      let contact = BenchContact.make(id: BenchContact.nextID(), random: &random)
      contacts.append(contact)
      return .insert(contact)
    case 1:
      let index = Int(random.next() % UInt64(contacts.count))
      var renamed = contacts[index]
      renamed.name = BenchContact.make(id: 0, random: &random).name
      contacts[index] = renamed
      return .update(renamed)
    default:
      let index = Int(random.next() % UInt64(contacts.count))
      let gone = contacts.remove(at: index)
      return .remove(gone.id)
    }
  }

  // MARK: Figures

  /// A stall: the main actor's CPU time between two wakes of the probe, and the lateness of
  /// a wake, in milliseconds.
  typealias Stall = (busy: Double, late: Double)

  struct ChangeFigures {
    var mainP99 = 0.0, mainP50 = 0.0
    /// The install by the clock (``ItemSearch/lastApplyMainActorTime``).
    var installP99 = 0.0, installP50 = 0.0
    var stallP99: Stall = (0, 0)
    var batchMain = 0.0, batchInstall = 0.0, batchWall = 0.0
    var batchStall: Stall = (0, 0)
    var rows = 0
  }

  struct Figures {
    var itemsMB = 0.0, buildMB = 0.0, typedMB = 0.0, typedTrimmedMB = 0.0
    var buildWallMS = 0.0, buildMainMS = 0.0, engineBuildMS = 0.0
    var buildStall: Stall = (0, 0)
    var keystrokeP50 = 0.0, keystrokeP99 = 0.0, keystrokeMax = 0.0
    var broadP99 = 0.0
    var broadKeystrokes = 0
    var queryShares: [(query: String, share: Double)] = []
    var keystrokeStall: Stall = (0, 0)
    var engineKeystrokeP99 = 0.0
    var keystrokes = 0
    var wholeList = ChangeFigures()
    var searching = ChangeFigures()
    var replaceAll: [(order: SyncOrder, figures: ReplaceAllFigures)] = []
    var rowsApplied = 0
    /// The probe's wakes, and those that were not on the main thread (an app's main actor
    /// is its main thread: each should be 0).
    var wakes = 0, wakesOffMain = 0

    /// The worst of the syncs given in another order than the list's.
    var reordered: ReplaceAllFigures {
      var worst = ReplaceAllFigures()
      for (order, figures) in replaceAll where order != .given {
        worst.changed = max(worst.changed, figures.changed)
        worst.main = max(worst.main, figures.main)
        worst.install = max(worst.install, figures.install)
        worst.wall = max(worst.wall, figures.wall)
        worst.stall = (
          max(worst.stall.busy, figures.stall.busy), max(worst.stall.late, figures.stall.late)
        )
      }
      return worst
    }

    /// The targets of the app's path at 200,000 items, a quarter of them at 20,000 for the
    /// batch and keystrokes: (name, figure, target, whether lower is better).
    func targets(size: Int) -> [(String, Double, Double)] {
      let small = size <= 20_000
      var list: [(String, Double, Double)] = [
        ("keystroke to settled update p99 (ms)", keystrokeP99, small ? 4 : 16),
        ("broad keystroke p99 (ms)", broadP99, small ? 4 : 16),
        ("reordered replaceAll, main thread (ms)", reordered.main, 8),
        ("reordered replaceAll, longest stall (ms)", reordered.stall.busy, 4),
        ("reordered replaceAll, wall (ms)", reordered.wall, 1_500),
        ("memory after typing, x the items", typedMB / max(itemsMB, 0.001), 2),
        (
          "one change, longest stall p99 (ms)",
          max(wholeList.stallP99.busy, searching.stallP99.busy), 1
        ),
        (
          "batch of 1,000, longest stall (ms)",
          max(wholeList.batchStall.busy, searching.batchStall.busy), small ? 1 : 4
        ),
      ]
      if !small { list.insert(("build, wall (ms)", buildWallMS, 1_500), at: 0) }
      return list
    }

    /// `replaceAll` with about 1% of the items changed, the whole list on screen.
    struct ReplaceAllFigures {
      var changed = 0
      var main = 0.0, install = 0.0, wall = 0.0
      var stall: Stall = (0, 0)
    }

    func add(to json: inout JSONObject, suffix: String) {
      json.add("items_mb" + suffix, itemsMB)
      json.add("build_mb" + suffix, buildMB)
      json.add("build_wall_ms" + suffix, buildWallMS)
      json.add("build_main_ms" + suffix, buildMainMS)
      json.add("build_stall_ms" + suffix, buildStall.busy)
      json.add("build_late_ms" + suffix, buildStall.late)
      json.add("engine_build_ms" + suffix, engineBuildMS)
      json.add("keystrokes" + suffix, keystrokes)
      json.add("keystroke_p50_ms" + suffix, keystrokeP50)
      json.add("keystroke_p99_ms" + suffix, keystrokeP99)
      json.add("keystroke_stall_p99_ms" + suffix, keystrokeStall.busy)
      json.add("keystroke_late_p99_ms" + suffix, keystrokeStall.late)
      json.add("engine_keystroke_p99_ms" + suffix, engineKeystrokeP99)
      // The targets hold for either table on screen: the worse of the two is the figure.
      json.add("change_main_p99_ms" + suffix, max(wholeList.mainP99, searching.mainP99))
      json.add(
        "change_stall_p99_ms" + suffix, max(wholeList.stallP99.busy, searching.stallP99.busy))
      json.add("batch_1000_main_ms" + suffix, max(wholeList.batchMain, searching.batchMain))
      json.add(
        "batch_1000_stall_ms" + suffix, max(wholeList.batchStall.busy, searching.batchStall.busy))
      json.add("install_main_p99_ms" + suffix, max(wholeList.installP99, searching.installP99))
      json.add(
        "batch_1000_install_ms" + suffix, max(wholeList.batchInstall, searching.batchInstall))
      for (name, side) in [("list", wholeList), ("search", searching)] {
        json.add("change_main_p99_ms_\(name)" + suffix, side.mainP99)
        json.add("change_main_p50_ms_\(name)" + suffix, side.mainP50)
        json.add("install_main_p99_ms_\(name)" + suffix, side.installP99)
        json.add("install_main_p50_ms_\(name)" + suffix, side.installP50)
        json.add("batch_1000_install_ms_\(name)" + suffix, side.batchInstall)
        json.add("change_stall_p99_ms_\(name)" + suffix, side.stallP99.busy)
        json.add("change_late_p99_ms_\(name)" + suffix, side.stallP99.late)
        json.add("batch_1000_main_ms_\(name)" + suffix, side.batchMain)
        json.add("batch_1000_wall_ms_\(name)" + suffix, side.batchWall)
        json.add("batch_1000_stall_ms_\(name)" + suffix, side.batchStall.busy)
        json.add("batch_1000_late_ms_\(name)" + suffix, side.batchStall.late)
      }
      json.add("keystroke_max_ms" + suffix, keystrokeMax)
      json.add("keystroke_broad_p99_ms" + suffix, broadP99)
      json.add("keystrokes_broad" + suffix, broadKeystrokes)
      json.add("typed_mb" + suffix, typedMB)
      json.add("rss_ratio_after_build" + suffix, buildMB / max(itemsMB, 0.001))
      json.add("rss_ratio_after_typing" + suffix, typedMB / max(itemsMB, 0.001))
      json.add("rss_ratio_after_typing_trimmed" + suffix, typedTrimmedMB / max(itemsMB, 0.001))
      json.add("probe_wakes" + suffix, wakes)
      json.add("probe_wakes_off_main_thread" + suffix, wakesOffMain)
      for (order, figures) in replaceAll {
        let name =
          order == .given ? "" : "_" + order.rawValue.replacingOccurrences(of: " ", with: "_")
        json.add("replace_all\(name)_changed" + suffix, figures.changed)
        json.add("replace_all\(name)_main_ms" + suffix, figures.main)
        json.add("replace_all\(name)_install_ms" + suffix, figures.install)
        json.add("replace_all\(name)_wall_ms" + suffix, figures.wall)
        json.add("replace_all\(name)_stall_ms" + suffix, figures.stall.busy)
        json.add("replace_all\(name)_late_ms" + suffix, figures.stall.late)
      }
      json.add("replace_all_reordered_main_ms" + suffix, reordered.main)
      json.add("replace_all_reordered_stall_ms" + suffix, reordered.stall.busy)
      json.add("replace_all_reordered_wall_ms" + suffix, reordered.wall)
    }

    func print(size: Int) {
      let f = ItemsBenchmark.format
      func stall(_ value: Stall) -> String {
        "longest stall \(f(value.busy)) ms (wake \(f(value.late)) ms late)"
      }
      Swift.print("\n\(size) contacts (\(f(itemsMB)) MB of items):")
      Swift.print(
        "  build: \(f(buildWallMS)) ms wall, main actor \(f(buildMainMS)) ms CPU,"
          + " \(stall(buildStall)), +\(f(buildMB)) MB (\(f(buildMB / max(itemsMB, 0.001)))x"
          + " the items)")
      Swift.print(
        "    baseline, the engine's corpus over the same model alone: \(f(engineBuildMS)) ms;"
          + " the build is \(f(buildWallMS / max(engineBuildMS, 0.001)))x it")
      Swift.print(
        "  keystroke to settled update, every one of \(keystrokes): p50 \(f(keystrokeP50)) ms,"
          + " p99 \(f(keystrokeP99)) ms (\(f(keystrokeP99 / 16.7)) frames); p99 of the"
          + " \(stall(keystrokeStall))")
      Swift.print(
        "    baseline, the engine's incremental filter on the same keystrokes, p99:"
          + " \(f(engineKeystrokeP99)) ms; the search is"
          + " \(f(keystrokeP99 / max(engineKeystrokeP99, 0.001)))x it")
      for (name, side) in [("whole list on screen", wholeList), ("search on screen", searching)] {
        Swift.print(
          "  one change (insert, rename, delete), \(name) (\(side.rows) rows): main actor p99"
            + " \(f(side.mainP99)) ms CPU (p50 \(f(side.mainP50))), p99 of the"
            + " \(stall(side.stallP99))")
        Swift.print(
          "    install (apply's synchronous part on the main actor, by the clock; the rest of the"
            + " main actor's CPU above is hops, wakes and freeing): p99 \(f(side.installP99)) ms"
            + " (p50 \(f(side.installP50))), \(f(side.installP99 / 16.7)) frames")
        Swift.print(
          "    batch of 1,000 mixed changes: main actor \(f(side.batchMain)) ms CPU (install"
            + " \(f(side.batchInstall)) ms by the clock), \(stall(side.batchStall)),"
            + " \(f(side.batchWall)) ms wall")
      }
      for (order, figures) in replaceAll {
        Swift.print(
          "  replaceAll with \(figures.changed) of \(size) items changed (~1%), given \(order.rawValue == "given" ? "in the list's order" : order.rawValue),"
            + " whole list on screen: main thread \(f(figures.main)) ms CPU (install"
            + " \(f(figures.install)) ms by the clock), \(stall(figures.stall)),"
            + " \(f(figures.wall)) ms wall (\(f(figures.wall / max(buildWallMS, 0.001)))x a rebuild)"
        )
      }
      Swift.print(
        "  keystrokes that match at least \(Int(ItemsBenchmark.broadShare * 100))% of the items:"
          + " \(broadKeystrokes), p99 \(f(broadP99)) ms; slowest keystroke \(f(keystrokeMax)) ms")
      Swift.print(
        "    share of the items each query matches: "
          + queryShares.map { "\($0.query) \(Int(($0.share * 100).rounded()))%" }.joined(
            separator: ", "))
      Swift.print(
        "  memory: +\(f(buildMB)) MB after the build, +\(f(typedMB)) MB after typing"
          + " (\(f(typedMB / max(itemsMB, 0.001)))x the items); apart, after the allocator"
          + " gives back what it keeps of freed blocks (malloc_trim): +\(f(typedTrimmedMB)) MB"
          + " (\(f(typedTrimmedMB / max(itemsMB, 0.001)))x)")
      Swift.print(
        "  probe: \(wakes) wakes, \(wakesOffMain) of them off the main thread")
      Swift.print("  targets:")
      for (name, value, target) in targets(size: size) {
        Swift.print(
          "    \(value <= target ? "met   " : "MISSED") \(name): \(f(value)) (target <= \(f(target)))"
        )
      }
    }
  }
}

/// An app's table view as the benchmark's: it takes every batch update as UIKit's would be
/// told of it, and counts the rows it was told of.
@MainActor
final class CountingTableView: TableBatchUpdating {
  private(set) var rows = 0
  func reloadData() { rows += 1 }
  func performBatchUpdates(_ updates: () -> Void) { updates() }
  func deleteSections(_ sections: [Int]) { rows += sections.count }
  func insertSections(_ sections: [Int]) { rows += sections.count }
  func deleteRows(at indexPaths: [TableIndexPath]) { rows += indexPaths.count }
  func insertRows(at indexPaths: [TableIndexPath]) { rows += indexPaths.count }
  func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath) { rows += 1 }
  func reloadRows(at indexPaths: [TableIndexPath]) { rows += indexPaths.count }
}

/// A contact as the GettingStarted guide has it, generated.
struct BenchContact: Identifiable, Equatable, Sendable {
  enum Group: String, CaseIterable, Sendable { case work, family, friends }
  let id: Int
  var name: String
  var company: String
  var emails: [String]
  var group: Group

  nonisolated(unsafe) private static var lastID = 0

  /// A new identity, after every one given so far.
  @MainActor static func nextID() -> Int {
    lastID += 1
    return lastID
  }

  static let first = [
    "Anna", "Ömer", "Jürgen", "Zoë", "Ida", "Kenji", "Ｋｅｎｊｉ", "Léa", "Søren", "Ægir", "Ñuño",
    "Chloé", "Mia", "Noah", "Emil", "Ünal", "Ирина", "Łukasz", "Björn", "Élodie", "Mei", "Chen",
    "Ahmed", "Αλέξης", "Siobhán", "José", "İlkay", "Dāvis", "Nguyễn", "Priya", "Ólafur", "Zsófia",
  ]
  static let last = [
    "Müller", "Garcia", "García", "Øster", "Nakamura", "Ivanova", "Иванов", "Kowalski", "Brown",
    "O'Brien", "Dubois", "Schröder", "Åberg", "Yılmaz", "Papadopoulos", "Παπαδόπουλος", "Lee",
    "Chen", "Novák", "Ramírez", "Þórsson", "Smith", "Rossi", "Kim", "Nowak", "Dvořák",
  ]
  static let companies = [
    "ACME", "Globex", "Initech", "Umbrella", "Stark Industries", "Wayne Enterprises", "Aperture",
    "Hooli", "Société Générale", "Bäckerei Müller", "Yoyodyne", "Cyberdyne",
  ]
  static let domains = ["gmail.com", "example.org", "mail.ru", "web.de", "outlook.com"]

  /// `count` contacts, the same for the same seed, with identities 1 to `count`.
  @MainActor static func generate(count: Int, seed: UInt64) -> [BenchContact] {
    var random = SplitMix64(seed: seed)
    let contacts = (0..<count).map { _ in make(id: nextID(), random: &random) }
    return contacts
  }

  static func make(id: Int, random: inout SplitMix64) -> BenchContact {
    func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
    let name = pick(first) + " " + pick(last)
    let mail = name.lowercased().filter { $0.isASCII && $0.isLetter } + "\(id)@" + pick(domains)
    let emails = random.next() % 4 == 0 ? [] : [mail]
    let group = Group.allCases[Int(random.next() % 3)]
    return BenchContact(id: id, name: name, company: pick(companies), emails: emails, group: group)
  }
}

/// Finds the main actor's stalls: a task on it sleeps 1 ms at a time, and at each wake reads
/// how late it woke and how much CPU time the main actor's threads spent since its last wake.
///
/// The CPU time is what work on the main actor held it for (the stall a frame-drop detector blames
/// on the app's own thread); the lateness also counts the time the machine ran other threads
/// instead (compare it with ``noiseFloor(loadedWith:)``).
@MainActor
final class StallProbe {
  private var task: Task<Void, Never>?
  private var longestBusy = 0.0
  private var longestLate = 0.0
  /// Every wake so far, and those on another thread than the main one.
  private(set) var wakes = 0
  private(set) var wakesOffMain = 0

  /// Starts probing afresh: a sleep begun before (over work that is not the operation
  /// measured next) is dropped with its task.
  func start() {
    stop()
    longestBusy = 0
    longestLate = 0
    task = Task { @MainActor [weak self] in
      let clock = ContinuousClock()
      var cpu = MainThreadCPU.now()
      while !Task.isCancelled {
        let deadline = clock.now + .milliseconds(1)
        do { try await Task.sleep(until: deadline, clock: clock) } catch { return }
        guard !Task.isCancelled, let self else { return }
        let late = (clock.now - deadline).milliseconds
        self.wakes += 1
        if !Thread.isMainThread { self.wakesOffMain += 1 }
        let now = MainThreadCPU.now()
        self.longestBusy = max(self.longestBusy, now - cpu)
        self.longestLate = max(self.longestLate, late)
        cpu = now
      }
    }
  }

  /// The longest stall since ``start()`` or the last call, in milliseconds: the main
  /// thread's CPU time between two wakes, and the longest lateness of a wake.
  ///
  /// Probing goes on.
  func takeLongest() -> (busy: Double, late: Double) {
    defer {
      longestBusy = 0
      longestLate = 0
    }
    return (longestBusy, longestLate)
  }

  /// Stops probing.
  func stop() {
    task?.cancel()
    task = nil
  }

  /// The p99 lateness of a 1 ms sleep on an otherwise idle main actor, over 300 sleeps, in
  /// milliseconds; with `threads` > 0, while that many background tasks keep the cores busy
  /// without touching the main actor (what the machine's scheduler alone costs the probe
  /// when a background search or build uses every core).
  static func noiseFloor(loadedWith threads: Int = 0) async -> Double {
    final class Spinners: Sendable {
      let stop = Atomic<Bool>(false)
      let running = Atomic<Int>(0)
    }
    let spinners = Spinners()
    for _ in 0..<threads {
      // Threads of their own, so that they never wait for the main actor or the pool.
      let thread = Thread {
        spinners.running.add(1, ordering: .relaxed)
        var x: UInt64 = 1
        while !spinners.stop.load(ordering: .relaxed) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
        if x == 0 { print(x) }
        spinners.running.subtract(1, ordering: .relaxed)
      }
      thread.start()
    }
    let clock = ContinuousClock()
    var late: [Double] = []
    for _ in 0..<300 {
      let deadline = clock.now + .milliseconds(1)
      try? await Task.sleep(until: deadline, clock: clock)
      late.append((clock.now - deadline).milliseconds)
    }
    spinners.stop.store(true, ordering: .relaxed)
    while spinners.running.load(ordering: .relaxed) > 0 {
      try? await Task.sleep(for: .milliseconds(1))
    }
    return percentile(late, 0.99)
  }
}

/// The CPU time of the threads that run the main actor: its busy time, on a machine where
/// other processes stretch wall time.
///
/// On Linux an asynchronous command's main actor is served by Dispatch's worker threads, not
/// always the same one, so a reading sums the CPU clocks of every thread seen running
/// main-actor code; a thread seen for the first time counts from then on. Such a thread may
/// also have run other work in between, so the figure is an upper bound of the main actor's
/// time.
@MainActor
enum MainThreadCPU {
  private static var clocks: [clockid_t] = []
  private static var threads: Set<pthread_t> = []
  private static var last: [Double] = []
  private static var offset = 0.0

  /// The CPU time of the main actor's threads so far, in milliseconds: compare two readings.
  static func now() -> Double {
    if threads.insert(pthread_self()).inserted {
      var clock = clockid_t()
      if pthread_getcpuclockid(pthread_self(), &clock) == 0 {
        let start = read(clock) ?? 0
        clocks.append(clock)
        last.append(start)
        offset -= start
      }
    }
    var total = offset
    for index in clocks.indices {
      // A thread that ended keeps its last reading.
      if let value = read(clocks[index]) { last[index] = value }
      total += last[index]
    }
    return total
  }

  private static func read(_ clock: clockid_t) -> Double? {
    var spec = timespec()
    guard clock_gettime(clock, &spec) == 0 else { return nil }
    return Double(spec.tv_sec) * 1_000 + Double(spec.tv_nsec) / 1e6
  }
}

/// The process's resident memory.
enum ResidentMemory {
  /// Resident now, in MB (from /proc/self/statm; 0 where it cannot be read).
  static func megabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }

  /// Gives the heap's free memory back to the system (glibc's malloc_trim), where it can.
  static func trim() { BackgroundWork.releaseFreedMemory() }

  /// The peak resident memory so far, in MB.
  static func peakMegabytes() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
  }
}
