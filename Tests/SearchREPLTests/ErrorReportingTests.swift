import ArgumentParser
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine
import TestSupport
import Testing

@testable import SearchREPL

/// The command line prints every error of the project one way ("SearchREPL: error: " and the
/// error's description, "file:line:column: reason; hint" for input), and leaves ArgumentParser's
/// usage mistakes to ArgumentParser, with the usage.
@Suite struct ErrorReportingTests {
  @Test func everyErrorOfTheProjectIsItsOwn() {
    let errors: [any Error] = [
      InputError(source: "a.txt", line: 3, column: 2, reason: "bad", hint: "fix it"),
      LoadError(file: "d.tsv", reason: "cannot read"),
      ManifestError(file: "m.json", line: 1, column: 9, reason: "no name"),
      RegressionError.Problem(file: "c.tsv", line: 4, reason: "r", hint: "h"),
      SearchController.Error.noSuchScope("Work", titles: ["All"]),
      SearchCorpus.Error.unknownName("field", "x", scope: nil),
      CommandError("--sizes needs positive item counts"),
    ]
    for error in errors { #expect(Terminal.isOwn(error), "\(type(of: error))") }
  }

  @Test func usageMistakesAreArgumentParsers() {
    #expect(!Terminal.isOwn(ValidationError("--limit must be positive")))
    #expect(!Terminal.isOwn(CleanExit.message("done")))
  }

  @Test func locatedErrorsReadAsACompilersDo() {
    #expect(
      InputError(source: "a.txt", line: 3, column: 2, reason: "bad byte", hint: "fix it")
        .description == "a.txt:3:2: bad byte; fix it")
    #expect(LoadError(file: "d.tsv", reason: "cannot read").description == "d.tsv: cannot read")
    // A column without a line says nothing: the place stops at what is known.
    #expect(
      ManifestError(file: "m.json", column: 9, reason: "no name").description
        == "m.json: no name")
    #expect(
      RegressionError.Problem(file: "c.tsv", line: 0, reason: "empty", hint: "add a case")
        .description == "c.tsv: empty; add a case")
    var error = ManifestError(reason: "no fields", hint: "add one")
    #expect(error.description == "no fields; add one")
    error.file = "m.json"
    error.line = 2
    #expect(error.description == "m.json:2: no fields; add one")
  }
}
