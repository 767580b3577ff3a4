import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// A fruit model: "Apple", "Avocado", "Banana", "Blueberry", "Cherry", with kinds.
private func fruit() throws -> SearchModel {
  try EditFixtures.model([
    (name: "Apple", kind: "fruit"), (name: "Avocado", kind: "fruit"),
    (name: "Banana", kind: "fruit"), (name: "Blueberry", kind: "berry"),
    (name: "Cherry", kind: "fruit"),
  ])
}

@Suite(.tags(.plainSwift)) struct TableChangesTests {
  let collation: SectionedTable.Collation
  let model: SearchModel
  let ids: [ItemID]

  init() throws {
    collation = try SectionedTable.Collation(locale: "en")
    model = try fruit()
    ids = model.ids
  }

  private func letters(_ positions: [Int], in model: SearchModel? = nil) throws -> SectionedTable {
    try SectionedTable(
      items: positions.map { ids[$0] }, model: model ?? self.model,
      sectioning: .firstLetter(field: "name"), collation: collation)
  }

  private func path(_ section: Int, _ row: Int) -> TableIndexPath {
    TableIndexPath(section: section, row: row)
  }

  @Test func identicalTablesHaveNoChanges() throws {
    let table = try letters([0, 1, 2, 3, 4])
    #expect(TableChanges(from: table, to: table).isEmpty)
    #expect(TableChanges(from: table, to: table, updated: [ItemID(rawValue: 99)]).isEmpty)
    #expect(TableChanges() == TableChanges(from: table, to: table))
  }

  @Test func oneDeletion() throws {
    let changes = TableChanges(from: try letters([0, 1, 2]), to: try letters([0, 2]))
    #expect(changes == TableChanges(deletedRows: [path(0, 1)]))
  }

  @Test func oneInsertion() throws {
    let changes = TableChanges(from: try letters([0, 2]), to: try letters([0, 1, 2]))
    #expect(changes == TableChanges(insertedRows: [path(0, 1)]))
  }

  @Test func oneMoveInsideASection() throws {
    let old = try SectionedTable(
      items: [ids[0], ids[1], ids[2]], model: model, collation: collation)
    let new = try SectionedTable(
      items: [ids[1], ids[0], ids[2]], model: model, collation: collation)
    let changes = TableChanges(from: old, to: new)
    #expect(changes.movedRows.count == 1)
    #expect(changes.deletedRows.isEmpty && changes.insertedRows.isEmpty)
    #expect(simulate(changes, from: old, to: new) == new.sections)
  }

  @Test func sectionsAppearAndDisappear() throws {
    let appearing = TableChanges(from: try letters([0, 2]), to: try letters([0, 2, 4]))
    #expect(appearing == TableChanges(insertedSections: [2]))
    let going = TableChanges(from: try letters([0, 2, 3, 4]), to: try letters([0, 4]))
    #expect(going == TableChanges(deletedSections: [1]))
  }

  @Test func moveAcrossSectionsWithUpdate() throws {
    let old = try SectionedTable(
      items: ids, model: model, sectioning: .attribute("kind"), collation: collation)
    #expect(old.sectionIndexTitles == ["berry", "fruit"])
    var changed = model
    try changed.update(
      ids[2], with: SearchModel.Record(fields: [["Banana"]], attributes: ["berry"]))
    let new = try SectionedTable(
      items: ids, model: changed, sectioning: .attribute("kind"), collation: collation)
    let changes = TableChanges(from: old, to: new, updated: [ids[2], ids[4]])
    // Banana was row 2 of "fruit" and is row 0 of "berry", before Blueberry; Cherry moves up.
    #expect(
      changes
        == TableChanges(
          movedRows: [TableChanges.Move(from: path(1, 2), to: path(0, 0))],
          updatedRows: [path(0, 0), path(1, 2)]))
    #expect(simulate(changes, from: old, to: new) == new.sections)
  }

  /// German puts "Ö" before "Z", Swedish after: sections cannot move in a batch, so one of
  /// them goes and comes back with its rows.
  @Test func sectionsThatChangeOrderAreDeletedAndInserted() throws {
    let model = try EditFixtures.model([(name: "Öl", kind: "Ö"), (name: "Zoo", kind: "Z")])
    let old = try SectionedTable(
      items: model.ids, model: model, sectioning: .attribute("kind"),
      collation: try SectionedTable.Collation(locale: "de"))
    let new = try SectionedTable(
      items: model.ids, model: model, sectioning: .attribute("kind"),
      collation: try SectionedTable.Collation(locale: "sv"))
    #expect(old.sectionIndexTitles == ["Ö", "Z"])
    #expect(new.sectionIndexTitles == ["Z", "Ö"])
    let changes = TableChanges(from: old, to: new)
    let oneGoesAndComes = [
      TableChanges(deletedSections: [0], insertedSections: [1]),
      TableChanges(deletedSections: [1], insertedSections: [0]),
    ]
    #expect(oneGoesAndComes.contains(changes))
    #expect(simulate(changes, from: old, to: new) == new.sections)
  }

  @Test func longestRunIsKept() {
    #expect(TableChanges.increasingRun([]) == [])
    #expect(TableChanges.increasingRun([3, 1, 2, 0, 4]) == [false, true, true, false, true])
    #expect(TableChanges.increasingRun([0, 1, 2]) == [true, true, true])
  }

  /// Any two tables of one model: the changes, applied in UIKit's batch-update order, give
  /// exactly the new table; updated rows are the new paths of updated items in both.
  @Test func changesTurnOldTableIntoNew() async throws {
    let collations = try TableFixtures.locales.map { try SectionedTable.Collation(locale: $0) }
    await propertyCheck(count: TestBudget.cases(300), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      let rows = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        (
          name: TableFixtures.words.randomElement(using: &random),
          kind: TableFixtures.kinds.randomElement(using: &random) ?? ""
        )
      }
      let model = try EditFixtures.model(rows)
      let sectioning =
        [SectionedTable.Sectioning.none, .attribute("kind"), .firstLetter(field: "name")]
        .randomElement(using: &random) ?? .none
      func table() throws -> SectionedTable {
        let items = model.ids.shuffled(using: &random)
          .prefix(Int.random(in: 0...model.count, using: &random))
        // Mostly the same sectioning, sometimes another, so sections come and go wholesale.
        let own =
          Int.random(in: 0..<5, using: &random) == 0
          ? [SectionedTable.Sectioning.none, .attribute("kind"), .firstLetter(field: "name")]
            .randomElement(using: &random) ?? .none : sectioning
        return try SectionedTable(
          items: Array(items), model: model, sectioning: own,
          rowOrder: Bool.random(using: &random) ? .given : .collation,
          collation: collations.randomElement(using: &random) ?? collations[0])
      }
      let old = try table()
      let new = try table()
      let updated = Set(model.ids.filter { _ in Bool.random(using: &random) })
      let changes = TableChanges(from: old, to: new, updated: updated)
      let label = "seed \(seed): \(changes)"
      #expect(simulate(changes, from: old, to: new) == new.sections, "\(label)")
      let expectedUpdates = updated.filter { old.indexPath(of: $0) != nil }
        .compactMap { new.indexPath(of: $0) }.sorted()
      #expect(changes.updatedRows == expectedUpdates, "\(label)")
      for list in [changes.deletedRows, changes.insertedRows, changes.updatedRows] {
        #expect(list == list.sorted())
      }
      #expect(changes.deletedSections == changes.deletedSections.sorted())
      #expect(changes.insertedSections == changes.insertedSections.sorted())
      #expect(TableChanges(from: new, to: new).isEmpty)
    }
  }

  @Test func largeDiff() throws {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: ["kind"]))
    var random = SplitMix64(seed: 7)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    for _ in 0..<60_000 {
      let name = String((0..<6).map { _ in letters.randomElement(using: &random) ?? "a" })
      try model.append(SearchModel.Record(fields: [[name]], attributes: ["x"]))
    }
    let collation = try SectionedTable.Collation(locale: "")
    let old = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"), collation: collation)
    var kept = model.ids.filter { _ in Int.random(in: 0..<10, using: &random) != 0 }
    let count = kept.count
    for _ in 0..<500 {
      kept.swapAt(
        Int.random(in: 0..<count, using: &random), Int.random(in: 0..<count, using: &random))
    }
    let new = try SectionedTable(
      items: kept, model: model, sectioning: .firstLetter(field: "name"), collation: collation)
    let changes = TableChanges(from: old, to: new)
    #expect(changes.deletedRows.count == model.count - count)
    #expect(changes.movedRows.count <= 1_000)
    #expect(simulate(changes, from: old, to: new) == new.sections)
  }
}

extension TableChangesTests {
  /// Emptying a table without comparing gives what the comparison gives: plain, by letter,
  /// by attribute, and an empty table.
  @Test func emptyingEqualsTheComparisonWithAnEmptyTable() throws {
    let flat = try SectionedTable(items: ids, model: model, collation: collation)
    let byKind = try SectionedTable(
      items: ids, model: model, sectioning: .attribute("kind"), collation: collation)
    for table in [flat, try letters([0, 1, 2, 3, 4]), try letters([]), byKind] {
      let empty = try SectionedTable(
        items: [], model: model, sectioning: table.sectioning, collation: collation)
      #expect(TableChanges.emptying(table) == TableChanges(from: table, to: empty))
      #expect(simulate(TableChanges.emptying(table), from: table, to: empty) == empty.sections)
    }
  }
}
