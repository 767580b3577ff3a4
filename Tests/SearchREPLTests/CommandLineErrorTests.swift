import Foundation
import TestSupport
import Testing

/// The command line's mistakes, as a newcomer makes them: each is an error in one form
/// ("SearchREPL: error: …", exit status 2, nothing on standard output) that says what was
/// probably meant.
@Suite struct CommandLineErrorTests {
  private func run(_ arguments: [String], input: String = "") throws -> RunResult {
    try BinaryRunner.run(arguments, stdin: Data(input.utf8))
  }

  /// Checks the one error form and returns the first line of standard error.
  private func error(_ arguments: [String], input: String = "a\n") throws -> String {
    let result = try run(arguments, input: input)
    #expect(result.exitedNormally && result.status == 2, "\(arguments)")
    #expect(result.stdout.isEmpty, "\(arguments)")
    let first = result.stderrText.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("SearchREPL: error: "), "\(arguments): \(result.stderrText)")
    return first
  }

  @Test func aMistypedSubcommandIsNamed() throws {
    #expect(
      try error(["fitler", "uber"])
        == "SearchREPL: error: unknown subcommand 'fitler'; did you mean 'filter'?")
    #expect(try error(["lvie"]).hasSuffix("did you mean 'live'?"))
    #expect(
      try error(["frobnicate"])
        == "SearchREPL: error: unknown subcommand 'frobnicate'; the subcommands are repl, live,"
        + " filter, load, index, check, serve (SearchREPL help for more)")
  }

  /// The benchmarks left the shipped command line: `bench` says where they went instead of
  /// guessing at a subcommand.
  @Test func benchSaysWhereTheBenchmarksWent() throws {
    #expect(
      try error(["bench", "--suite", "fold"])
        == "SearchREPL: error: bench moved to its own executable: run `swift run -c release"
        + " SearchBenchmarks …` or `.build/release/SearchBenchmarks …` with the same options")
  }

  @Test func aQueryThatStartsWithADashGoesAfterDashDash() throws {
    #expect(try error(["filter", "-x"]).hasSuffix("SearchREPL filter -- -x"))
    let result = try run(["filter", "--", "-x"], input: "a-x\nax\n")
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stdout == Data("a-x\n".utf8))
  }

  @Test func severalWordsAreOneQuotedQuery() throws {
    #expect(try error(["filter", "new", "york"]).contains("SearchREPL filter 'new york'"))
    let result = try run(["filter", "new york"], input: "New York\nYork\n")
    #expect(result.stdout == Data("New York\n".utf8))
  }

  @Test func aDataFileIsNotAManifest() throws {
    #expect(
      try error(["filter", "--corpus", "Corpus/products/products.tsv", "mac"])
        .contains("is a data file, not a manifest"))
  }

  @Test func aScopeNeedsADataSet() throws {
    #expect(
      try error(["filter", "--scope", "Europe", "a"])
        .contains("--scope Europe needs a data set with scopes (--corpus MANIFEST)"))
  }

  /// A server matches words exactly: `repl` and `live` refuse typos with `--backend` at start,
  /// in the command line's words, as `filter` does (before, `repl` started and then failed
  /// every search naming the library's `TypoTolerance.off`).
  ///
  /// No connection is tried.
  @Test func typosWithABackendAreRefusedAtStart() throws {
    for command in ["repl", "live"] {
      let message = try error([
        command, "--corpus", "products", "--syntax", "words", "--typos", "default",
        "--backend", "postgres://search@127.0.0.1:1/search",
      ])
      #expect(message.contains("--typos default with --backend"), "\(message)")
      #expect(!message.contains("TypoTolerance"), "\(message)")
    }
  }

  /// `--fold` changes the default: transliteration keeps case folding, a minus takes an
  /// option away, "none" stands alone; an unknown locale is refused.
  @Test func foldingListsChangeTheDefault() throws {
    let latin = try run(["filter", "--fold", "latin", "moskva"], input: "Москва\nПариж\n")
    #expect(latin.status == 0, "\(latin.stderrText)")
    #expect(latin.stdout == Data("Москва\n".utf8))
    let caseKept = try run(["filter", "--fold", "-case", "A"], input: "a\nA\n")
    #expect(caseKept.stdout == Data("A\n".utf8))
    #expect(try error(["filter", "--fold", "latin,none", "a"]).contains("must stand alone"))
    #expect(
      try error(["filter", "--locale", "not a locale!!", "a"])
        .contains("ICU has no data for \"not a locale!!\""))
  }

  /// Errors of every origin (the parser, a validation, the data) share the form.
  @Test func everyErrorHasOneForm() throws {
    for arguments in [
      ["filter"], ["filter", "--format", "xml", "a"], ["repl", "--minlen", "-1"],
      ["filter", "--corpus", "no/such.manifest.json", "a"], ["check", "no/such/cases.tsv"],
    ] {
      _ = try error(arguments)
    }
  }

  /// A mistyped short name is named with the names there are, for every command that takes one.
  @Test func anUnknownDataSetNameListsTheNames() throws {
    for arguments in [["filter", "--corpus", "citys", "zur"], ["repl", "--corpus", "citys"]] {
      let result = try BinaryRunner.run(arguments)
      #expect(result.status != 0)
      #expect(
        result.stderrText.contains(
          "no data set is named \"citys\": the names are cities, products, chat, tweets,"),
        "\(arguments): \(result.stderrText)")
    }
  }

  /// A short data set name works from any folder: the repository's Corpus is found from the
  /// executable's place.
  @Test func shortNamesWorkFromAnyFolder() throws {
    let here = try BinaryRunner.run(["filter", "--corpus", "products", "mac"])
    let elsewhere = try BinaryRunner.run(
      executable: BinaryRunner.executableURL(), ["filter", "--corpus", "products", "mac"],
      stdinFile: URL(fileURLWithPath: "/dev/null"), timeout: 120,
      folder: URL(fileURLWithPath: NSTemporaryDirectory()))
    #expect(here.status == 0, "\(here.stderrText)")
    #expect(elsewhere.status == 0, "\(elsewhere.stderrText)")
    #expect(elsewhere.stdout == here.stdout)
    #expect(here.stdout.starts(with: Data("Macintosh (1984)\n".utf8)))
  }
}
