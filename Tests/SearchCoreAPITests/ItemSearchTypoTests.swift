import SearchCore
import SearchCoreTesting
import TestSupport
import Testing

/// A shop on a list, searched as an app's search field searches: words with typo tolerance.
private struct Shop: Identifiable, Sendable, Equatable {
  let id: Int
  var name: String
}

/// Typo tolerance where an app meets it: on by default in `ItemSearch`'s words, exact matches
/// before those with typos in the list's own order, each row telling its typos, model changes
/// keeping the groups, and off when the configuration says so.
@MainActor
@Suite(.tags(.concurrent)) struct ItemSearchTypoTests {
  /// In model order: exact matches of "lemon" (m2, m4) among near misses (m1, m5: one edit;
  /// m3: two edits, too many for five letters).
  private let shops = [
    Shop(id: 1, name: "Lemin Bar"),
    Shop(id: 2, name: "Lemon Tart"),
    Shop(id: 3, name: "Melon Stand"),
    Shop(id: 4, name: "Lemons & Limes"),
    Shop(id: 5, name: "Leman Lake Café"),
  ]

  private func search(_ configuration: SearchConfiguration = SearchConfiguration()) async throws
    -> ItemSearch<Shop, Never, Never>
  {
    try await ItemSearch(
      shops, searching: \.name,
      configuration: .init(search: configuration, scheduler: ManualSearchScheduler()))
  }

  @Test func exactMatchesComeFirstThenThoseWithTypos() async throws {
    let search = try await search()
    search.isActive = true
    search.text = "lemon"
    #expect(search.rows.map(\.id) == [2, 4, 1, 5])
    #expect(search.rows.map { search.typos(of: $0) } == [0, 0, 1, 1])
    // Two typos need nine letters: "Melon" is not found.
    #expect(!search.rows.contains { $0.id == 3 })
    // The highlight of a row found with a typo marks the word it found.
    let marked = search.highlight(of: shops[0], in: \.name)
    #expect(marked.marks.map { String(marked.text[$0]) } == ["Lemin"])
  }

  @Test func aMistypedWordFindsWhatAStrictSearchDoesNot() async throws {
    let strict = try await search(SearchConfiguration(typos: .off))
    strict.isActive = true
    strict.text = "lemno tart"
    #expect(strict.state == .noResults)
    let tolerant = try await search()
    tolerant.isActive = true
    tolerant.text = "lemno tart"
    #expect(tolerant.rows.map(\.id) == [2])
    #expect(tolerant.typos(of: shops[1]) == 1)
    // Short words stay exact: "lemn" (four letters) finds nothing.
    tolerant.text = "lemn"
    #expect(tolerant.state == .noResults)
  }

  @Test func rankedRowsPutTyposLastToo() async throws {
    let search = try await search(SearchConfiguration(ranksResults: true))
    search.isActive = true
    search.text = "lemon"
    #expect(Array(search.rows.map(\.id).prefix(2)).sorted() == [2, 4])
    #expect(search.rows.map { search.typos(of: $0) } == [0, 0, 1, 1])
  }

  /// A change keeps the groups: a new exact match joins the exact ones, a new near miss the
  /// others, each in model order; the update's change set leads from the old rows to the new.
  @Test func changesKeepExactMatchesFirst() async throws {
    let search = try await search()
    search.isActive = true
    search.text = "lemon"
    var rows = search.rows.map(\.id)
    var replayed: [[Int]] = []
    let token = search.observe { update in
      let now = search.rows.map(\.id)
      rows = ItemSearchScaleTests.applied(update.changes, to: rows, new: now)
      replayed.append(rows)
    }
    try await search.insert(Shop(id: 6, name: "Lemon Pie"))
    try await search.insert(Shop(id: 7, name: "Lemun Grove"))
    try await search.update(Shop(id: 3, name: "Lemon Melon"))
    await search.settled()
    withExtendedLifetime(token) {}
    #expect(replayed.count == 3)
    #expect(search.rows.map(\.id) == [2, 3, 4, 6, 1, 5, 7])
    #expect(search.rows.map { search.typos(of: $0) } == [0, 0, 0, 0, 1, 1, 1])
    #expect(rows == search.rows.map(\.id))
  }
}
