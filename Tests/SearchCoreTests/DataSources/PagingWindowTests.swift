import PropertyBased
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// A table made of arrays of items, one per section: the smallest `TableDataSource`.
private struct ArrayTable: TableDataSource {
  var sections: [[ItemID]]

  init(_ sections: [[ItemID]]) { self.sections = sections.isEmpty ? [[]] : sections }

  /// One section of items 0..<count.
  init(count: Int) { self.init([(0..<count).map { ItemID(rawValue: Int32($0)) }]) }

  var numberOfSections: Int { sections.count }
  func numberOfRows(inSection section: Int) -> Int { sections[section].count }
  func item(at indexPath: TableIndexPath) -> ItemID? {
    guard sections.indices.contains(indexPath.section),
      sections[indexPath.section].indices.contains(indexPath.row)
    else { return nil }
    return sections[indexPath.section][indexPath.row]
  }
  func indexPath(of item: ItemID) -> TableIndexPath? {
    for (section, items) in sections.enumerated() {
      if let row = items.firstIndex(of: item) { return TableIndexPath(section: section, row: row) }
    }
    return nil
  }
  func titleForHeader(inSection section: Int) -> String? { nil }
  func titleForFooter(inSection section: Int) -> String? { nil }
  var sectionIndexTitles: [String]? { nil }
  func section(forSectionIndexTitle title: String, at index: Int) -> Int { index }
  func canEditRow(at indexPath: TableIndexPath) -> Bool { true }

  /// Every row in order, with its index path.
  var flat: [(TableIndexPath, ItemID)] {
    sections.enumerated().flatMap { section, items in
      items.enumerated().map { (TableIndexPath(section: section, row: $0.offset), $0.element) }
    }
  }
}

/// Records which items were rendered, across the threads a render closure may run on.
private final class RenderLog: Sendable {
  private let items = LockedValue<[ItemID]>([])
  func record(_ item: ItemID) { items.withLock { $0.append(item) } }
  var rendered: [ItemID] { items.withLock { $0 } }
}

private func label(_ item: ItemID, version: Int = 0) -> String {
  "item \(item.rawValue) v\(version)"
}

@Suite(.tags(.concurrent)) struct PagingWindowTests {
  @Test func onlyTheCurrentPageAndItsNeighboursAreRendered() throws {
    let log = RenderLog()
    let table = ArrayTable(count: 100)
    var window = try PagingWindow(table: table, pageSize: 10) { item in
      log.record(item)
      return label(item)
    }
    #expect(window.pageCount == 10)
    #expect(window.currentPage == 0)
    #expect(window.materializedPages == [0, 1])
    #expect(window.renderCount == 20)
    #expect(window.visibleRows.map(\.item) == (0..<10).map { ItemID(rawValue: Int32($0)) })
    #expect(window.visibleRows[3].row == "item 3 v0")

    try window.next()
    #expect(window.materializedPages == [0, 1, 2])
    #expect(window.renderCount == 30)  // only page 2 was new

    try window.show(page: 7)
    #expect(window.currentPage == 7)
    #expect(window.materializedPages == [6, 7, 8])  // pages 0…2 released
    #expect(window.renderCount == 60)
    // Pages 3, 4, 5 and 9 were never in reach, so none of their rows was rendered.
    let rendered = Set(log.rendered.map { Int($0.rawValue) / 10 })
    #expect(rendered == [0, 1, 2, 6, 7, 8])
    #expect(log.rendered.count == window.renderCount)

    try window.show(page: 42)  // clamped
    #expect(window.currentPage == 9)
    #expect(window.materializedPages == [8, 9])
    #expect(window.renderCount == 70)
    try window.next()
    #expect(window.currentPage == 9)
    #expect(window.renderCount == 70)

    try window.show(page: -3)
    #expect(window.currentPage == 0)
    try window.previous()
    #expect(window.currentPage == 0)
    #expect(window.materializedPages == [0, 1])
  }

  @Test func pagesSpanSectionsAndTheLastPageIsShort() throws {
    let ids = (0..<7).map { ItemID(rawValue: Int32($0)) }
    let table = ArrayTable([[ids[0], ids[1]], [], [ids[2], ids[3], ids[4]], [ids[5], ids[6]]])
    var window = try PagingWindow(table: table, pageSize: 3, neighbours: 0) { label($0) }
    #expect(window.pageCount == 3)
    #expect(
      window.visibleRows.map(\.indexPath) == [
        TableIndexPath(section: 0, row: 0), TableIndexPath(section: 0, row: 1),
        TableIndexPath(section: 2, row: 0),
      ])
    try window.show(page: 2)
    #expect(window.visibleRows.map(\.item) == [ids[6]])
    #expect(window.visibleRows.map(\.indexPath) == [TableIndexPath(section: 3, row: 1)])
    #expect(window.materializedPages == [2])
  }

  @Test func invalidConfigurationAndEmptyTables() throws {
    let table = ArrayTable(count: 5)
    #expect(throws: PagingError.invalidPageSize(0)) {
      try PagingWindow(table: table, pageSize: 0) { label($0) }
    }
    #expect(throws: PagingError.invalidNeighbours(-1)) {
      try PagingWindow(table: table, pageSize: 2, neighbours: -1) { label($0) }
    }
    do {
      _ = try PagingWindow(table: table, pageSize: 2, neighbours: -1) { label($0) }
      Issue.record("neighbours -1 were taken")
    } catch {
      #expect(error.code == .invalidNeighbours && error.code != .invalidPageSize)
    }
    var window = try PagingWindow(table: ArrayTable([]), pageSize: 4) { label($0) }
    #expect(window.pageCount == 1)
    #expect(window.currentPage == 0)
    #expect(window.visibleRows.isEmpty)
    #expect(window.materializedPages == [0])
    try window.reload(table)
    #expect(window.visibleRows.count == 4)
    try window.show(page: 1)
    try window.reload(ArrayTable([]))
    #expect(window.currentPage == 0)
    #expect(window.visibleRows.isEmpty)
  }

  @Test func reloadKeepsThePageAndReRendersOnlyNewAndUpdatedItems() throws {
    let log = RenderLog()
    let ids = (0..<40).map { ItemID(rawValue: Int32($0)) }
    var window = try PagingWindow(table: ArrayTable([ids]), pageSize: 5, page: 3) { item in
      log.record(item)
      return label(item)
    }
    #expect(window.materializedPages == [2, 3, 4])
    #expect(window.renderCount == 15)
    // Delete item 0: every row shifts by one; only item 25 comes into reach.
    var shifted = Array(ids.dropFirst())
    try window.reload(ArrayTable([shifted]))
    #expect(window.currentPage == 3)
    #expect(window.renderCount == 16)
    #expect(log.rendered.last == ids[25])
    #expect(window.visibleRows.map(\.item) == Array(ids[16..<21]))
    // Item 17 changed: only it renders again, with the new renderer.
    shifted.swapAt(15, 16)
    try window.reload(ArrayTable([shifted]), updated: [ids[17]]) { item in
      log.record(item)
      return label(item, version: item == ids[17] ? 1 : 0)
    }
    #expect(window.renderCount == 17)
    #expect(
      window.visibleRows.map(\.row) == [
        "item 17 v1", "item 16 v0", "item 18 v0", "item 19 v0", "item 20 v0",
      ])
    // Fewer pages: the window moves to the last page.
    try window.reload(ArrayTable([Array(ids[0..<7])]))
    #expect(window.pageCount == 2)
    #expect(window.currentPage == 1)
    #expect(window.visibleRows.map(\.item) == [ids[5], ids[6]])
    #expect(window.materializedPages == [0, 1])
  }

  @Test func renderFailuresAreTypedAndLeaveTheWindowAsItWas() throws {
    let model = try Self.kindModel(["text", "text", "text", "video", "text", "text"])
    var registry = RowAdapterRegistry<String>(kindAttribute: "kind")
    registry.register(
      try TemplateRowAdapter("{title}", schema: model.schema), forKind: "text")
    let table = ArrayTable([model.ids])
    var window = try PagingWindow(
      table: table, pageSize: 2, neighbours: 0, registry: registry, model: model)
    #expect(window.visibleRows.map(\.row) == ["message 0", "message 1"])
    let video = model.id(at: 3)
    #expect(
      throws: PagingError.rendering(
        .noAdapter(kind: "video", item: video), at: TableIndexPath(section: 0, row: 3))
    ) { try window.next() }
    #expect(window.currentPage == 0)
    #expect(window.materializedPages == [0])
    #expect(window.renderCount == 2)
    // A fallback fixes it.
    registry.fallback = try TemplateRowAdapter("[[{kind}]] {title}", schema: model.schema)
    try window.reload(table, render: registry.renderer(for: model))
    try window.next()
    #expect(window.visibleRows.map(\.row) == ["message 2", "[video] message 3"])
    #expect(throws: PagingError.missingItem(at: TableIndexPath(section: 0, row: 0))) {
      try PagingWindow(table: BrokenTable(), pageSize: 2) { label($0) }
    }
  }

  /// After any sequence of moves and table changes, the window is what a fresh window on the
  /// current table and page would show, and holds exactly the pages within reach.
  @Test func windowEqualsAFreshRenderAfterMovesAndReloads() async throws {
    let shapes = Gen.int(in: 1...6).array(of: 3...3)
    let actions = Gen.int(in: 0...9_999).array(of: 5...40)
    await propertyCheck(count: TestBudget.cases(200), input: shapes, actions) { shape, actions in
      let pageSize = shape[0]
      let neighbours = shape[1] % 3
      var next = Int32(0)
      func newItem() -> ItemID {
        defer { next += 1 }
        return ItemID(rawValue: next)
      }
      var sections: [[ItemID]] = (0..<shape[2]).map { section in
        (0..<(section * 3 % 7)).map { _ in newItem() }
      }
      var versions: [ItemID: Int] = [:]
      func renderer(_ versions: [ItemID: Int]) -> PagingWindow<String>.Render {
        { item in label(item, version: versions[item, default: 0]) }
      }
      var window = try PagingWindow(
        table: ArrayTable(sections), pageSize: pageSize, neighbours: neighbours,
        render: renderer(versions))
      for action in actions {
        let parameter = action / 10
        switch action % 10 {
        case 0, 1: try window.next()
        case 2: try window.previous()
        case 3: try window.show(page: parameter % 12 - 1)
        case 4, 5:  // insert
          let section = parameter % sections.count
          sections[section].insert(
            newItem(), at: parameter % (sections[section].count + 1))
          try window.reload(ArrayTable(sections))
        case 6:  // delete
          let section = parameter % sections.count
          if !sections[section].isEmpty {
            sections[section].remove(at: parameter % sections[section].count)
          }
          try window.reload(ArrayTable(sections))
        case 7:  // reorder: rotate a section, move the last section first
          let section = parameter % sections.count
          if !sections[section].isEmpty {
            let cut = parameter % sections[section].count
            sections[section] = Array(
              sections[section][cut...] + sections[section][..<cut])
          }
          if parameter % 2 == 0, let last = sections.popLast() { sections.insert(last, at: 0) }
          try window.reload(ArrayTable(sections))
        case 8:  // update some items (in reach or not)
          let all = sections.flatMap { $0 }
          var updated: Set<ItemID> = []
          if !all.isEmpty {
            for step in 0...(parameter % 3) {
              let item = all[(parameter + step * 7) % all.count]
              versions[item, default: 0] += 1
              updated.insert(item)
            }
          }
          try window.reload(ArrayTable(sections), updated: updated, render: renderer(versions))
        default:  // a section appears or goes
          if parameter % 2 == 0 || sections.count == 1 {
            sections.insert((0..<(parameter % 5)).map { _ in newItem() }, at: 0)
          } else {
            sections.remove(at: parameter % sections.count)
          }
          try window.reload(ArrayTable(sections))
        }
        let table = ArrayTable(sections)
        let flat = table.flat
        let pageCount = max(1, (flat.count + pageSize - 1) / pageSize)
        #expect(window.pageCount == pageCount)
        #expect((0..<pageCount).contains(window.currentPage))
        let page = window.currentPage
        let expected = flat.dropFirst(page * pageSize).prefix(pageSize).map { path, item in
          PagingWindow<String>.VisibleRow(
            indexPath: path, item: item, row: label(item, version: versions[item, default: 0]))
        }
        #expect(window.visibleRows == expected)
        let reach = Array(max(0, page - neighbours)...min(pageCount - 1, page + neighbours))
        #expect(window.materializedPages == reach)
        for other in reach {
          let rows = window.rows(ofPage: other) ?? []
          #expect(rows.map(\.item) == flat.dropFirst(other * pageSize).prefix(pageSize).map(\.1))
          #expect(rows.allSatisfy { $0.row == label($0.item, version: versions[$0.item] ?? 0) })
        }
      }
    }
  }

  private static func kindModel(_ kinds: [String]) throws -> SearchModel {
    let schema = SearchModel.Schema(
      fields: [SearchModel.Schema.Field(name: "title")], attributes: ["kind"])
    var model = SearchModel(schema: schema)
    for (index, kind) in kinds.enumerated() {
      try model.append(SearchModel.Record(fields: [["message \(index)"]], attributes: [kind]))
    }
    return model
  }
}

/// A table that counts rows it cannot give.
private struct BrokenTable: TableDataSource {
  var numberOfSections: Int { 1 }
  func numberOfRows(inSection section: Int) -> Int { 3 }
  func item(at indexPath: TableIndexPath) -> ItemID? { nil }
  func indexPath(of item: ItemID) -> TableIndexPath? { nil }
  func titleForHeader(inSection section: Int) -> String? { nil }
  func titleForFooter(inSection section: Int) -> String? { nil }
  var sectionIndexTitles: [String]? { nil }
  func section(forSectionIndexTitle title: String, at index: Int) -> Int { index }
  func canEditRow(at indexPath: TableIndexPath) -> Bool { false }
}
