import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Ranked results put what a person means first, over the committed cities as the manifest
/// ranks them (population, after exactness).
///
/// The queries are the first three to five letters of a name of each of the 300 most populous
/// cities, typed as words (with typo tolerance, as `live` reads them). The intended answer is
/// chosen by a rule that looks at the names only: the most populous city whose whole name is
/// the query, or else the most populous city whose name has a word that starts with it.
@Suite struct RelevanceTests {
  static let cities = Result { try Fixtures.corpus("cities/cities") }

  /// The first rows of the ranked results of `text`, read as an app's search field reads it.
  static func firstRows(_ text: String, _ count: Int, in corpus: SearchCorpus) throws -> [ItemID] {
    let query = try SearchQuery(
      text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
    return Array(corpus.ranked(try Fixtures.search(query, scope: 0, in: corpus)).prefix(count))
  }

  @Test func theIntendedCityComesFirst() throws {
    let corpus = try Self.cities.get()
    let model = corpus.model
    let population = model.schema.attributeIndex(named: "population")!
    func people(_ id: ItemID) -> Int { Int(model.attribute(population, of: id)) ?? 0 }
    // Each city's folded name and its words: letters and digits between other characters.
    let names = try model.ids.map { id in
      let name = try corpus.normalizer.fold(model.values(of: id, field: 0)[0])
      let words = name.split { !($0.isLetter || $0.isNumber) }.map(String.init)
      return (id: id, name: name, words: words)
    }
    let largest = model.ids.sorted { people($0) > people($1) }.prefix(300)
    var queries: [String] = []
    for (rank, id) in largest.enumerated() {
      guard let position = model.position(of: id),
        let word = names[position].words.first(where: { $0.count >= 3 })
      else { continue }
      let query = String(word.prefix(3 + rank % 3))
      if !queries.contains(query) { queries.append(query) }
    }
    #expect(queries.count >= 250)

    var first = 0
    var inThree = 0
    var misses: [String] = []
    for query in queries {
      let whole = names.filter { $0.name == query }
      let candidates =
        whole.isEmpty ? names.filter { $0.words.contains { $0.hasPrefix(query) } } : whole
      let most = candidates.map { people($0.id) }.max()!
      let intended = Set(candidates.filter { people($0.id) == most }.map(\.id))
      let rows = try Self.firstRows(query, 3, in: corpus)
      if intended.contains(rows[0]) { first += 1 }
      if rows.contains(where: intended.contains) {
        inThree += 1
      } else {
        misses.append("\(query): \(rows.map { model.display($0) })")
      }
    }
    let share = (
      first: Double(first) / Double(queries.count), inThree: Double(inThree) / Double(queries.count)
    )
    #expect(share.first >= 0.90, "first for \(first) of \(queries.count)")
    #expect(
      share.inThree >= 0.98, "in the first three for \(inThree) of \(queries.count): \(misses)")
  }

  /// The queries a new user types first, each with the place meant.
  @Test(arguments: [
    ("zur", "Zürich"), ("chic", "Chicago"), ("los a", "Los Angeles"), ("kuala", "Kuala Lumpur"),
    ("sant", "Santiago"), ("calgari", "Calgary"),
  ])
  func aFirstQueryFindsThePlaceMeant(query: String, place: String) throws {
    let corpus = try Self.cities.get()
    let rows = try Self.firstRows(query, 1, in: corpus)
    #expect(rows.map { corpus.model.values(of: $0, field: 0)[0] } == [place])
  }
}
