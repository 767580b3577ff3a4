import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// A sync that returns the list in another order (reversed, sorted by another key, shuffled),
/// with about one item in a hundred changed: the search shows what a search built afresh from
/// the new list shows, the update's change set carries the table on screen there, and the
/// model takes the order in one change rather than a removal and an insertion per moved item.
@MainActor @Suite(.tags(.concurrent)) struct ItemSearchReorderTests {
  struct Contact: Identifiable, Equatable, Sendable {
    let id: Int
    var name: String
    var company: String
  }

  enum Order: CaseIterable {
    case reversed, byCompany, shuffled
  }

  static let names = [
    "Anna Müller", "Ömer Yılmaz", "Zoë García", "Ирина Иванова", "Søren Åberg", "Kenji Lee",
    "Léa Dubois", "Łukasz Nowak", "Chen Mei", "Ægir Þórsson", "Ida Rossi", "Noah Smith",
  ]
  static let companies = ["ACME", "Globex", "Hooli", "Initech", "Société Générale", "Yoyodyne"]

  /// `count` contacts whose names repeat (as real names do), so that sorted rows have ties.
  static func contacts(_ count: Int, random: inout SplitMix64) -> [Contact] {
    (0..<count).map { id in
      Contact(
        id: id, name: names[Int(random.next() % UInt64(names.count))] + " \(random.next() % 7)",
        company: companies[Int(random.next() % UInt64(companies.count))])
    }
  }

  /// `list` in `order`, with about one in a hundred renamed, removed or joined by a new one.
  static func synced(_ list: [Contact], _ order: Order, random: inout SplitMix64) -> [Contact] {
    var new: [Contact] = []
    for var contact in list {
      switch random.next() % 300 {
      case 0: continue
      case 1: contact.name = "Renamed \(contact.id)"
      case 2: new.append(Contact(id: 100_000 + contact.id, name: "Zed New", company: "Hooli"))
      default: break
      }
      new.append(contact)
    }
    switch order {
    case .reversed: new.reverse()
    case .byCompany: new.sort { ($0.company, $0.id) < ($1.company, $1.id) }
    case .shuffled: new.shuffle(using: &random)
    }
    return new
  }

  static func makeSearch(_ list: [Contact], sortsRows: Bool) async throws -> ItemSearch<
    Contact, Never, Never
  > {
    try await ItemSearch(
      list, searching: \.name, \.company,
      configuration: .init(
        sections: .firstLetter(\.name, sortsRows: sortsRows),
        search: SearchConfiguration(mode: .background)))
  }

  /// Each section's title and its rows' ids, or (for sorted rows, where equal names may be
  /// in any order in a search built from another list) their names.
  static func shown(_ search: ItemSearch<Contact, Never, Never>, sortsRows: Bool) -> [String] {
    search.sections.map { section in
      let rows = section.rows.map { sortsRows ? $0.name : "\($0.id)" }
      return "\(section.title ?? "-"): " + rows.joined(separator: ", ")
    }
  }

  @Test(arguments: [false, true], [false, true])
  func everyOrderShowsWhatAFreshBuildShows(sortsRows: Bool, searching: Bool) async throws {
    var random = SplitMix64(seed: sortsRows ? 11 : 12)
    for order in Order.allCases {
      let old = Self.contacts(TestBudget.cases(3_000), random: &random)
      let search = try await Self.makeSearch(old, sortsRows: sortsRows)
      if searching {
        search.isActive = true
        search.text = "an"
        await search.settled()
      }
      let controller = search.controller
      var mirror = TableMirror(controller.table(controller.visibleTable))
      var updates = 0
      let token = search.observe { update in
        updates += 1
        mirror.apply(update.changes, new: controller.table(controller.visibleTable))
        #expect(mirror.problems == [], "UIKit would reject update #\(update.generation)")
      }
      let version = controller.corpus.model.version
      let new = Self.synced(old, order, random: &random)
      try await search.replaceAll(new)
      await search.settled()
      withExtendedLifetime(token) {}

      let fresh = try await Self.makeSearch(new, sortsRows: sortsRows)
      if searching {
        fresh.isActive = true
        fresh.text = "an"
        await fresh.settled()
      }
      #expect(
        Self.shown(search, sortsRows: sortsRows) == Self.shown(fresh, sortsRows: sortsRows),
        "\(order)")
      #expect(search.count == new.count)
      #expect(updates == 1, "\(order)")
      #expect(mirror.sections == controller.table(controller.visibleTable).sections, "\(order)")
      // The model took a change per item that changed and one for the order, not a pair per
      // moved item.
      let changed =
        new.count(where: { old.count <= $0.id || old[$0.id] != $0 })
        + (old.count + new.count(where: { $0.id >= 100_000 }) - new.count)
      #expect(controller.corpus.model.version - version <= changed + 1, "\(order)")
    }
  }

  /// Sorted rows do not follow the order the list is given in: the same items in another
  /// order move no row.
  @Test func theSameItemsInAnotherOrderMoveNoSortedRow() async throws {
    var random = SplitMix64(seed: 13)
    let old = Self.contacts(TestBudget.cases(2_000), random: &random)
    let search = try await Self.makeSearch(old, sortsRows: true)
    let before = search.sections.map { $0.rows.map(\.id) }
    var changes: [TableChanges] = []
    let token = search.observe { changes.append($0.changes) }
    try await search.replaceAll(old.shuffled(using: &random))
    await search.settled()
    withExtendedLifetime(token) {}
    #expect(search.sections.map { $0.rows.map(\.id) } == before)
    #expect(changes.allSatisfy { $0.isEmpty }, "\(changes)")
  }
}
