// The GettingStarted guide's swift blocks, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder); GettingStartedTests drives them.
import SearchCore

struct Contact: Identifiable, Sendable {
  enum Group: String, CaseIterable, Sendable { case work, family, friends }
  let id: Int
  var name: String
  var company: String
  var emails: [String]
  var group: Group
}

@MainActor
final class ContactsController {
  let search: ItemSearch<Contact, Contact.Group, Never>
  private var token: ObservationToken?

  init(contacts: [Contact], tableView: TableView) async throws {
    search = try await ItemSearch(
      contacts, searching: \.name, \.company, \.emails,
      scopes: .cases(\.group), sections: .firstLetter(\.name),
      configuration: SearchConfiguration(mode: .background, minimumLength: 2))
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
