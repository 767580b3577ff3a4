import Foundation
import SearchCore
import SearchCoreTesting
import Synchronization
import TestSupport
import Testing

/// What an app at scale relies on: the build off the main actor, rows in the app's order that
/// stays through changes, the scope bar by index, and `settled()`.
@MainActor
@Suite(.tags(.concurrent)) struct ItemSearchScaleTests {
  struct Person: Identifiable, Sendable, Equatable {
    enum Team: String, CaseIterable, Sendable { case red, blue }
    let id: Int
    var given: String
    var family: String
    var team: Team
  }

  static let people = [
    Person(id: 1, given: "Zoë", family: "Åberg", team: .red),
    Person(id: 2, given: "Anna", family: "Zander", team: .blue),
    Person(id: 3, given: "Ömer", family: "Berg", team: .red),
    Person(id: 4, given: "Bea", family: "Öst", team: .blue),
    Person(id: 5, given: "Ann", family: "Adler", team: .red),
  ]

  /// The items are read, folded and indexed off the main actor: the scope predicate, which
  /// runs for every item as it is read, never runs on the main thread while the search is
  /// built.
  @Test func theBuildRunsOffTheMainActor() async throws {
    let onMain = Atomic<Int>(0)
    let calls = Atomic<Int>(0)
    let search = try await ItemSearch(
      Self.people, searching: \.given,
      scopes: ItemScopes(Person.Team.allCases) { person, team in
        calls.add(1, ordering: .relaxed)
        if Thread.isMainThread { onMain.add(1, ordering: .relaxed) }
        return person.team == team
      })
    #expect(calls.load(ordering: .relaxed) == Self.people.count * 2)
    #expect(onMain.load(ordering: .relaxed) == 0)
    #expect(search.count == 5)
  }

  /// Rows follow the collation of the key path the app names, under the locale (Swedish puts
  /// Å and Ö after Z), inside sections by another key path, in the list and in the results,
  /// and inserts and renames take their place in that order.
  @Test func rowsKeepTheAppsOrderThroughChanges() async throws {
    let search = try await ItemSearch(
      Self.people, searching: \.given, \.family,
      configuration: .init(
        order: .collation(\.family), locale: "sv", scheduler: ManualSearchScheduler()))
    #expect(search.rows.map(\.family) == ["Adler", "Berg", "Zander", "Åberg", "Öst"])
    try await search.insert(Person(id: 6, given: "Carl", family: "Ceder", team: .red))
    #expect(search.rows.map(\.family) == ["Adler", "Berg", "Ceder", "Zander", "Åberg", "Öst"])
    var renamed = Self.people[1]
    renamed.family = "Aalto"
    try await search.update(renamed)
    #expect(search.rows.map(\.family) == ["Aalto", "Adler", "Berg", "Ceder", "Åberg", "Öst"])
    search.isActive = true
    search.text = "an"  // Anna, Ann, Zander's Anna renamed Aalto
    #expect(search.rows.map(\.family) == ["Aalto", "Adler"])
    try await search.insert(Person(id: 7, given: "Annika", family: "Ahl", team: .blue))
    #expect(search.rows.map(\.family) == ["Aalto", "Adler", "Ahl"])

    let ada = Person(id: 9, given: "Ada", family: "Young", team: .blue)
    let sectioned = try await ItemSearch(
      Self.people + [ada], searching: \.given,
      configuration: .init(
        sections: .firstLetter(\.given), order: .collation(\.family),
        scheduler: ManualSearchScheduler()))
    // Sections by the given name's letter (Ömer under O in the root collation), rows by
    // family name: by given name A would be Ada Young, Ann Adler, Anna Zander.
    #expect(sectioned.sections.map(\.title) == ["A", "B", "O", "Z"])
    #expect(sectioned.sections[0].rows.map(\.family) == ["Adler", "Young", "Zander"])
  }

  /// Replacing the list (a reload after a sync) is one update whose change set turns the
  /// rows on screen into the new list: the gone removed, the new inserted, a moved row moved,
  /// a changed row updated, and an equal row left alone.
  @Test func replacingTheListIsOneAnimatedUpdate() async throws {
    let search = try await ItemSearch(
      Self.people, searching: \.given, \.family,
      configuration: .init(scheduler: ManualSearchScheduler()))
    var updates: [ItemSearch<Person, Never, Never>.Update] = []
    let token = search.observe { updates.append($0) }
    var renamed = Self.people[3]  // Bea Öst
    renamed.family = "Ost"
    let carl = Person(id: 6, given: "Carl", family: "Ceder", team: .red)
    // Ann moves to the top, Anna goes, Carl comes, Bea is renamed; Zoë and Ömer are equal.
    let new = [Self.people[4], Self.people[0], carl, Self.people[2], renamed]
    try await search.replaceAll(new)
    await search.settled()
    #expect(search.rows.map(\.id) == [5, 1, 6, 3, 4])
    #expect(search.item(withID: 4)?.family == "Ost")
    #expect(search.item(withID: 2) == nil)
    try #require(updates.count == 1)
    let changes = updates[0].changes
    // Zoë, Ömer and Bea keep their order: only Ann moves (a deletion and an insertion, or a
    // move), Anna is deleted, Carl inserted.
    #expect(changes.deletedRows.count + changes.movedRows.count <= 3, "\(changes)")
    #expect(changes.updatedRows.map(\.row) == [4], "only Bea's row reloads: \(changes)")
    #expect(
      Self.applied(changes, to: Self.people.map(\.id), new: search.rows.map(\.id))
        == [5, 1, 6, 3, 4])
    // Nothing to change is no update.
    try await search.replaceAll(new)
    await search.settled()
    #expect(updates.count == 1)
    withExtendedLifetime(token) {}
  }

  /// An observer of the update of a change finds the items as the update shows them: an
  /// inserted item by its id, at its row, in the count; a removed one gone.
  @Test func anObserverFindsWhatTheUpdateInserted() async throws {
    let search = try await ItemSearch(
      Self.people, searching: \.given,
      configuration: .init(scheduler: ManualSearchScheduler()))
    let carl = Person(id: 6, given: "Carl", family: "Ceder", team: .red)
    var seen: [(item: Person?, row: Int?, count: Int, removed: Person?)] = []
    let token = search.observe { _ in
      seen.append(
        (
          search.item(withID: 6), search.indexPath(of: 6)?.row, search.count,
          search.item(withID: 1)
        ))
    }
    try await search.insert(carl, at: 1)
    try await search.remove(1)
    try #require(seen.count == 2)
    #expect(seen[0].item == carl && seen[0].row == 1 && seen[0].count == 6)
    #expect(seen[1].removed == nil && seen[1].row == 0 && seen[1].count == 5)
    withExtendedLifetime(token) {}
  }

  /// The rows of a one-section table after a batch update, as UIKit carries one out:
  /// deletions and the rows moved away by their old places, insertions and the rows moved in
  /// by their new places, the other rows in their order around them; an inserted row shows
  /// the item `new` has there.
  static func applied(_ changes: TableChanges, to old: [Int], new: [Int]) -> [Int] {
    let gone = Set(changes.deletedRows.map(\.row) + changes.movedRows.map(\.from.row))
    var rest = old.enumerated().filter { !gone.contains($0.offset) }.map(\.element)[...]
    var placed: [Int: Int] = [:]
    for move in changes.movedRows { placed[move.to.row] = old[move.from.row] }
    for path in changes.insertedRows { placed[path.row] = new[path.row] }
    let count = old.count - changes.deletedRows.count + changes.insertedRows.count
    return (0..<count).map { row in placed[row] ?? rest.popFirst() ?? -1 }
  }

  /// The scope bar by index, as UIKit counts its buttons: 0 is All.
  @Test func theScopeBarByIndex() async throws {
    let search = try await ItemSearch(
      Self.people, searching: \.given, scopes: .cases(\.team),
      configuration: .init(scheduler: ManualSearchScheduler()))
    #expect(search.selectedScopeIndex == 0)
    search.isActive = true
    search.selectedScopeIndex = 2
    #expect(search.scope == .blue)
    #expect(search.rows.map(\.id) == [2, 4])
    search.scope = .red
    #expect(search.selectedScopeIndex == 1)
    search.selectedScopeIndex = 0
    #expect(search.scope == nil && search.rows.count == 5)
  }

  /// `settled()` returns once the background search of the last keystroke is on screen.
  @Test func settledWaitsForTheRowsOnScreen() async throws {
    let search = try await ItemSearch(
      Self.people, searching: \.given,
      configuration: .init(search: SearchConfiguration(mode: .background)))
    search.isActive = true
    search.text = "ann"
    await search.settled()
    #expect(search.controller.isIdle)
    #expect(search.rows.map(\.id) == [2, 5])
    search.text = "anna"
    #expect(!search.controller.isIdle)  // the search runs in the background
    await search.settled()
    #expect(search.rows.map(\.id) == [2])
  }
}
