import Observation
import SearchCore
import SearchCoreTesting
import Synchronization
import TestSupport
import Testing

/// A chat message: rows of two kinds, texts in a list, a scope by predicate.
private struct Message: Identifiable, Sendable, Equatable {
  enum Kind: Hashable, Sendable { case text, photo }
  enum Filter: Hashable, Sendable, CaseIterable { case photos, fromAnna }
  let id: String
  var author: String
  var body: String
  var tags: [String]
  var kind: Kind
}

/// The typed front door as an app uses it: each test is one of the ways the untyped API went
/// wrong for an app developer, through the public API only.
@MainActor
@Suite(.tags(.concurrent)) struct ItemSearchTests {
  private let messages = [
    Message(id: "m1", author: "Anna", body: "Müller called", tags: ["work"], kind: .text),
    Message(id: "m2", author: "Ben", body: "beach photo", tags: [], kind: .photo),
    Message(id: "m3", author: "Anna", body: "!mül is not an operator", tags: [], kind: .text),
    Message(id: "m4", author: "Çelik", body: "Ｍüｌｌｅｒ full width", tags: ["x"], kind: .photo),
  ]

  private func search(syntax: SearchQuery.Syntax? = nil) async throws -> ItemSearch<
    Message, Message.Filter, Never
  > {
    try await ItemSearch(
      messages, searching: \.author, \.body, \.tags,
      scopes: ItemScopes(Message.Filter.allCases) { message, filter in
        switch filter {
        case .photos: message.kind == .photo
        case .fromAnna: message.author == "Anna"
        }
      },
      configuration: .init(
        search: SearchConfiguration(querySyntax: syntax), scheduler: ManualSearchScheduler()))
  }

  /// The app's own values come back, by row and by id, with no engine identity in sight.
  @Test func rowsAreTheAppsOwnItems() async throws {
    let search = try await search()
    #expect(Array(search.rows) == messages)
    search.isActive = true
    search.text = "müller"
    // "Müller" folds alike in m1 and in m4's full-width form.
    #expect(search.rows.map(\.id) == ["m1", "m4"])
    #expect(search.item(withID: "m4")?.author == "Çelik")
    #expect(search.indexPath(of: "m4") == TableIndexPath(section: 0, row: 1))
    #expect(search.item(at: TableIndexPath(section: 0, row: 0))?.id == "m1")
    #expect(search.selectRow(at: TableIndexPath(section: 0, row: 9)) == nil)
  }

  /// Scopes are the app's values; titles follow them; a predicate may admit an item to
  /// several scopes.
  @Test func scopesAreTyped() async throws {
    let search = try await search()
    #expect(search.scopeTitles == ["All", "Photos", "FromAnna"])
    search.isActive = true
    search.scope = .photos
    #expect(search.rows.map(\.id) == ["m2", "m4"])
    search.scope = .fromAnna
    #expect(search.rows.map(\.id) == ["m1", "m3"])
    search.text = "photo"
    #expect(search.state == .noResults)
    search.scope = nil
    #expect(search.rows.map(\.id) == ["m2"])
    #expect(search.controller.searchBar.selectedScope == 0)
  }

  /// A search field is not a query language: `!mül` is a word, found in m3 only.
  @Test func theSearchFieldReadsWordsWithoutOperators() async throws {
    let words = try await search()
    words.isActive = true
    words.text = "!mül"
    #expect(words.rows.map(\.id) == ["m3"])
    words.text = "anna müller"  // every word, in any field
    #expect(words.rows.map(\.id) == ["m1"])
    let extended = try await search(syntax: .extended)
    extended.isActive = true
    extended.text = "!mül"
    #expect(extended.rows.map(\.id) == ["m2"])
  }

  /// Fifty changes in one call are one update with one change set.
  @Test func aBatchIsOneUpdate() async throws {
    let search = try await search()
    search.isActive = true
    search.text = "note"
    var updates: [ItemSearch<Message, Message.Filter, Never>.Update] = []
    let token = search.observe { updates.append($0) }
    let notes = (0..<50).map {
      ItemChange.insert(
        Message(id: "n\($0)", author: "Dora", body: "note \($0)", tags: [], kind: .text))
    }
    try await search.apply(notes + [.remove("m2"), .update(messages[0])])
    #expect(updates.count == 1)
    #expect(updates.first?.cause == .modelChanged)
    #expect(updates.first?.changes.insertedRows.count == 50)
    #expect(search.rows.count == 50 && search.count == 53)
    // A later change may name an item inserted earlier in the same batch.
    let note = Message(id: "n50", author: "Eve", body: "note", tags: [], kind: .text)
    let memo = Message(id: "n50", author: "Eve", body: "memo", tags: [], kind: .text)
    try await search.apply([.insert(note), .update(memo)])
    #expect(search.item(withID: "n50")?.body == "memo")
    #expect(search.rows.count == 50)
    withExtendedLifetime(token) {}
  }

  /// Mistakes are errors that say what to do, and leave the items as they were.
  @Test func mistakesAreErrors() async throws {
    await #expect(throws: ItemSearchError.duplicateID("m1")) {
      _ = try await ItemSearch(messages + [messages[0]], searching: \Message.body)
    }
    await #expect(throws: ItemSearchError.duplicateScopeTitle("Work")) {
      _ = try await ItemSearch(
        messages, searching: \.body,
        scopes: ItemScopes(["a", "b"], title: { _ in "Work" }) { _, _ in true })
    }
    // A locale ICU has no data for, which would fold and collate as the root locale; "" is
    // the root locale itself.
    for locale in ["xx", "zz_QQ", "tr\u{0}"] {
      do {
        _ = try await ItemSearch(
          messages, searching: \Message.body, configuration: .init(locale: locale))
        Issue.record("locale \(locale) was taken")
      } catch {
        #expect(error == .unknownLocale(locale))
        #expect(error.code == .unknownLocale && error.value == locale && error.underlying == nil)
      }
    }
    _ = try await ItemSearch(messages, searching: \Message.body, configuration: .init(locale: ""))
    _ = try await ItemSearch(messages, searching: \Message.body, configuration: .init(locale: "tr"))
    let search = try await search()
    await #expect(throws: ItemSearchError.unknownID("zz")) { try await search.remove("zz") }
    await #expect(throws: ItemSearchError.duplicateID("m1")) {
      try await search.apply([.remove("m2"), .insert(messages[0])])
    }
    await #expect(throws: ItemSearchError.positionOutOfRange(9, count: 4)) {
      try await search.insert(
        Message(id: "new", author: "Fay", body: "", tags: [], kind: .text), at: 9)
    }
    #expect(search.count == 4 && search.item(withID: "m2") != nil)
  }

  /// Rows of several kinds come from one adapter per kind, which gets the item and its
  /// highlights.
  @Test func rowAdaptersGetTheItemAndItsHighlights() async throws {
    let search = try await search()
    var adapters = ItemRowAdapters<Message, Message.Kind, String>(kind: \.kind)
    adapters.register(.text) { message, marks in
      marks[\.body].runs.map { $0.isMarked ? "[\($0.text)]" : String($0.text) }.joined()
    }
    search.isActive = true
    search.text = "mül"
    let first = TableIndexPath(section: 0, row: 0)
    #expect(try search.row(at: first, using: adapters) == "[Mül]ler called")
    // m4 is a photo, and photos have no adapter yet.
    #expect(throws: ItemSearchError.noAdapter(kind: "photo")) {
      _ = try search.row(at: TableIndexPath(section: 0, row: 2), using: adapters)
    }
    adapters.fallback = { message, marks in "photo: " + marks[\.tags].map(\.text).joined() }
    #expect(try search.row(at: TableIndexPath(section: 0, row: 2), using: adapters) == "photo: x")
    // Highlights have UTF-16 offsets for NSRange: "Ｍüｌ" is three UTF-16 units.
    let wide = search.highlight(of: messages[3], in: \.body)
    #expect(wide.utf16Marks == [0..<3])
  }

  /// SwiftUI reads the search through Observation: a keystroke's new rows invalidate a view
  /// that read them.
  @Test func observationSeesTextAndRows() async throws {
    let search = try await search()
    search.isActive = true
    let changed = Counter()
    withObservationTracking {
      _ = search.sections
    } onChange: {
      changed.add()
    }
    withObservationTracking {
      _ = search.state
    } onChange: {
      changed.add()
    }
    search.text = "anna"
    #expect(changed.value == 2)
    #expect(search.state == .rows(2))
    // Cancel clears the text, as SwiftUI's search field does, and shows every item again.
    search.isActive = false
    #expect(search.text == "" && search.state == .hidden && search.rows.count == 4)
  }

  /// The update stream, as an asynchronous sequence, in order.
  @Test func updatesArriveInOrder() async throws {
    let search = try await search()
    let stream = search.updates()
    search.isActive = true
    search.text = "a"
    search.text = "an"
    var texts: [String] = []
    for await update in stream {
      texts.append(update.text)
      if texts.count == 3 { break }
    }
    #expect(texts == ["", "a", "an"])
  }
}

/// A count that observation callbacks may bump from any thread.
private final class Counter: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func add() { count.withLock { $0 += 1 } }
}
