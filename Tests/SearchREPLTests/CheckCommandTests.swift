import Foundation
import TestSupport
import Testing

/// End-to-end tests of `SearchREPL check` on a small temporary corpus.
@Suite struct CheckCommandTests {
  private let manifest = """
    {"name": "fruit", "data": "fruit.tsv", "format": "tsv", "fields": [{"name": "name", "source": 1}],
     "attributes": [{"name": "kind", "source": 2}],
     "scopes": [{"title": "Berries", "attribute": "kind", "values": ["berry"]}]}
    """
  private let data = "Crème brûlée\tdessert\nstrawberry\tberry\nraspberry\tberry\napple\ttree\n"
  private let header = "case\tscope\tinput\texpect\toptions\twhy\n"

  /// Runs `check DIR` on a folder with the manifest, the data and `cases`.
  private func check(_ cases: String) throws -> RunResult {
    try withTemporaryDirectory { directory in
      let folder = directory.appendingPathComponent("fruit")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try manifest.write(
        to: folder.appendingPathComponent("fruit.manifest.json"), atomically: true, encoding: .utf8)
      try data.write(
        to: folder.appendingPathComponent("fruit.tsv"), atomically: true, encoding: .utf8)
      try cases.write(
        to: folder.appendingPathComponent("cases.tsv"), atomically: true, encoding: .utf8)
      return try BinaryRunner.run(["check", folder.path])
    }
  }

  @Test func allPassingExitsZero() throws {
    let result = try check(
      header + "creme\t0\tcreme\t= Crème brûlée\t\t\n"
        + "berries\tBerries\t\t#2: strawberry | raspberry\t\t\n"
        + "typed\tAll\t> b > be > @1 > berr\t= strawberry | raspberry\t\t\n")
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.visibleStdout == visible("3 passed, 0 failed\n".utf8))
  }

  @Test func aFailureExitsOneAndSaysWhy() throws {
    let result = try check(header + "wrong\tAll\tapple\t= pear\t\t\nright\tAll\tkiwi\t=\t\t\n")
    #expect(result.status == 1)
    #expect(
      result.visibleStdout
        == visible("fruit wrong: expected = pear got = apple\n1 passed, 1 failed\n".utf8))
  }

  @Test func aBadLineExitsTwoWithFileAndLine() throws {
    let result = try check(header + "bad\tNuts\tapple\t= apple\t\t\n")
    #expect(result.status == 2)
    #expect(
      result.stderrText.contains("cases.tsv:2: unknown scope \"Nuts\""), "\(result.stderrText)")
    let malformed = try check(header + "bad\tAll\tapple\tapple\t\t\n")
    #expect(malformed.status == 2)
    #expect(malformed.stderrText.contains("cases.tsv:2: malformed expect"))
  }
}
