import Foundation
import Testing

/// Randomised tests come in one style: they draw their cases through PropertyBased's
/// `propertyCheck`, which reports the failing input and shrinks it (a session's steps drawn as an
/// array lose the steps a failure does not need), and counts them with `TestBudget`.
///
/// The style this replaced, a loop over seeds that starts a generator from each, reports a seed
/// at best and never shrinks: this fails for a test file that still has one. A generator started
/// once from a fixed seed, to build one fixture, is not a loop over cases and is left alone.
@Suite struct RandomisedTestStyleTests {
  /// A loop whose body starts a generator from the loop's variable.
  static var seedLoop: Regex<(Substring, Substring)> {
    #/for (\w+) in [^\n{]*\{\s*\n\s*var \w+ = SplitMix64\(seed: [^\n]*\b\1\b/#
  }

  @Test func noTestLoopsOverSeedsByHand() throws {
    let files = try SanitizerTagTests.swiftFiles(under: "Tests")
    #expect(files.count > 50, "the test files were not found")
    for file in files where !file.path.hasSuffix("/RandomisedTestStyleTests.swift") {
      for match in file.text.matches(of: Self.seedLoop) {
        let line = file.text[..<match.range.lowerBound].count(where: { $0 == "\n" }) + 1
        Issue.record(
          """
          \(file.path):\(line) loops over seeds by hand; draw the cases with propertyCheck \
          (input: Gen.int(in: …) for the seed, an array of draws for a session's steps) so that \
          a failure is reported and shrunk
          """)
      }
    }
  }

  @Test func theRuleFindsALoopOverSeeds() {
    let old = """
      for seed in 0..<TestBudget.cases(6) {
        var random = SplitMix64(seed: seed + 100)
      """
    #expect(old.contains(Self.seedLoop))
    let fixture = """
      for step in 0..<4 {
        var random = SplitMix64(seed: 7)
      """
    #expect(!fixture.contains(Self.seedLoop))
  }
}
