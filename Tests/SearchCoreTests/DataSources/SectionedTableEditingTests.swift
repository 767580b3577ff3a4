import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

@Suite(.tags(.plainSwift)) struct SectionedTableEditingTests {
  let collation: SectionedTable.Collation

  init() throws { collation = try SectionedTable.Collation(locale: "") }

  private func path(_ section: Int, _ row: Int) -> TableIndexPath {
    TableIndexPath(section: section, row: row)
  }

  /// A contacts-style table of names, sorted.
  private func letters(_ model: SearchModel, rowOrder: SectionedTable.RowOrder = .collation) throws
    -> SectionedTable
  {
    try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"), rowOrder: rowOrder,
      collation: collation)
  }

  /// Applies a batch to the model and the table; checks the result against a rebuild and
  /// the UIKit simulation.
  private func edit(
    _ table: SectionedTable, _ model: inout SearchModel, _ changes: [SearchModel.Change]
  )
    throws -> (table: SectionedTable, changes: TableChanges)
  {
    let edit = try model.apply(changes)
    let result = try table.applying(edit, model: model, precedes: model.precedes)
    let rebuilt = try SectionedTable(
      items: model.ids, model: model, sectioning: table.sectioning, rowOrder: table.rowOrder,
      collation: table.collation)
    #expect(result.table.sections == rebuilt.sections)
    #expect(simulate(result.changes, from: table, to: result.table) == rebuilt.sections)
    return result
  }

  private func names(_ table: SectionedTable, _ model: SearchModel) -> [String: [String]] {
    TableFixtures.shown(table, model)
  }

  @Test func insertionFindsItsRow() throws {
    var model = try EditFixtures.model(names: ["Bea", "Abel", "Bob", "Anna"])
    let table = try letters(model)
    let (new, changes) = try edit(
      table, &model, [.insert(SearchModel.Record(fields: [["Ben"]], attributes: ["x"]))])
    #expect(names(new, model) == ["A": ["Abel", "Anna"], "B": ["Bea", "Ben", "Bob"]])
    #expect(changes == TableChanges(insertedRows: [path(1, 1)]))
  }

  @Test func renameAcrossSectionsIsAMove() throws {
    var model = try EditFixtures.model(names: ["Bea", "Abel", "Bob", "Anna"])
    let table = try letters(model)
    let bob = model.ids[2]
    let (new, changes) = try edit(
      table, &model,
      [.update(bob, with: SearchModel.Record(fields: [["Aaron"]], attributes: ["x"]))])
    #expect(names(new, model) == ["A": ["Aaron", "Abel", "Anna"], "B": ["Bea"]])
    #expect(
      changes
        == TableChanges(
          movedRows: [TableChanges.Move(from: path(1, 1), to: path(0, 0))],
          updatedRows: [path(0, 0)]))
  }

  @Test func renameInPlaceIsAReloadOnly() throws {
    var model = try EditFixtures.model(names: ["Abel", "Anna", "Axel"])
    let table = try letters(model)
    let (_, changes) = try edit(
      table, &model,
      [.update(model.ids[1], with: SearchModel.Record(fields: [["Annika"]], attributes: ["y"]))])
    #expect(changes == TableChanges(updatedRows: [path(0, 1)]))
  }

  /// In model order, a rename moves nothing; sorted, it moves the row past its neighbours.
  @Test func renameMovesOnlyWhenTheOrderChanges() throws {
    var model = try EditFixtures.model(names: ["Abel", "Anna", "Axel"])
    let given = try letters(model, rowOrder: .given)
    var sorted = model
    let rename: [SearchModel.Change] = [
      .update(model.ids[0], with: SearchModel.Record(fields: [["Azur"]], attributes: ["x"]))
    ]
    let (_, inPlace) = try edit(given, &model, rename)
    #expect(inPlace == TableChanges(updatedRows: [path(0, 0)]))
    let (_, moved) = try edit(try letters(sorted), &sorted, rename)
    #expect(
      moved
        == TableChanges(
          movedRows: [TableChanges.Move(from: path(0, 0), to: path(0, 2))],
          updatedRows: [path(0, 2)]))
  }

  @Test func sectionsComeAndGo() throws {
    var model = try EditFixtures.model(names: ["Abel", "Bea", "Cleo"])
    let table = try letters(model)
    let (new, changes) = try edit(
      table, &model,
      [
        .remove(model.ids[1]),
        .insert(SearchModel.Record(fields: [["42"]], attributes: ["x"]), at: 0),
      ])
    #expect(new.sections.map(\.title) == ["A", "C", "#"])
    #expect(changes == TableChanges(deletedSections: [1], insertedSections: [2]))
  }

  /// An empty table has one section without a title: a sectioned table gains its first row
  /// by replacing that section, a plain one by inserting a row into it.
  @Test func fromAndToAnEmptyTable() throws {
    let record = SearchModel.Record(fields: [["Abel"]], attributes: ["x"])
    var model = try EditFixtures.model(names: [])
    let empty = try letters(model)
    var plainModel = model
    let (one, gained) = try edit(empty, &model, [.insert(record)])
    #expect(gained == TableChanges(deletedSections: [0], insertedSections: [0]))
    let (none, lost) = try edit(one, &model, [.remove(model.ids[0])])
    #expect(none.sections == [SectionedTable.Section(title: nil, items: [])])
    #expect(lost == TableChanges(deletedSections: [0], insertedSections: [0]))

    let plain = try SectionedTable(items: [], model: plainModel, collation: collation)
    let (plainOne, inserted) = try edit(plain, &plainModel, [.insert(record)])
    #expect(inserted == TableChanges(insertedRows: [path(0, 0)]))
    let (_, deleted) = try edit(plainOne, &plainModel, [.remove(plainModel.ids[0])])
    #expect(deleted == TableChanges(deletedRows: [path(0, 0)]))
  }

  @Test func badEditsThrow() throws {
    let model = try EditFixtures.model(names: ["Abel"])
    let table = try letters(model)
    let stranger = ItemID(rawValue: 9)
    #expect(throws: SectionedTable.Error.unknownItem(stranger)) {
      try table.applying(TableEdit(inserted: [stranger]), model: model, precedes: model.precedes)
    }
    #expect(throws: SectionedTable.Error.duplicateItem(model.ids[0])) {
      try table.applying(
        TableEdit(inserted: [model.ids[0]]), model: model, precedes: model.precedes)
    }
  }

  /// The whole table with only some rows kept is the table built of those rows: what a
  /// search's results table is made of when it has the original's layout.
  @Test func keepingRowsEqualsBuilding() async throws {
    let collations = try ["", "sv"].map { try SectionedTable.Collation(locale: $0) }
    await propertyCheck(count: TestBudget.cases(200), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var model = try EditFixtures.model(limit: 30, using: &random)
      // Edits first: the model's order is then no longer its identities' order.
      _ = try model.apply(EditFixtures.changes(for: model, using: &random))
      let sectioning =
        [SectionedTable.Sectioning.none, .attribute("kind"), .firstLetter(field: "name")]
        .randomElement(using: &random) ?? .none
      let rowOrder =
        [SectionedTable.RowOrder.given, .collation, .fieldCollation("name")].randomElement(
          using: &random)
        ?? .given
      let collation = collations.randomElement(using: &random) ?? collations[0]
      let whole = try SectionedTable(
        items: model.ids, model: model, sectioning: sectioning, rowOrder: rowOrder,
        collation: collation)
      let kept = model.ids.filter { _ in Bool.random(using: &random) }
      let built = try SectionedTable(
        items: kept, model: model, sectioning: sectioning, rowOrder: rowOrder,
        collation: collation)
      let filtered = whole.keeping(kept, identityLimit: model.identityLimit)
      #expect(filtered.sections == built.sections, "seed \(seed) \(sectioning) \(rowOrder)")
      for id in kept { #expect(filtered.indexPath(of: id) == built.indexPath(of: id)) }
    }
  }

  /// Random models, tables and batches of changes, several batches in a row: the edited table
  /// equals a rebuild, its changes turn the old table into it in UIKit's batch order, and rows
  /// the batch did not touch never move.
  ///
  /// Some tables show only part of the model (as results do), so that items come and go with a
  /// filter.
  @Test func editingEqualsRebuilding() async throws {
    let collations = try ["", "es", "sv", "de"].map { try SectionedTable.Collation(locale: $0) }
    await propertyCheck(count: TestBudget.cases(500), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var model = try EditFixtures.model(limit: 30, using: &random)
      let sectioning =
        [SectionedTable.Sectioning.none, .attribute("kind"), .firstLetter(field: "name")]
        .randomElement(using: &random) ?? .none
      let rowOrder =
        [SectionedTable.RowOrder.given, .collation, .fieldCollation("name")].randomElement(
          using: &random)
        ?? .given
      let collation = collations.randomElement(using: &random) ?? collations[0]
      let filtered = Int.random(in: 0..<4, using: &random) == 0
      func shown(_ model: SearchModel) -> [ItemID] {
        filtered
          ? model.ids.filter { !["x", "é"].contains(model.attribute(0, of: $0)) } : model.ids
      }
      var table = try SectionedTable(
        items: shown(model), model: model, sectioning: sectioning, rowOrder: rowOrder,
        collation: collation)
      for batch in 0..<Int.random(in: 1...3, using: &random) {
        let changes = EditFixtures.changes(for: model, reorders: true, using: &random)
        var next = model
        let modelEdit = try next.apply(changes)
        let before = Set(table.sections.flatMap(\.items))
        let after = shown(next)
        let afterSet = Set(after)
        var edit = TableEdit(
          removed: before.subtracting(afterSet), inserted: after.filter { !before.contains($0) },
          updated: modelEdit.updated.intersection(before).intersection(afterSet))
        edit.reordered = modelEdit.reordered
        if !filtered {
          #expect(edit.removed == modelEdit.removed && edit.updated == modelEdit.updated)
          #expect(Set(edit.inserted) == Set(modelEdit.inserted), "seed \(seed)")
        }

        let (edited, tableChanges) = try table.applying(edit, model: next, precedes: next.precedes)
        let rebuilt = try SectionedTable(
          items: after, model: next, sectioning: sectioning, rowOrder: rowOrder,
          collation: collation)
        let label =
          "seed \(seed) batch \(batch) \(sectioning) \(rowOrder) \"\(collation.locale)\" \(changes) \(tableChanges)"
        #expect(edited.sections == rebuilt.sections, "\(label)")
        for id in after { #expect(edited.indexPath(of: id) == rebuilt.indexPath(of: id)) }
        #expect(simulate(tableChanges, from: table, to: edited) == rebuilt.sections, "\(label)")

        let full = TableChanges(from: table, to: rebuilt, updated: edit.updated)
        #expect(tableChanges.deletedSections == full.deletedSections, "\(label)")
        #expect(tableChanges.insertedSections == full.insertedSections, "\(label)")
        #expect(tableChanges.updatedRows == full.updatedRows, "\(label)")
        for list in [tableChanges.deletedRows, tableChanges.insertedRows, tableChanges.updatedRows]
        {
          #expect(list == list.sorted() && Set(list).count == list.count, "\(label)")
        }
        #expect(tableChanges.movedRows == tableChanges.movedRows.sorted(), "\(label)")
        // Only what the batch touched appears, and rows it did not touch never move: unless
        // the batch reordered the model and the rows keep its order.
        for move in tableChanges.movedRows where !edit.reordered || rowOrder != .given {
          #expect(table.item(at: move.from).map(edit.updated.contains) == true, "\(label)")
        }
        for path in tableChanges.deletedRows {
          #expect(
            table.item(at: path).map { edit.removed.contains($0) || edit.updated.contains($0) }
              == true, "\(label)")
        }
        for path in tableChanges.insertedRows {
          #expect(
            edited.item(at: path).map { !before.contains($0) || edit.updated.contains($0) }
              == true, "\(label)")
        }
        table = edited
        model = next
      }
    }
  }
}
