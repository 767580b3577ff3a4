import SearchCore
import SearchCoreTesting
import TestSupport
import Testing

/// A note in a folder: two folders make a scope bar.
private struct Note: Identifiable, Sendable, Equatable {
  enum Folder: Hashable, Sendable, CaseIterable { case work, home }
  let id: Int
  var title: String
  var folder: Folder
}

/// The promises of ``ItemSearch/Update`` as an app relies on them, through the public API only:
/// a front that keys what it drew by generation never sees one generation with
/// two sets of rows.
@MainActor
@Suite(.tags(.concurrent)) struct ItemSearchContractTests {
  private let notes = [
    Note(id: 1, title: "Plan the week", folder: .work),
    Note(id: 2, title: "Buy bread", folder: .home),
  ]

  /// The updates' generations and the ids of the rows each showed, in order.
  @MainActor
  private final class Recorder {
    var updates: [(generation: Int, rows: [Int])] = []

    /// The generations that showed more than one set of rows.
    var generationsWithTwoRowSets: [Int] {
      var rowsOf: [Int: Set<Int>] = [:]
      var twice: [Int] = []
      for update in updates {
        let rows = Set(update.rows)
        if let seen = rowsOf[update.generation], seen != rows { twice.append(update.generation) }
        rowsOf[update.generation] = rows
      }
      return twice
    }
  }

  /// `isActive = true; scope = .work; wait; isActive = false; isActive = true` said
  /// "ended #2 rows [1, 2]" and then "searchFinished #2 rows [1]"; inserting or removing
  /// before the search began said #0 every time, with other rows.
  @Test func aGenerationNamesOneSetOfRows() async throws {
    let scheduler = ManualSearchScheduler()
    let search = try await ItemSearch(
      notes, searching: \.title, scopes: .cases(\.folder),
      configuration: .init(search: SearchConfiguration(mode: .background), scheduler: scheduler))
    let recorder = Recorder()
    let token = search.observe { update in
      recorder.updates.append(
        (update.generation, update.sections.flatMap { $0.rows.map(\.id) }))
    }
    try await search.insert(Note(id: 3, title: "Call the bank", folder: .home))
    try await search.remove(3)
    search.isActive = true
    search.scope = .work
    scheduler.runAllSearches()
    search.isActive = false
    search.isActive = true
    scheduler.runAllSearches()
    #expect(search.rows.map(\.id) == [1])
    #expect(recorder.updates.map(\.rows) == [[1, 2, 3], [1, 2], [1, 2], [1], [1, 2], [1]])
    #expect(recorder.generationsWithTwoRowSets == [])
    #expect(search.generation == recorder.updates.last?.generation)
    withExtendedLifetime(token) {}
  }
}
