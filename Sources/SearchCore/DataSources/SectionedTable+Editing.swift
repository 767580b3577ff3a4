import SearchEngine

extension SectionedTable {
  /// The table after a batch of model changes, and the change set that turns this table into
  /// it, found by editing the table rather than rebuilding it.
  ///
  /// The result equals the table built from scratch from the new table's items in their
  /// given order, with this table's sectioning, row order, collation, editing and footers.
  /// Removed and updated rows leave their sections; inserted and updated items are placed by
  /// binary search among the rows that stay, comparing sort keys computed for the neighbours
  /// they meet. Rows the batch did not touch never move: an updated row moves when its
  /// section changes or its place among those rows does (and, among updated rows that keep
  /// their place, the fewest needed to restore their order).
  ///
  /// - Parameters:
  ///   - edit: The items the batch removed from the table, inserted into it and updated.
  ///   - model: The model after the batch.
  ///   - precedes: The order the table's items are given in (model order for a table of the
  ///     model's items), for items of the new table, O(1) per call. Items the batch did not
  ///     touch must keep the relative order they had.
  /// - Throws: ``SectionedTable/Error/unknownItem(_:)`` for an inserted or updated item that is not in
  ///   `model`, ``SectionedTable/Error/duplicateItem(_:)`` for an inserted item that is in the table or
  ///   given twice, or an ICU failure.
  /// - Complexity: O(*k* log *n*) comparisons for *k* touched items in a table of *n* rows,
  ///   with one sort key per touched item and per neighbour compared, plus one per section
  ///   title when the set of sections changes; copies the rows of the sections the batch
  ///   touched. The new table finds items (``indexPath(of:)``) after one O(*n*) pass.
  func applying(_ edit: TableEdit, model: SearchModel, precedes: (ItemID, ItemID) -> Bool)
    throws(SectionedTable.Error) -> (table: SectionedTable, changes: TableChanges)
  {
    // Rows the table sorts do not follow the model's order (equal ones keep the order of
    // their identities): a reorder moves only rows in the given order.
    if edit.reordered && rowOrder == .given {
      let table = try rebuilt(after: edit, model: model)
      return (table, TableChanges(from: self, to: table, updated: edit.updated))
    }
    let result = withoutActuallyEscaping(precedes) { precedes in
      do throws(SectionedTable.Error) {
        var editor = try TableEditor(table: self, model: model, precedes: precedes)
        try editor.takeOut(edit)
        let sections = editor.placeRows()
        let table = SectionedTable(
          sections: sections.isEmpty ? [Section(title: nil, items: [])] : sections, like: self,
          identityLimit: model.identityLimit)
        return Result<(SectionedTable, TableChanges), SectionedTable.Error>.success(
          (table, editor.changes(to: table)))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

extension SectionedTable {
  /// The table of this table's items after `edit`, in the order of `model` (a reordered
  /// one), built again with this table's layout: what a build from scratch gives.
  ///
  /// - Complexity: O(*n*) for the *n* items of the model, plus the build.
  fileprivate func rebuilt(after edit: TableEdit, model: SearchModel) throws(SectionedTable.Error)
    -> SectionedTable
  {
    var kept = Bitset(capacity: model.identityLimit)
    for section in sections {
      for id in section.items where model.contains(id) { kept.insert(Int(id.rawValue)) }
    }
    for id in edit.removed { kept.remove(Int(id.rawValue)) }
    for id in edit.inserted { kept.insert(Int(id.rawValue)) }
    let items = model.ids.filter { kept.contains(Int($0.rawValue)) }
    return try SectionedTable(
      checkedItems: items, model: model, sectioning: sectioning, rowOrder: rowOrder,
      collation: collation, canEditRows: canEditRows, footer: footer)
  }
}

/// The work of ``SectionedTable/applying(_:model:precedes:)``: which rows leave which
/// sections, where the placed ones go, and the change set.
private struct TableEditor {
  /// An item to place: its section title and, when rows are sorted, its sort key.
  struct Placement {
    var id: ItemID
    var title: String?
    var key: [UInt8]
  }

  let old: SectionedTable
  let model: SearchModel
  let grouping: SectionedTable.Grouping
  /// What orders the rows; nil keeps the given order.
  let sortText: SectionedTable.SortText?
  let worker: CollationWorker?
  let precedes: (ItemID, ItemID) -> Bool
  /// The rows of each old section that leave it (removed or updated items), ascending.
  var leaving: [[Int]]
  /// The old paths of the removed and updated items that the table had.
  var oldPaths: [ItemID: TableIndexPath] = [:]
  var removed: [ItemID] = []
  var placements: [Placement] = []
  /// Where each placed item went: its new path, and how many of the rows that stayed in its
  /// section are above it.
  var newPaths: [ItemID: (path: TableIndexPath, staying: Int)] = [:]
  /// Sort keys of rows that stay, computed when a placement meets them.
  var keys: [ItemID: [UInt8]] = [:]

  init(table: SectionedTable, model: SearchModel, precedes: @escaping (ItemID, ItemID) -> Bool)
    throws(SectionedTable.Error)
  {
    old = table
    self.model = model
    grouping = try SectionedTable.Grouping(table.sectioning, schema: model.schema)
    sortText = try SectionedTable.SortText(table.rowOrder, grouping: grouping, schema: model.schema)
    // Sorted rows with equal keys are in the order of their identities, as a build puts them.
    self.precedes = sortText == nil ? precedes : { $0 < $1 }
    if table.sectioning == .none && table.rowOrder == .given {
      worker = nil
    } else {
      do throws(ICUError) { worker = try table.collation.makeWorker() } catch { throw .icu(error) }
    }
    leaving = Array(repeating: [], count: table.sections.count)
  }

  /// Takes the removed and updated rows out of their sections and prepares the placements.
  mutating func takeOut(_ edit: TableEdit) throws(SectionedTable.Error) {
    for id in edit.removed {
      guard let path = old.indexPath(of: id) else { continue }
      oldPaths[id] = path
      leaving[path.section].append(path.row)
      removed.append(id)
    }
    var placed = Set<ItemID>()
    for id in edit.updated where !edit.removed.contains(id) {
      guard model.contains(id) else { throw .unknownItem(id) }
      if let path = old.indexPath(of: id) {
        oldPaths[id] = path
        leaving[path.section].append(path.row)
      }
      placed.insert(id)
      placements.append(Placement(id: id, title: title(of: id), key: sortKey(of: id)))
    }
    for id in edit.inserted {
      guard model.contains(id) else { throw .unknownItem(id) }
      guard placed.insert(id).inserted, edit.removed.contains(id) || old.indexPath(of: id) == nil
      else { throw .duplicateItem(id) }
      placements.append(Placement(id: id, title: title(of: id), key: sortKey(of: id)))
    }
    for section in leaving.indices { leaving[section].sort() }
  }

  /// The sections of the new table, in order (none for an empty table).
  mutating func placeRows() -> [SectionedTable.Section] {
    var sectionOfTitle: [String?: Int] = [:]
    for (index, section) in old.sections.enumerated() { sectionOfTitle[section.title] = index }
    var placedInOld = [[Placement]](repeating: [], count: old.sections.count)
    var placedInNew: [String: [Placement]] = [:]
    for placement in placements {
      if let section = sectionOfTitle[placement.title] {
        placedInOld[section].append(placement)
      } else if let title = placement.title {
        placedInNew[title, default: []].append(placement)
      }
    }

    // The sections: the old ones that keep rows, and the new titles.
    enum Source {
      case old(Int)
      case new(String)
    }
    var sources: [Source] = old.sections.indices.filter { section in
      old.sections[section].items.count > leaving[section].count
        || !placedInOld[section].isEmpty
    }.map(Source.old)
    if sources.count != old.sections.count || !placedInNew.isEmpty {
      sources += placedInNew.keys.map(Source.new)
      if let worker, sources.count > 1 {
        // A new set of titles: order it as a full build does.
        func title(_ source: Source) -> String? {
          switch source {
          case .old(let section): return old.sections[section].title
          case .new(let title): return title
          }
        }
        let otherLast: Bool
        if case .firstLetter = grouping { otherLast = true } else { otherLast = false }
        var rank: [String: Int] = [:]
        for (index, title) in worker.order(sources.compactMap(title), otherLast: otherLast)
          .enumerated()
        {
          rank[title] = index
        }
        sources.sort { a, b in
          (title(a).flatMap { rank[$0] } ?? 0) < (title(b).flatMap { rank[$0] } ?? 0)
        }
      }
    }

    var sections: [SectionedTable.Section] = []
    sections.reserveCapacity(sources.count)
    for source in sources {
      switch source {
      case .old(let section):
        let current = old.sections[section]
        if leaving[section].isEmpty && placedInOld[section].isEmpty {
          sections.append(current)
          continue
        }
        let staying = Self.removing(leaving[section], from: current.items)
        let items = merge(placedInOld[section], into: staying, section: sections.count)
        sections.append(SectionedTable.Section(title: current.title, items: items))
      case .new(let title):
        let items = merge(placedInNew[title] ?? [], into: [], section: sections.count)
        sections.append(SectionedTable.Section(title: title, items: items))
      }
    }
    return sections
  }

  /// The change set from the old table to `new`, in UIKit batch terms.
  func changes(to new: SectionedTable) -> TableChanges {
    let (newOfOld, oldOfNew) = TableChanges.matchSections(
      old.sections.map(\.title), new.sections.map(\.title))
    var changes = TableChanges(
      deletedSections: old.sections.indices.filter { newOfOld[$0] == nil },
      insertedSections: new.sections.indices.filter { oldOfNew[$0] == nil })
    for id in removed {
      guard let from = oldPaths[id], newOfOld[from.section] != nil else { continue }
      changes.deletedRows.append(from)
    }
    // Updated rows that stay in their section, with their old rows, by section.
    var stayingInSection: [Int: [(from: Int, to: Int)]] = [:]
    for placement in placements {
      guard let (to, stayingAbove) = newPaths[placement.id] else { continue }
      let target = oldOfNew[to.section] != nil ? to.section : nil
      guard let from = oldPaths[placement.id] else {
        if target != nil { changes.insertedRows.append(to) }
        continue
      }
      changes.updatedRows.append(to)
      switch (newOfOld[from.section], target) {
      case (nil, nil): break
      case (nil, _?): changes.insertedRows.append(to)
      case (_?, nil): changes.deletedRows.append(from)
      case (let source?, let target?) where source != target:
        changes.movedRows.append(TableChanges.Move(from: from, to: to))
      case (_?, _?):
        let leavingAbove = Self.count(below: from.row, in: leaving[from.section])
        if from.row - leavingAbove == stayingAbove {
          stayingInSection[from.section, default: []].append((from.row, to.row))
        } else {
          changes.movedRows.append(TableChanges.Move(from: from, to: to))
        }
      }
    }
    for (section, rows) in stayingInSection {
      // Between the same untouched rows in both tables: only their order among themselves
      // can have changed, and the longest run that kept it stays.
      let rows = rows.sorted { $0.from < $1.from }
      for (row, kept) in zip(rows, TableChanges.increasingRun(rows.map(\.to))) where !kept {
        guard let target = newOfOld[section] else { continue }
        changes.movedRows.append(
          TableChanges.Move(
            from: TableIndexPath(section: section, row: row.from),
            to: TableIndexPath(section: target, row: row.to)))
      }
    }
    changes.deletedRows.sort()
    changes.insertedRows.sort()
    changes.movedRows.sort()
    changes.updatedRows.sort()
    return changes
  }

  // MARK: Placing

  /// The rows of a section with the placements among them, recording the new paths.
  private mutating func merge(_ placements: [Placement], into staying: [ItemID], section: Int)
    -> [ItemID]
  {
    guard !placements.isEmpty else { return staying }
    let sorted = placements.sorted { a, b in
      switch compareKeys(a.key, b.key) {
      case .lessThan: return true
      case .greaterThan: return false
      case .equal: return precedes(a.id, b.id)
      }
    }
    var items: [ItemID] = []
    items.reserveCapacity(staying.count + sorted.count)
    var copied = 0
    for placement in sorted {
      // The first staying row that the placement precedes; placements are in order, so the
      // search starts where the previous one ended.
      var low = copied
      var high = staying.count
      while low < high {
        let middle = (low + high) / 2
        if isBefore(placement, staying[middle]) { high = middle } else { low = middle + 1 }
      }
      items.append(contentsOf: staying[copied..<low])
      copied = low
      newPaths[placement.id] = (TableIndexPath(section: section, row: items.count), low)
      items.append(placement.id)
    }
    items.append(contentsOf: staying[copied...])
    return items
  }

  /// Whether a placement goes above a staying row.
  private mutating func isBefore(_ placement: Placement, _ row: ItemID) -> Bool {
    guard sortText != nil else { return precedes(placement.id, row) }
    let key: [UInt8]
    if let known = keys[row] {
      key = known
    } else {
      key = sortKey(of: row)
      keys[row] = key
    }
    switch compareKeys(placement.key, key) {
    case .lessThan: return true
    case .greaterThan: return false
    case .equal: return precedes(placement.id, row)
    }
  }

  /// An item's section title in the new model, as a full build finds it.
  private func title(of id: ItemID) -> String? {
    switch grouping {
    case .none: return nil
    case .attribute(let attribute): return model.attribute(attribute, of: id)
    case .firstLetter(let field):
      let text = model.values(of: id, field: field).first ?? ""
      return worker?.sectionTitle(for: text) ?? SectionedTable.Collation.otherTitle
    }
  }

  /// An item's sort key in the new model when rows are sorted (empty when they are not), as a
  /// full build finds it.
  private func sortKey(of id: ItemID) -> [UInt8] {
    guard let sortText, let worker else { return [] }
    return worker.sortKey(sortText.text(of: id, in: model))
  }

  /// `items` without the rows at `rows` (ascending).
  private static func removing(_ rows: [Int], from items: [ItemID]) -> [ItemID] {
    guard !rows.isEmpty else { return items }
    var result: [ItemID] = []
    result.reserveCapacity(items.count - rows.count)
    var start = 0
    for row in rows {
      result.append(contentsOf: items[start..<row])
      start = row + 1
    }
    result.append(contentsOf: items[start...])
    return result
  }

  /// How many of `rows` (ascending) are below `row`.
  private static func count(below row: Int, in rows: [Int]) -> Int {
    var low = 0
    var high = rows.count
    while low < high {
      let middle = (low + high) / 2
      if rows[middle] < row { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
