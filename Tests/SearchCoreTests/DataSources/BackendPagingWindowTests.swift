import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// A paging window over a backend's keyset pages: it reads the visible page and its
/// neighbours and nothing else, moves one page for one read, and its pages put together are
/// the backend's whole answer.
@MainActor
@Suite(.tags(.concurrent)) struct BackendPagingWindowTests {
  let corpus: SearchCorpus
  let backend: MemorySearchBackend

  init() throws {
    corpus = try Fixtures.corpus("products/products")
    backend = MemorySearchBackend(corpus: corpus)
  }

  func window(
    _ text: String, scope: Int = 0, pageSize: Int = 4, neighbours: Int = 1
  ) throws -> BackendPagingWindow<MemorySearchBackend, String> {
    let model = corpus.model
    return try BackendPagingWindow(
      backend: self.backend, query: try SearchQuery(text, normalizer: corpus.normalizer),
      scope: scope,
      pageSize: pageSize, neighbours: neighbours
    ) { id, record in
      // The row is made from the backend's values, which are the model's here.
      #expect(record == model.record(of: id))
      return record.fields[0][0]
    }
  }

  func answer(_ text: String, scope: Int = 0) async throws -> [ItemID] {
    try await backend.items(
      matching: try SearchQuery(text, normalizer: corpus.normalizer), scope: scope)
  }

  @Test func theFirstPageReadsItselfAndItsNeighbour() async throws {
    let whole = try await answer("")
    #expect(whole.count == 45)
    let window = try window("")
    #expect(window.visibleRows.isEmpty && window.pagesRead == 0, "nothing is read before a move")
    try await window.show(page: 0)
    #expect(window.materializedPages == [0, 1])
    #expect(window.pagesRead == 2)
    #expect(window.rowsRead == 8)
    #expect(window.visibleRows.map(\.item) == Array(whole[0..<4]))
    #expect(window.visibleRows.map(\.position) == [0, 1, 2, 3])
    #expect(
      window.visibleRows.map(\.row) == whole[0..<4].map { corpus.model.values(of: $0, field: 0)[0] }
    )
    #expect(window.pageCount == nil)
  }

  @Test func eachStepReadsOnePage() async throws {
    let whole = try await answer("")
    let window = try window("")
    try await window.show(page: 0)
    for page in 1..<11 {
      let before = window.pagesRead
      try await window.showNext()
      #expect(window.pagesRead == before + 1, "page \(page)")
      #expect(window.currentPage == page)
      #expect(window.materializedPages == [page - 1, page, page + 1])
      #expect(window.visibleRows.map(\.item) == Array(whole[page * 4..<page * 4 + 4]))
      #expect(window.visibleRows.first?.position == page * 4)
    }
    // Page 11 is the last (45 rows: 11 pages of 4, then one of 1).
    try await window.showNext()
    #expect(window.pageCount == 12)
    #expect(window.isOnLastPage)
    #expect(window.visibleRows.map(\.item) == [whole[44]])
    #expect(window.materializedPages == [10, 11])
    let atEnd = window.pagesRead
    try await window.showNext()
    #expect(window.currentPage == 11 && window.pagesRead == atEnd, "past the end stays")
    // Back: the start of every page is known, so each step reads the page that comes into
    // reach on the other side, and only it.
    for page in stride(from: 10, through: 0, by: -1) {
      let before = window.pagesRead
      try await window.showPrevious()
      #expect(window.currentPage == page)
      #expect(window.pagesRead == before + (page >= 1 ? 1 : 0), "page \(page)")
      #expect(window.visibleRows.map(\.item) == Array(whole[page * 4..<page * 4 + 4]))
    }
    #expect(window.materializedPages == [0, 1])
  }

  @Test func aJumpReadsThePagesOnTheWayOnceThenKeepsTheirStarts() async throws {
    let whole = try await answer("")
    let window = try window("", neighbours: 0)
    try await window.show(page: 7)
    #expect(window.pagesRead == 8, "a keyset reaches page 7 through pages 0 to 6")
    #expect(window.materializedPages == [7])
    #expect(window.visibleRows.map(\.item) == Array(whole[28..<32]))
    try await window.show(page: 2)
    #expect(window.pagesRead == 9, "coming back reads that page alone")
    #expect(window.visibleRows.map(\.item) == Array(whole[8..<12]))
    try await window.show(page: 100)
    #expect(window.currentPage == 11 && window.pageCount == 12)
    #expect(window.visibleRows.map(\.item) == [whole[44]])
  }

  /// Over queries and scopes of every kind, the pages put together are the whole answer, in
  /// order, whatever the page size.
  @Test(arguments: [1, 3, 7, 45, 100])
  func thePagesAreTheWholeAnswer(pageSize: Int) async throws {
    for (text, scope) in [
      ("", 0), ("ipad", 0), ("mac | ipad", 1), ("!a", 3), ("'pro", 2), ("zzz", 0),
    ] {
      let whole = try await answer(text, scope: scope)
      let window = try window(text, scope: scope, pageSize: pageSize, neighbours: 0)
      try await window.show(page: 0)
      var seen = window.visibleRows.map(\.item)
      while !window.isOnLastPage {
        let page = window.currentPage
        try await window.showNext()
        if window.currentPage == page { break }
        seen += window.visibleRows.map(\.item)
      }
      #expect(seen == whole, "\(text) in scope \(scope), pages of \(pageSize)")
      #expect(window.pageCount == max(1, (whole.count + pageSize - 1) / pageSize))
      #expect(window.rowsRead == whole.count, "every row read once")
    }
  }

  @Test func anEmptyAnswerIsOneEmptyPage() async throws {
    let window = try window("zzzz")
    try await window.show(page: 3)
    #expect(window.currentPage == 0)
    #expect(window.pageCount == 1)
    #expect(window.visibleRows.isEmpty)
    #expect(window.isOnLastPage)
  }

  @Test func movesAreCarriedOutInTheOrderOfTheirCalls() async throws {
    let whole = try await answer("")
    let window = try window("")
    async let first: Void = window.showNext()
    async let second: Void = window.showNext()
    async let third: Void = window.showNext()
    _ = try await (first, second, third)
    #expect(window.currentPage == 3)
    #expect(window.visibleRows.map(\.item) == Array(whole[12..<16]))
  }

  @Test func badSizesAreRefused() throws {
    #expect(throws: PagingError.invalidPageSize(0)) { try window("", pageSize: 0) }
    #expect(throws: PagingError.invalidNeighbours(-1)) { try window("", neighbours: -1) }
    #expect(PagingError.invalidPageSize(0).description.contains("use 1 or more"))
    do {
      _ = try window("", pageSize: 0)
      Issue.record("page size 0 was taken")
    } catch let error as PagingError {
      #expect(error.code == .invalidPageSize && error.code != .invalidNeighbours)
    } catch {
      Issue.record("not a PagingError: \(error)")
    }
  }

  /// A backend that fails, or a row that cannot be made, leaves the window as it was.
  @Test func aFailedMoveChangesNothing() async throws {
    let failing = FailingBackend(base: backend)
    let query = try SearchQuery("", normalizer: corpus.normalizer)
    let window = try BackendPagingWindow(backend: failing, query: query, pageSize: 4) {
      id, record in
      if id == ItemID(rawValue: 20) { throw RenderError() }
      return record.fields[0][0]
    }
    try await window.show(page: 1)
    let shown = window.visibleRows.map(\.item)
    await failing.setFailing(true)
    do {
      try await window.showNext()
      Issue.record("the move succeeded")
    } catch {
      #expect(error.code == .backend && error.backendError != nil, "\(error)")
    }
    #expect(window.currentPage == 1 && window.visibleRows.map(\.item) == shown)
    await failing.setFailing(false)
    // Page 5, a neighbour of page 4, holds item 20 (positions 20 to 23): it cannot be rendered.
    do {
      try await window.show(page: 4)
      Issue.record("the move succeeded")
    } catch {
      #expect(error == .rendering(item: ItemID(rawValue: 20), "no row for this item"))
      #expect(error.code == .rendering && error.item == ItemID(rawValue: 20))
    }
    #expect(window.currentPage == 1 && window.visibleRows.map(\.item) == shown)
    try await window.showNext()
    #expect(window.currentPage == 2)
  }
}

private struct RenderError: Error, CustomStringConvertible {
  var description: String { "no row for this item" }
}

/// The in-memory backend, failing every page on demand.
private actor FailingBackend: PagedSearchBackend {
  let base: MemorySearchBackend
  private var failing = false

  init(base: MemorySearchBackend) { self.base = base }

  func setFailing(_ value: Bool) { failing = value }

  func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID] {
    try await base.items(matching: query, scope: scope)
  }

  func page(matching query: SearchQuery, scope: Int, after cursor: Int?, limit: Int) async throws
    -> BackendPage<Int>
  {
    if failing {
      throw SearchBackendError(.connectionLost, "the connection dropped", advice: "try again")
    }
    return try await base.page(matching: query, scope: scope, after: cursor, limit: limit)
  }
}
