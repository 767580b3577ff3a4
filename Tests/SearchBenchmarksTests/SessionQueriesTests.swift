import SearchEngine
import Testing

@testable import SearchBenchmarks

/// What the web suite's sessions type is what its first line says: each session its own city
/// names (one session too), none typed by two; with `--rare-prefixes`, none starting with a
/// pair of letters the server searches before the first session.
struct SessionQueriesTests {
  @Test func eachSessionTypesItsOwnNamesAndRarePrefixesAvoidTheCommonestPairs() throws {
    let model = try TypoQueriesTests.model()
    for sessions in [1, 7] {
      let queries = WebBenchmark.SessionQueries.distinct(
        from: model, sessions: sessions, keystrokes: 30)
      #expect(!queries.isShared && queries.lists.count == sessions)
      #expect(queries.description.contains("each session its own"))
      let names = queries.lists.flatMap { $0 }
      #expect(names.count == sessions * (30 / 4 + 1))
      #expect(Set(names.map { $0.lowercased() }).count == names.count)
    }
    let common = model.commonestPrefixes(length: 2, limit: 150)
    // The reference: the pairs counted here.
    var counts: [String: Int] = [:]
    for id in model.ids {
      guard let first = model.values(of: id, field: 0).first, first.count >= 2 else { continue }
      counts[String(first.prefix(2)), default: 0] += 1
    }
    let least = try #require(common.last.flatMap { counts[$0] })
    #expect(common.count == 150 && common.allSatisfy { (counts[$0] ?? 0) >= least })
    #expect(counts.values.filter { $0 > least }.count < 150)
    let rare = WebBenchmark.SessionQueries.distinct(
      from: model, sessions: 7, keystrokes: 30, rarePrefixes: 150)
    let names = rare.lists.flatMap { $0 }
    #expect(names.count == 7 * (30 / 4 + 1))
    #expect(!names.contains { common.contains(String($0.prefix(2))) })
    #expect(rare.description.contains("none starting with one of the 150 commonest pairs"))
    #expect(WebBenchmark.SessionQueries.shared(["a", "b"]).isShared)
  }
}
