import Foundation
import SearchDataSets
import SearchEngine
import TestSupport
import Testing

/// The regression-case engine: parsing cases files, running them, and every committed
/// `Corpus/*/cases.tsv` (this is how `swift test` runs the corpora's cases).
@Suite struct RegressionSuiteTests {
  private let header = "case\tscope\tinput\texpect\toptions\twhy"

  @Test func parsesGoodLines() throws {
    let text = """
      # manifest: sample.manifest.json
      \(header)
      # a comment
      plain\tGerman\tuber\t#23: Haushaltsüberlegung (German)\t\t
      none\t0\tø\t=\t\tno ø
      session\tAll\t> u > ub >  > @German > üb\t= Hügel (German) | x (German)\trank\twhy
      """
    let suite = try RegressionSuite.parse(text, file: "cases.tsv")
    #expect(suite.manifest == "sample.manifest.json")
    #expect(suite.cases.count == 3)
    #expect(suite.cases[0].expectation == .count(23, first: ["Haushaltsüberlegung (German)"]))
    #expect(suite.cases[0].line == 4)
    #expect(suite.cases[1].expectation == .exact([]))
    #expect(
      suite.cases[2].steps == [.text("u"), .text("ub"), .text(""), .scope("German"), .text("üb")])
    #expect(suite.cases[2].isRanked)
    #expect(suite.cases[2].expectation == .exact(["Hügel (German)", "x (German)"]))
  }

  @Test func reportsEveryBadLineWithFileAndLine() throws {
    let text = """
      \(header)
      a\tAll\tx\t= y
      b\tAll\tx\tmaybe\t\t
      c\tAll\tx\t#3 y\t\t
      d\tAll\tx\t= y\tfast\t
      e\t\tx\t= y\t\t
      e\tAll\tx\t= y\t\t
      e\tAll\tx\t= y\t\t
      """
    #expect {
      try RegressionSuite.parse(text, file: "c.tsv")
    } throws: { error in
      let problems = (error as? RegressionError)?.problems ?? []
      let lines = problems.map { "\($0.file ?? ""):\($0.line ?? 0)" }
      return lines == [
        "c.tsv:2", "c.tsv:3", "c.tsv:4", "c.tsv:5", "c.tsv:6", "c.tsv:7", "c.tsv:8",
      ]
        && problems[0].reason.contains("4 columns, 6 needed")
        && problems[1].reason.contains("malformed expect")
        && problems[3].reason.contains("unknown option \"fast\"")
        && problems[4].reason.contains("empty scope")
        && problems[5].reason.contains("duplicate case name")
    }
  }

  @Test func unknownScopeIsAnErrorWithItsLine() throws {
    let corpus = try Fixtures.wordsSample()
    let text = "\(header)\na\tKlingon\tx\t=\t\t\nb\tAll\t> x > @Elvish\t=\t\t\n"
    let suite = try RegressionSuite.parse(text, file: "s.tsv")
    #expect {
      try suite.run(on: corpus)
    } throws: { error in
      let problems = (error as? RegressionError)?.problems ?? []
      return problems.map(\.line) == [2, 3]
        && problems.allSatisfy { $0.reason.contains("unknown scope") }
        && problems[0].description.hasPrefix("s.tsv:2: unknown scope \"Klingon\"; the scopes are:")
    }
  }

  @Test func failingCaseReportsExpectedAndGot() throws {
    let corpus = try Fixtures.wordsSample()
    let text = """
      \(header)
      wrong\tGerman\thugel\t= Hügel (German) | Zuckerrüben (German)\t\t
      count\tAll\tmassnahmen\t#3: Baumaßnahmen (German)\t\t
      right\tAll\thugel\t= Hügel (German)\t\t
      """
    let results = try RegressionSuite.parse(text, file: "f.tsv").run(on: corpus)
    #expect(
      results[0].outcome
        == .failed(expected: "= Hügel (German) | Zuckerrüben (German)", got: "= Hügel (German)"))
    #expect(
      results[1].outcome
        == .failed(expected: "#3: Baumaßnahmen (German)", got: "#2: Baumaßnahmen (German)"))
    #expect(results[2].passed)
  }

  @Test func everyCommittedCasesFilePasses() throws {
    let corpusRoot = Fixtures.root + "/Corpus"
    let sets = try FileManager.default.contentsOfDirectory(atPath: corpusRoot).sorted()
    var ran = 0
    for set in sets {
      let directory = corpusRoot + "/" + set
      guard FileManager.default.fileExists(atPath: directory + "/cases.tsv") else { continue }
      let suite = try RegressionSuite.load(from: directory + "/cases.tsv")
      let name = try #require(suite.manifest, "\(set)/cases.tsv names its manifest")
      let path = directory + "/" + name
      let manifest = try Manifest.load(from: path)
      let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
      #expect(report.rejected.isEmpty)
      let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
      for result in try suite.run(on: corpus) {
        ran += 1
        if case .failed(let expected, let got) = result.outcome {
          Issue.record("\(set) \(result.regressionCase.name): expected \(expected) got \(got)")
        }
      }
    }
    #expect(ran >= 40)
  }
}
