import Foundation
import SearchCore
import TestSupport
import Testing

/// A table view that behaves as UIKit's does with batch updates.
///
/// Deletions (old paths) come first, then insertions and move destinations (new paths) in
/// ascending order; the rows it inserts come from the data source; after each batch it checks,
/// as UIKit's consistency check does, that every section has the number of rows the data source
/// says.
///
/// It keeps contact ids.
@MainActor
final class TableView: TableBatchUpdating {
  weak var dataSource: ItemSearch<Contact, Contact.Group, Never>?
  private(set) var sections: [[Int]] = []
  private(set) var batches = 0
  private(set) var reloads = 0
  private var pending:
    (
      deletedSections: [Int], insertedSections: [Int], deleted: [TableIndexPath],
      inserted: [TableIndexPath], moves: [(TableIndexPath, TableIndexPath)]
    )?

  /// The rows as the data source has them now.
  func dataSourceRows() -> [[Int]] {
    dataSource?.sections.map { $0.rows.map(\.id) } ?? []
  }

  func reloadData() {
    reloads += 1
    sections = dataSourceRows()
  }

  func performBatchUpdates(_ updates: () -> Void) {
    pending = ([], [], [], [], [])
    updates()
    guard let batch = pending else { return }
    pending = nil
    batches += 1
    var rows = sections
    let moved = batch.moves.map { from, _ in rows[from.section][from.row] }
    var doomed: [Int: Set<Int>] = [:]
    for path in batch.deleted + batch.moves.map(\.0) {
      #expect(!batch.deletedSections.contains(path.section))
      #expect(doomed[path.section, default: []].insert(path.row).inserted, "\(path) twice")
    }
    for (section, gone) in doomed {
      rows[section] = rows[section].enumerated().filter { !gone.contains($0.offset) }.map(\.element)
    }
    for section in batch.deletedSections.sorted(by: >) { rows.remove(at: section) }
    let now = dataSourceRows()
    for section in batch.insertedSections.sorted() { rows.insert(now[section], at: section) }
    var insertions = batch.inserted.map { ($0, now[$0.section][$0.row]) }
    insertions += zip(batch.moves.map(\.1), moved).map { ($0, $1) }
    for (path, id) in insertions.sorted(by: { $0.0 < $1.0 }) {
      rows[path.section].insert(id, at: path.row)
    }
    #expect(rows.map(\.count) == now.map(\.count), "UIKit's consistency check")
    sections = rows
  }

  func deleteSections(_ sections: [Int]) { pending?.deletedSections += sections }
  func insertSections(_ sections: [Int]) { pending?.insertedSections += sections }
  func deleteRows(at indexPaths: [TableIndexPath]) { pending?.deleted += indexPaths }
  func insertRows(at indexPaths: [TableIndexPath]) { pending?.inserted += indexPaths }
  func moveRow(at indexPath: TableIndexPath, to newIndexPath: TableIndexPath) {
    pending?.moves.append((indexPath, newIndexPath))
  }
  func reloadRows(at indexPaths: [TableIndexPath]) {
    let now = dataSourceRows()
    for path in indexPaths { #expect(now[path.section].indices.contains(path.row)) }
  }
}

/// The GettingStarted guide's contacts example, driven as a user would: 2,000 contacts, a
/// search typed key by key with background searches, scope changes, and inserts, renames and
/// deletes while searching.
///
/// The table view follows only the update stream; it must always hold the rows the search shows,
/// and those must be what a brute-force filter finds.
@MainActor
@Suite(.tags(.concurrent)) struct GettingStartedTests {
  static let first = [
    "Anna", "Ömer", "Jürgen", "Zoë", "Ida", "Kenji", "Ｋｅｎｊｉ", "Léa", "Søren", "Ægir",
    "Ñuño", "Chloé", "Mia", "Noah", "Emil", "Ünal", "Ирина", "Łukasz", "Björn", "Élodie",
  ]
  static let last = [
    "Müller", "Mueller", "Muller", "Østergaard", "Çelik", "García", "Núñez", "Dvořák", "Smith",
    "O'Brien", "Yılmaz", "Schmidt", "Lindqvist", "Åberg", "Мюллер", "van Dijk", "Mülheim",
  ]
  static let companies = ["Müller & Söhne", "ACME", "Initech", "Globex", "", "Straße AG"]

  static func contacts(count: Int, seed: UInt64) -> [Contact] {
    var state = seed
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: state >> 33)
    }
    return (0..<count).map { id in
      let name = "\(first[next() % first.count]) \(last[next() % last.count])"
      let emails = (0..<(next() % 3)).map {
        "\(name.split(separator: " ")[0].lowercased())\($0)@example.org"
      }
      return Contact(
        id: id, name: name, company: companies[next() % companies.count], emails: emails,
        group: Contact.Group.allCases[next() % 3])
    }
  }

  /// What the search must show: every word of the text, folded for case and diacritics, in
  /// the name, the company or an e-mail address, within the scope.
  ///
  /// Written with Foundation's folding, independently of the engine.
  static func bruteForce(_ contacts: [Contact], text: String, scope: Contact.Group?) -> Set<Int> {
    func fold(_ text: String) -> String {
      text.folding(
        options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
      )
      .replacingOccurrences(of: "ß", with: "ss")
    }
    let words = fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
    return Set(
      contacts.filter { contact in
        (scope == nil || contact.group == scope)
          && words.allSatisfy { word in
            ([contact.name, contact.company] + contact.emails).contains { fold($0).contains(word) }
          }
      }.map(\.id))
  }

  @Test func contactsExampleFollowsTheUpdateStream() async throws {
    var contacts = Self.contacts(count: 2_000, seed: 42)
    let tableView = TableView()
    let app = try await ContactsController(contacts: contacts, tableView: tableView)
    tableView.dataSource = app.search
    tableView.reloadData()
    let search = app.search
    #expect(search.scopeTitles == ["All", "Work", "Family", "Friends"])
    #expect(search.sections.first?.title == "A")
    // Full-width Ｋｅｎｊｉ is filed under K with Kenji, not in a section of its own.
    #expect(search.sections.filter { $0.title == "K" }.count == 1)
    #expect(!search.sections.contains { $0.title == "Ｋ" })

    search.isActive = true
    var nextID = 10_000
    for (step, text) in ["m", "mü", "mül", "müll", "mul", "mu", "m", "", "ömer", "ömer m"]
      .enumerated()
    {
      search.text = text
      if step % 3 == 0 { await Task.yield() }
      switch step {
      case 2:
        let contact = Contact(
          id: nextID, name: "Zoë Müllerová", company: "ACME", emails: [], group: .work)
        nextID += 1
        contacts.append(contact)
        try await app.add(contact)
      case 4:
        let index = contacts.firstIndex { $0.name.contains("Müller") } ?? 0
        try await app.rename(contacts[index], to: "Anna Schmidt")
        contacts[index].name = "Anna Schmidt"
      case 5:
        search.scope = .family
      case 6:
        let index = 7
        try await app.delete(contacts[index])
        contacts.remove(at: index)
      default: break
      }
    }
    search.text = "mül"
    await search.controller.waitUntilIdle()
    #expect(search.state == .rows(search.rows.count))
    #expect(tableView.sections == tableView.dataSourceRows())
    #expect(tableView.batches > 0)
    let shown = Set(search.rows.map(\.id))
    #expect(shown.count == search.rows.count)
    #expect(shown == Self.bruteForce(contacts, text: "mül", scope: .family))
    #expect(search.rows.allSatisfy { $0.group == .family })
    // Highlights mark whole characters of the name: "Mül" in "Müller", "Mul" in "Muller".
    let marked = search.rows.compactMap { contact -> String? in
      let text = search.highlight(of: contact, in: \.name)
      return text.marks.first.map { String(text.text[$0]) }
    }
    #expect(marked.contains("Mül") && marked.contains("Mul"))
    #expect(marked.allSatisfy { $0 == "Mül" || $0 == "Mul" })

    // Cancel: the whole list is back, and the table view has it.
    search.isActive = false
    #expect(search.text == "")
    #expect(search.rows.count == contacts.count)
    #expect(tableView.sections == tableView.dataSourceRows())
  }
}

/// The README's `ItemSearch` example, line by line, with what it promises checked.
@MainActor
@Suite(.tags(.concurrent)) struct ReadmeItemSearchTests {
  @Test func readmeExample() async throws {
    let contacts = GettingStartedTests.contacts(count: 300, seed: 7)
    let tableView = TableView()
    let newContact = Contact(
      id: 1_000, name: "Zoë Müller", company: "ACME", emails: [], group: .family)
    let search = try await ItemSearch(
      contacts, searching: \.name, \.company, \.emails,
      scopes: .cases(\.group),
      configuration: .init(
        sections: .firstLetter(\.name),
        search: SearchConfiguration(mode: .background, minimumLength: 2)))
    tableView.dataSource = search
    tableView.reloadData()
    let token = search.observe { update in update.apply(to: tableView) }  // UIKit batch updates
    search.isActive = true  // the bar got focus
    search.text = "mül"  // a keystroke: searched in the background
    search.scope = .family  // a scope button
    await search.controller.waitUntilIdle()
    var marked: [String] = []
    for section in search.sections {  // your own values, by first letter
      for contact in section.rows {
        let text = search.highlight(of: contact, in: \.name)
        marked += text.runs.filter(\.isMarked).map { String($0.text) }
        #expect(contact.group == .family)
      }
    }
    #expect(marked.contains("Mül"))
    try await search.insert(newContact)  // folded and indexed off the main actor
    #expect(search.indexPath(of: 1_000) != nil)
    #expect(tableView.sections == tableView.dataSourceRows())
    withExtendedLifetime(token) {}
  }
}

/// The guide's tokens example: scope counts, suggestions and a token accepted, checked against
/// a brute-force count of the contacts.
@MainActor
@Suite(.tags(.concurrent)) struct GettingStartedTokensTests {
  @Test func tokensSuggestionsAndScopeCounts() async throws {
    var contacts = GettingStartedTests.contacts(count: 400, seed: 11)
    for index in contacts.indices where index % 3 == 0 { contacts[index].birthday = "03-14" }
    let companies = GettingStartedTests.companies.filter { !$0.isEmpty }
    let field = try await ContactsSearchField(contacts: contacts, companies: companies)
    let search = field.search
    search.isActive = true
    // The whole list: every scope's size.
    let sizes =
      [contacts.count]
      + Contact.Group.allCases.map { group in
        contacts.filter { $0.group == group }.count
      }
    #expect(field.scopeButtonTitles() == zip(search.scopeTitles, sizes).map { "\($0) \($1)" })

    // "ac" suggests ACME (a company whose title starts with it), folded: "AC" and "ác" too.
    for typed in ["ac", "AC", "ác"] {
      search.text = typed
      #expect(field.suggestions() == ["ACME"], "\"\(typed)\"")
    }
    search.text = "birth"
    #expect(field.suggestions() == ["Has a birthday"])
    field.accept(.hasBirthday)
    field.accept(.company("ACME"))
    // Below the minimum length the scope bar keeps every button, without counts.
    search.text = "a"
    await search.settled()
    #expect(search.scopeCounts == nil)
    #expect(field.scopeButtonTitles() == search.scopeTitles)
    search.text = "an"
    await search.settled()
    let expected = contacts.filter { contact in
      contact.birthday != nil && contact.company == "ACME"
        && GettingStartedTests.bruteForce([contact], text: "an", scope: nil).count == 1
    }
    #expect(Set(search.rows.map(\.id)) == Set(expected.map(\.id)))
    #expect(!expected.isEmpty)
    let counts =
      [expected.count]
      + Contact.Group.allCases.map { group in
        expected.filter { $0.group == group }.count
      }
    #expect(field.scopeButtonTitles() == zip(search.scopeTitles, counts).map { "\($0) \($1)" })
    #expect(search.suggestedTokens.allSatisfy { !search.tokens.contains($0) })
  }
}
