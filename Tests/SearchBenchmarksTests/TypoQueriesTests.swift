import SearchCore
import SearchDataSets
import SearchEngine
import TestSupport
import Testing

@testable import SearchBenchmarks

/// The queries `SearchBenchmarks --suite typos` types are what it says they are: each mistypes one word
/// of an item's value with exactly as many typos as it is labelled with (counted as the search
/// counts them, on folded characters), the same seed draws the same queries, and half are
/// typed folded.
struct TypoQueriesTests {
  static func model() throws -> SearchModel {
    let path = corpusManifest("cities", "cities")
    let manifest = try Manifest.load(from: path)
    return try DataSetLoader.load(manifest: manifest, manifestPath: path, progress: nil).0
  }

  @Test(arguments: [(1, 5), (2, 9)])
  func eachQueryHasTheTyposItIsLabelledWith(typos: Int, minimumLength: Int) throws {
    let model = try Self.model()
    let normalizer = try Normalizer()
    let queries = try TypoQuery.draw(
      count: 60, typos: typos, minimumLength: minimumLength, from: model,
      normalizer: normalizer, seed: 7)
    #expect(queries.count == 60)
    for (number, query) in queries.enumerated() {
      #expect(query.typos == typos)
      let correct = query.correct.split(whereSeparator: \.isWhitespace)
      let mistyped = query.mistyped.split(whereSeparator: \.isWhitespace)
      // The same words but the last, which is long enough and mistyped.
      #expect(correct.count == mistyped.count, "\(query)")
      #expect(correct.dropLast() == mistyped.dropLast(), "\(query)")
      let word = try #require(correct.last)
      #expect(word.count >= minimumLength, "\(query)")
      // The mistyped word too, folded as the search counts its budget.
      #expect(
        try normalizer.fold(String(mistyped.last ?? "")).count >= minimumLength, "\(query)")
      let distance = TypoQuery.distance(
        try normalizer.fold(String(word)), try normalizer.fold(String(mistyped.last ?? "")))
      #expect(distance == typos, "\(query)")
      // The correct text begins the value meant, folded or as written.
      #expect(query.intended.hasPrefix(try normalizer.fold(query.correct)), "\(query)")
      // Every other query is typed folded.
      #expect((try normalizer.fold(query.correct) == query.correct) || number % 2 == 0)
    }
    let again = try TypoQuery.draw(
      count: 60, typos: typos, minimumLength: minimumLength, from: model,
      normalizer: normalizer, seed: 7)
    #expect(again.map(\.mistyped) == queries.map(\.mistyped))
  }

  @Test func theDistanceCountsATranspositionAsOneEdit() {
    #expect(TypoQuery.distance("california", "califronia") == 1)
    #expect(TypoQuery.distance("california", "calfornia") == 1)
    #expect(TypoQuery.distance("zürich", "zurich") == 1)
    #expect(TypoQuery.distance("kalifornja", "california") == 2)
    #expect(TypoQuery.distance("abc", "abc") == 0)
  }
}
