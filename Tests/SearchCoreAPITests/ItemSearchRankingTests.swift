import SearchCore
import SearchCoreTesting
import TestSupport
import Testing

/// A contact as an app keeps it: how often it is called ranks equally relevant contacts.
private struct Caller: Identifiable, Sendable, Equatable {
  let id: Int
  var name: String
  var company: String
  var calls: Int
  var rating: Double
}

/// An app's ranking: the key paths' order counts, and its own values rank what the rules leave
/// tied, in the rows, across changes and in sections.
@MainActor
@Suite(.tags(.concurrent)) struct ItemSearchRankingTests {
  private let callers = [
    Caller(id: 1, name: "Anna Berg", company: "Annapolis Shipping", calls: 50, rating: 4.5),
    Caller(id: 2, name: "Annika Holm", company: "Holm AB", calls: 3, rating: 1e-7),
    Caller(id: 3, name: "Hannah Anders", company: "Anna's Bakery", calls: 90, rating: 3),
    Caller(id: 4, name: "Annette Vik", company: "Vik & Co", calls: 12, rating: .nan),
  ]

  private func search(_ ranking: ItemSearch<Caller, Never, Never>.Ranking?, ranks: Bool = false)
    async throws
    -> ItemSearch<Caller, Never, Never>
  {
    var configuration = ItemSearch<Caller, Never, Never>.Configuration(
      search: SearchConfiguration(ranksResults: ranks), scheduler: ManualSearchScheduler())
    configuration.ranking = ranking
    return try await ItemSearch(callers, searching: \.name, \.company, configuration: configuration)
  }

  @Test func popularityRanksEquallyRelevantItems() async throws {
    let search = try await search(.byPopularity(\.calls))
    search.isActive = true
    search.text = "ann"
    // The names that start a word with "ann" (the first key path), the most called first;
    // then Hannah Anders, whose name has "ann" inside a word, and whose company's name starts
    // with it: the name counts first, and inside a word is the weaker match there.
    #expect(search.rows.map(\.id) == [1, 4, 2, 3])
    // A change of calls moves the row, as a fresh search would place it.
    try await search.update(
      Caller(id: 2, name: "Annika Holm", company: "Holm AB", calls: 400, rating: 1))
    #expect(search.rows.map(\.id) == [2, 1, 4, 3])
  }

  @Test func withoutARankingTheSearchKeepsTheItemsOrderUnlessItRanks() async throws {
    let plain = try await search(nil)
    plain.isActive = true
    plain.text = "ann"
    #expect(plain.rows.map(\.id) == [1, 2, 3, 4])
    // Ranked by relevance alone: ties keep the items' order.
    let relevance = try await search(nil, ranks: true)
    relevance.isActive = true
    relevance.text = "ann"
    #expect(relevance.rows.map(\.id) == [1, 2, 4, 3])
  }

  @Test func aRatingRanksEitherWayAndNotANumberComesLast() async throws {
    let best = try await search(.relevance(thenBy: \.rating, .descending))
    best.isActive = true
    best.text = "ann"
    #expect(best.rows.map(\.id) == [1, 2, 4, 3])
    let worst = try await search(.relevance(thenBy: \.rating, .ascending))
    worst.isActive = true
    worst.text = "ann"
    // 1e-7 is a small number, not a value without one.
    #expect(worst.rows.map(\.id) == [2, 1, 4, 3])
  }
}
