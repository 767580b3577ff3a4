// The GettingStarted guide's swift blocks, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder); GettingStartedTests drives them.
import Foundation
import SearchCore

struct Contact: Identifiable, Sendable {
  enum Group: String, CaseIterable, Sendable { case work, family, friends }
  let id: Int
  var name: String
  var company: String
  var emails: [String]
  var group: Group
  var birthday: String? = nil
}

@MainActor
final class ContactsController {
  let search: ItemSearch<Contact, Contact.Group, Never>
  private var token: SearchController.ObservationToken?

  init(contacts: [Contact], tableView: some TableBatchUpdating) async throws {
    search = try await ItemSearch(
      contacts, searching: \.name, \.company, \.emails,
      scopes: .cases(\.group),
      configuration: .init(
        sections: .firstLetter(\.name),
        search: SearchConfiguration(mode: .background, minimumLength: 2)))
    token = search.observe { [tableView] update in update.apply(to: tableView) }
  }

  // The table view's data source.
  func numberOfSections() -> Int { search.sections.count }
  func numberOfRows(inSection section: Int) -> Int { search.sections[section].rows.count }
  func titleForHeader(inSection section: Int) -> String? { search.sections[section].title }
  func sectionIndexTitles() -> [String]? { search.sectionIndexTitles }
  func cell(at indexPath: TableIndexPath) -> MarkedText? {
    search.item(at: indexPath).map { search.highlight(of: $0, in: \.name) }
  }

  // The app's own changes, during a search or not.
  func add(_ contact: Contact) async throws { try await search.insert(contact) }
  func rename(_ contact: Contact, to name: String) async throws {
    var renamed = contact
    renamed.name = name
    try await search.update(renamed)
  }
  func delete(_ contact: Contact) async throws { try await search.remove(contact.id) }
}

enum ContactToken: Hashable, Identifiable, Sendable {
  case company(String)
  case hasBirthday
  var id: Self { self }
}

@MainActor
final class ContactsSearchField {
  let search: ItemSearch<Contact, Contact.Group, ContactToken>

  init(contacts: [Contact], companies: [String]) async throws {
    let tokens = ItemTokens<Contact, ContactToken>(
      companies.map(ContactToken.company) + [.hasBirthday],
      title: { token in
        switch token {
        case .company(let name): name
        case .hasBirthday: "Has a birthday"
        }
      },
      filter: { token in
        switch token {
        case .company(let name): .equals(\.company, name)
        case .hasBirthday: .isPresent(\.birthday)
        }
      })
    search = try await ItemSearch(
      contacts, searching: \.name, \.company, \.emails, scopes: .cases(\.group), tokens: tokens,
      configuration: .init(search: SearchConfiguration(minimumLength: 2)))
  }

  // The scope bar, each button with its count: "All 12", "Work 5", …; below the minimum
  // length there are no counts, and the buttons keep their titles.
  func scopeButtonTitles() -> [String] {
    zip(search.scopeTitles, [nil] + search.scopes).map { title, scope in
      search.count(in: scope).map { "\(title) \($0)" } ?? title
    }
  }

  // Under the field: the tokens whose title matches the text ("ac" → "Acme").
  func suggestions() -> [String] { search.suggestedTokens.map(search.title(of:)) }

  // A suggestion tapped: the typed text becomes a token.
  func accept(_ token: ContactToken) {
    search.tokens.append(token)
    search.text = ""
  }
}

// UIKit's own methods need no comment in an app: the guide's block is kept as it is.
// swift-format-ignore: AllPublicDeclarationsHaveDocumentation
extension UITableView: TableBatchUpdating {
  public func performBatchUpdates(_ updates: () -> Void) {
    withoutActuallyEscaping(updates) { performBatchUpdates($0, completion: nil) }
  }
  public func deleteSections(_ s: [Int]) { deleteSections(IndexSet(s), with: .automatic) }
  public func insertSections(_ s: [Int]) { insertSections(IndexSet(s), with: .automatic) }
  public func deleteRows(at p: [TableIndexPath]) { deleteRows(at: p.map(\.ns), with: .automatic) }
  public func insertRows(at p: [TableIndexPath]) { insertRows(at: p.map(\.ns), with: .automatic) }
  public func moveRow(at a: TableIndexPath, to b: TableIndexPath) { moveRow(at: a.ns, to: b.ns) }
  public func reloadRows(at p: [TableIndexPath]) { reconfigureRows(at: p.map(\.ns)) }
}
extension TableIndexPath { var ns: IndexPath { IndexPath(row: row, section: section) } }
