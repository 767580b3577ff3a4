// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "swift-scoped-search",
  products: [
    .library(name: "SearchCore", targets: ["SearchCore"]),
    // The engine alone, for a front that has no list UI (a terminal, a server): SearchCore
    // re-exports it.
    .library(name: "SearchEngine", targets: ["SearchEngine"]),
    // Data sets as files: a manifest (JSON) over a TSV or JSON Lines file, its loader with
    // errors at file:line:column, and the corpus regression suites. What the command line,
    // the server loader and the tests read; an app that builds its items in code never needs it.
    .library(name: "SearchDataSets", targets: ["SearchDataSets"]),
    // What an app's tests need to drive a search without a clock: apart, as
    // swift-async-algorithms keeps its validation helpers, so apps do not ship it.
    .library(name: "SearchCoreTesting", targets: ["SearchCoreTesting"]),
    // The same search over a PostgreSQL server: its own product, so that apps searching in
    // memory never build SwiftNIO; its code is compiled with the PostgreSQL trait only. It
    // needs the engine alone.
    .library(name: "SearchPostgres", targets: ["SearchPostgres"]),
    // The search served to a browser: a page and one WebSocket per tab, each a search session
    // over one shared corpus. Its own product on Hummingbird, compiled with the Web trait only.
    .library(name: "SearchWeb", targets: ["SearchWeb"]),
    .executable(name: "SearchREPL", targets: ["SearchREPL"]),
    // The benchmarks, apart from the shipped command line (as swift-collections keeps its own):
    // `swift run -c release SearchBenchmarks --suite NAME`.
    .executable(name: "SearchBenchmarks", targets: ["SearchBenchmarks"]),
  ],
  // SwiftNIO, its TLS and swift-crypto are most of a cold build, so the server path is a trait
  // (SE-0450) that is off unless asked for: `swift run -c release SearchREPL live` and the
  // sanitizer passes build without them; `swift test --traits PostgreSQL` runs everything; an
  // app names it where it depends on the package:
  // `.package(url: …, from: …, traits: ["PostgreSQL"])`. The web front (Hummingbird, over the
  // same SwiftNIO) is a second such trait, Web: `swift test --traits PostgreSQL,Web` runs
  // everything then.
  traits: [
    .trait(
      name: "PostgreSQL",
      description:
        "SearchPostgres over postgres-nio, and the command line's load and --backend, and SearchBenchmarks --suite backend."
    ),
    .trait(
      name: "Web",
      description:
        "SearchWeb over Hummingbird and its WebSocket, and the command line's serve."
    ),
    .default(enabledTraits: []),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
    .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
    .package(
      url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.0"),
    // `swift package generate-documentation`: the guides and the API (the README has the
    // command that builds the three libraries' documentation as one archive).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.4.0"),
  ],
  targets: [
    // SearchCore's one C boundary: a plain-C API over ICU (Debian's libicu-dev). ICU's own
    // headers never reach Swift, because Foundation on Linux carries a second, incompatible
    // copy of them.
    // ICU's alphabetic index exists only in C++: AlphabeticIndex.cpp wraps it behind the same
    // C header, and SwiftPM links the C++ standard library for it.
    .target(
      name: "CICU",
      linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n")]
    ),
    // The engine: folding, matching, queries, the model, its index and filter, the backends.
    // No UI vocabulary (tables, index paths, a controller): what a terminal, a server or a
    // test drives directly. Its folders are layers, bottom to top: Support, ICU (the only one
    // that imports CICU), Normalization, Matching, Query, Model, Input, Index, Completion,
    // Filtering, Backend, Lines (the command line's line filter, which the app never uses).
    .target(name: "SearchEngine", dependencies: ["CICU"]),
    // The app's API over the engine: the data sources of a list UI (sections, index paths,
    // change sets, paging), UIKit's search-display controller, and `ItemSearch` over the
    // app's own values. It re-exports the SearchEngine types its API takes and returns, by name
    // (Sources/SearchCore/Exports.swift), so an app imports SearchCore alone.
    // Folders, bottom to top: DataSources, Search, Items.
    .target(name: "SearchCore", dependencies: ["SearchEngine"]),
    .target(name: "SearchDataSets", dependencies: ["SearchEngine"]),
    // SQLite (Debian's libsqlite3-dev), for the typing benchmark's peer only: FTS5 with the
    // trigram tokenizer over the same items. Only SearchBenchmarks links it.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .target(name: "SearchCoreTesting", dependencies: ["SearchCore", "SearchEngine"]),
    .target(
      name: "SearchPostgres",
      dependencies: [
        "SearchEngine",
        .product(
          name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
      ]
    ),
    // One search session per WebSocket over a corpus every session shares, the page that
    // drives it, and the JSON messages between them (SearchWeb.docc specifies them).
    .target(
      name: "SearchWeb",
      dependencies: [
        "SearchCore",
        "SearchEngine",
        .product(
          name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Web"])),
        .product(
          name: "HummingbirdWebSocket", package: "hummingbird-websocket",
          condition: .when(traits: ["Web"])),
      ]
    ),
    // What both executables read and write the same way: data set paths and short names,
    // `--fold`, `--typos`, the data a command searches, the PostgreSQL server, JSON, standard
    // output, errors and exit statuses, the entry point that runs the main actor on the main
    // thread. Not a product: only the package's executables and tests use it.
    .target(
      name: "SearchCommandLine",
      dependencies: [
        "SearchCore",
        "SearchEngine",
        "SearchDataSets",
        "SearchPostgres",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The shipped command line. Its folders are layers, bottom to top: Console, Options, Tokens,
    // Output, REPL, Live, Commands; a file uses names from its own or lower folders only
    // (main.swift and SearchREPL.swift, at the root, put them together).
    .executableTarget(
      name: "SearchREPL",
      dependencies: [
        "SearchCommandLine",
        "SearchCore",
        "SearchEngine",
        "SearchDataSets",
        "SearchPostgres",
        "SearchWeb",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The benchmarks (`SearchBenchmarks --suite NAME`, the options `SearchREPL bench` had) and
    // their peers (Peers/: SQLite FTS5, tantivy through a Python child). The startup and filter
    // suites run the SearchREPL built beside them.
    //
    // Not ordo-one/package-benchmark: its async runner runs main-actor work on Dispatch's
    // worker threads, not on a main thread turning the run loop as in an app, and it measures
    // one closure at a time, while these suites time main-actor stalls and interleave a peer
    // keystroke by keystroke (Benchmarks/README.md).
    .executableTarget(
      name: "SearchBenchmarks",
      dependencies: [
        "SearchCommandLine",
        "SearchCore",
        "SearchEngine",
        "SearchCoreTesting",
        "SearchDataSets",
        "SearchPostgres",
        "CSQLite",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        // The web suite's browser tabs, with the Web trait only.
        .product(
          name: "HummingbirdWSClient", package: "hummingbird-websocket",
          condition: .when(traits: ["Web"])),
      ],
      path: "Benchmarks/SearchBenchmarks"
    ),
    // A test target per library, its folders named as the library's (Support/ holds its own
    // helpers): FolderGraphTests keeps them so.
    .testTarget(
      name: "SearchEngineTests",
      dependencies: [
        "TestSupport", "SearchEngine", "SearchCoreTesting", "SearchDataSets",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "SearchCoreTests",
      dependencies: [
        "TestSupport", "SearchCore", "SearchEngine", "SearchCoreTesting", "SearchDataSets",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "SearchDataSetsTests",
      dependencies: ["TestSupport", "SearchDataSets", "SearchEngine"]
    ),
    // The package's shape: its modules' and folders' boundaries, the public surface, the tags
    // by which CI chooses the sanitizers' suites, the guides' sources.
    .testTarget(name: "StructureTests", dependencies: ["TestSupport"]),
    // The library as an app sees it: `import SearchCore` without `@testable`, so only the
    // public API compiles here; every guide's swift blocks are compiled and run here
    // (GuideExamples/).
    .testTarget(
      name: "SearchCoreAPITests",
      dependencies: [
        "TestSupport",
        "SearchCore", "SearchCoreTesting", "SearchDataSets", "SearchEngine", "SearchPostgres",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    // Start their own throwaway PostgreSQL cluster (initdb and pg_ctl from Debian's
    // postgresql, in a temporary folder, on a free port of 127.0.0.1) and stop it.
    .testTarget(
      name: "SearchPostgresTests",
      dependencies: [
        "TestSupport",
        "SearchCore", "SearchCoreTesting", "SearchDataSets", "SearchEngine", "SearchPostgres",
        "SearchREPL",
      ]
    ),
    // What every test target shares: the tags by which `.ci/run` chooses the sanitizers'
    // suites, running a built executable of the package as a user does, the committed data
    // sets and a reference search, random models and batches of changes, and the budget of
    // the randomised tests.
    .target(
      name: "TestSupport", dependencies: ["SearchEngine", "SearchDataSets", "SearchCoreTesting"],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "SearchREPLTests",
      dependencies: [
        "SearchREPL", "SearchCommandLine", "TestSupport", "SearchCoreTesting",
        "SearchDataSets", "SearchEngine",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    // Start the server (and `SearchREPL serve`) on a free port of 127.0.0.1 and talk to it as a
    // browser tab does, over hummingbird-websocket's client.
    .testTarget(
      name: "SearchWebTests",
      dependencies: [
        "TestSupport", "SearchWeb", "SearchCore", "SearchEngine", "SearchDataSets", "SearchREPL",
        .product(
          name: "HummingbirdWebSocket", package: "hummingbird-websocket",
          condition: .when(traits: ["Web"])),
        .product(
          name: "HummingbirdWSClient", package: "hummingbird-websocket",
          condition: .when(traits: ["Web"])),
      ]
    ),
    .testTarget(
      name: "SearchBenchmarksTests",
      dependencies: [
        "SearchBenchmarks", "SearchCommandLine", "TestSupport", "SearchCore",
        "SearchDataSets", "SearchEngine",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// CI's sanitizer passes (`.ci/sanitizer-pass`) build only the test targets they run: test
// code is half of a build, and the thread sanitizer's suites lie in three targets.
// SEARCH_TEST_TARGETS names the test targets to keep, comma-separated; unset, all are built.
if let kept = Context.environment["SEARCH_TEST_TARGETS"] {
  let names = Set(kept.split(separator: ",").map(String.init))
  let tests = Set(package.targets.filter { $0.type == .test }.map(\.name))
  precondition(
    names.isSubset(of: tests),
    "SEARCH_TEST_TARGETS names no test target \(names.subtracting(tests).sorted())")
  package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}
