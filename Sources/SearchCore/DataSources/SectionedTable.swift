import SearchEngine

/// A table of model items grouped into sections: a plain list, one section per attribute
/// value, or an alphabetical list with an index down the side, as a contacts list.
///
/// The table is a snapshot built once from a list of identities (model order, or the ranked
/// order of search results); it answers every ``TableDataSource`` question in O(1), and
/// ``indexPath(of:)`` in O(log *s*) for *s* sections.
public struct SectionedTable: TableDataSource, Sendable {
  /// A section of the table: its header title and its rows.
  public struct Section: Hashable, Sendable {
    /// The header title: the attribute value or the index title; nil for a plain table.
    public var title: String?
    /// The rows, top to bottom.
    public var items: [ItemID]

    /// Creates a section.
    public init(title: String?, items: [ItemID]) {
      self.title = title
      self.items = items
    }
  }

  /// The text below a section, or nil for none; given the section, so that it can count
  /// its rows ("12 cities").
  public typealias Footer = @Sendable (Section) -> String?

  /// The sections, top to bottom: at least one (an empty table has one section, no rows).
  public let sections: [Section]
  /// How the rows were grouped.
  public let sectioning: SectionedTable.Sectioning
  /// How the rows are ordered inside each section.
  public let rowOrder: SectionedTable.RowOrder
  /// The collation that ordered sections and rows and chose first-letter titles.
  public let collation: SectionedTable.Collation
  /// Whether rows may be edited (deleted).
  public let canEditRows: Bool
  let footer: Footer?
  /// Where each section's rows start in the table's rows counted from the top.
  private let sectionStarts: [Int]
  private let locator: LazyLocator

  /// Builds a table.
  ///
  /// - Parameters:
  ///   - items: The rows, in the order the table shows them with ``SectionedTable/RowOrder/given``; each
  ///     an item of `model`, each once.
  ///   - model: The model the items belong to.
  ///   - sectioning: How to group the rows.
  ///   - rowOrder: How to order the rows inside each section.
  ///   - collation: The locale rules for titles and orders.
  ///   - canEditRows: Whether rows may be edited (deleted).
  ///   - footer: The text below each section, or nil for no footers.
  /// - Throws: ``SectionedTable/Error`` for an unknown field or attribute name, an item that is not in
  ///   the model or is given twice, or an ICU failure.
  /// - Complexity: O(*n* log *n*) for *n* items, with one sort key per item when sorting.
  public init(
    items: [ItemID], model: SearchModel, sectioning: SectionedTable.Sectioning = .none,
    rowOrder: SectionedTable.RowOrder = .given,
    collation: SectionedTable.Collation, canEditRows: Bool = true, footer: Footer? = nil
  ) throws(SectionedTable.Error) {
    var seen = [Bool](repeating: false, count: model.identityLimit)
    for id in items {
      guard model.contains(id) else { throw .unknownItem(id) }
      guard !seen[Int(id.rawValue)] else { throw .duplicateItem(id) }
      seen[Int(id.rawValue)] = true
    }
    try self.init(
      checkedItems: items, model: model, sectioning: sectioning, rowOrder: rowOrder,
      collation: collation, canEditRows: canEditRows, footer: footer)
  }

  /// Builds a table of items known to be distinct items of the model (a search result):
  /// skips the check that costs an array the size of the model on every keystroke.
  init(
    checkedItems items: [ItemID], model: SearchModel, sectioning: SectionedTable.Sectioning = .none,
    rowOrder: SectionedTable.RowOrder = .given, collation: SectionedTable.Collation,
    canEditRows: Bool = true,
    footer: Footer? = nil
  ) throws(SectionedTable.Error) {
    let grouping = try Grouping(sectioning, schema: model.schema)
    let sortText = try SortText(rowOrder, grouping: grouping, schema: model.schema)
    let worker: CollationWorker?
    if sectioning == .none && rowOrder == .given {
      worker = nil
    } else {
      do throws(ICUError) { worker = try collation.makeWorker() } catch { throw .icu(error) }
    }

    // Sections are found in the given order, so each one's rows start in the given order.
    var titles: [String?] = []
    var groups: [[Int]] = []
    var keys: [[UInt8]] = []
    if sortText != nil { keys.reserveCapacity(items.count) }
    switch grouping {
    case .none:
      titles = [nil]
      groups = rowOrder == .given ? [[]] : [Array(items.indices)]
      if let sortText, let worker {
        for id in items { keys.append(worker.sortKey(sortText.text(of: id, in: model))) }
      }
    case .attribute(let attribute):
      var sectionOfTitle: [String: Int] = [:]
      for (position, id) in items.enumerated() {
        let value = model.attribute(attribute, of: id)
        if let section = sectionOfTitle[value] {
          groups[section].append(position)
        } else {
          sectionOfTitle[value] = groups.count
          titles.append(value)
          groups.append([position])
        }
        if let sortText, let worker {
          keys.append(worker.sortKey(sortText.text(of: id, in: model)))
        }
      }
    case .firstLetter(let field):
      var sectionOfTitle: [String: Int] = [:]
      for (position, id) in items.enumerated() {
        let text = model.values(of: id, field: field).first ?? ""
        let title = worker?.sectionTitle(for: text) ?? SectionedTable.Collation.otherTitle
        if let section = sectionOfTitle[title] {
          groups[section].append(position)
        } else {
          sectionOfTitle[title] = groups.count
          titles.append(title)
          groups.append([position])
        }
        if let sortText, let worker {
          keys.append(worker.sortKey(sortText.text(of: id, in: model)))
        }
      }
    }

    var order = Array(groups.indices)
    if let worker, titles.count > 1 {
      let named = titles.compactMap { $0 }
      let otherLast: Bool
      if case .firstLetter = grouping { otherLast = true } else { otherLast = false }
      let sorted = worker.order(named, otherLast: otherLast)
      var rank: [String: Int] = [:]
      for (index, title) in sorted.enumerated() { rank[title] = index }
      let ranks = titles.map { title in title.flatMap { rank[$0] } ?? 0 }
      order.sort { ranks[$0] < ranks[$1] }
    }

    var sections: [Section] = []
    var sectionStarts: [Int] = []
    sections.reserveCapacity(order.count)
    var start = 0
    if case .none = grouping, rowOrder == .given {
      order = []  // one section of the items as given: no positions to map
      sections = [Section(title: nil, items: items)]
      sectionStarts = [0]
    }
    // Each section is sorted on its own: those of a large table on every core.
    let sortedGroups: [[Int]]
    if sortText != nil {
      let (groups, keys, order) = (groups, keys, order)
      let sortGroup: @Sendable (Int) -> [Int] = { group in
        var positions = groups[group]
        // Equal keys in the order of identities, the order the items joined the model: not
        // the given order, so that a list given in another order moves no sorted row.
        positions.sort { a, b in
          switch compareKeys(keys[a], keys[b]) {
          case .lessThan: return true
          case .greaterThan: return false
          case .equal: return items[a] < items[b]
          }
        }
        return positions
      }
      sortedGroups =
        items.count >= Self.rowsSortedOnEveryCore
        ? Parallel.map(chunks: order.count) { sortGroup(order[$0]) } : order.map(sortGroup)
    } else {
      sortedGroups = order.map { groups[$0] }
    }
    for (group, positions) in zip(order, sortedGroups) {
      sections.append(Section(title: titles[group], items: positions.map { items[$0] }))
      sectionStarts.append(start)
      start += positions.count
    }
    if sections.isEmpty {
      sections = [Section(title: nil, items: [])]
      sectionStarts = [0]
    }

    self.sections = sections
    self.sectionStarts = sectionStarts
    self.locator = LazyLocator(sections: sections, identityLimit: model.identityLimit)
    self.sectioning = sectioning
    self.rowOrder = rowOrder
    self.collation = collation
    self.canEditRows = canEditRows
    self.footer = footer
  }

  /// The fewest rows whose sections are sorted on every core: fewer are sorted in the calling
  /// thread, as a search's results usually are.
  static var rowsSortedOnEveryCore: Int { 32_768 }

  /// A table of sections already grouped and ordered, with the settings of `layout` (an
  /// edited copy of it).
  init(sections: [Section], like layout: SectionedTable, identityLimit: Int) {
    var sectionStarts: [Int] = []
    sectionStarts.reserveCapacity(sections.count)
    var start = 0
    for section in sections {
      sectionStarts.append(start)
      start += section.items.count
    }
    self.sections = sections
    self.sectionStarts = sectionStarts
    self.locator = LazyLocator(sections: sections, identityLimit: identityLimit)
    self.sectioning = layout.sectioning
    self.rowOrder = layout.rowOrder
    self.collation = layout.collation
    self.canEditRows = layout.canEditRows
    self.footer = layout.footer
  }

  // MARK: TableDataSource

  /// The number of sections: at least 1.
  public var numberOfSections: Int { sections.count }

  /// The number of rows in a section; 0 outside the table.
  public func numberOfRows(inSection section: Int) -> Int {
    sections.indices.contains(section) ? sections[section].items.count : 0
  }

  /// The item at an index path, or nil outside the table.
  public func item(at indexPath: TableIndexPath) -> ItemID? {
    guard sections.indices.contains(indexPath.section) else { return nil }
    let items = sections[indexPath.section].items
    return items.indices.contains(indexPath.row) ? items[indexPath.row] : nil
  }

  /// Where the table shows an item, or nil when it does not show it.
  ///
  /// - Complexity: O(log *s*) for *s* sections.
  public func indexPath(of item: ItemID) -> TableIndexPath? {
    indexPath(of: item, in: locator.built())
  }

  /// The rows of the table's items, built once: what many lookups in a row read, without
  /// taking a lock for each (``indexPath(of:in:)``).
  var rowLocator: Locator { locator.built() }

  /// ``indexPath(of:)`` with the table's ``rowLocator``, taken once.
  func indexPath(of item: ItemID, in locator: Locator) -> TableIndexPath? {
    guard let position = locator.position(of: item) else { return nil }
    // The last section starting at or before the position; empty sections start where the
    // next one does, so the search must find the last one, which holds the row.
    var low = 0
    var high = sectionStarts.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if sectionStarts[middle] <= position { low = middle } else { high = middle }
    }
    return TableIndexPath(section: low, row: position - sectionStarts[low])
  }

  /// The section's title (attribute value or first letter); nil for a plain table.
  public func titleForHeader(inSection section: Int) -> String? {
    sections.indices.contains(section) ? sections[section].title : nil
  }

  /// The footer's text for a section, or nil when the table has no footers.
  public func titleForFooter(inSection section: Int) -> String? {
    guard let footer, sections.indices.contains(section) else { return nil }
    return footer(sections[section])
  }

  /// The titles of the index down the side; nil for ``SectionedTable/Sectioning/none``, which has no index.
  ///
  /// For ``SectionedTable/Sectioning/firstLetter(field:)``, the collation's fixed
  /// ``SectionedTable/Collation/indexTitles`` ("A" … "Z", "#"), letters without rows included, as
  /// UIKit's index shows every letter; for ``SectionedTable/Sectioning/attribute(_:)``, the sections' titles.
  public var sectionIndexTitles: [String]? {
    switch sectioning {
    case .none: return nil
    case .attribute: return sections.compactMap(\.title)
    case .firstLetter: return collation.indexTitles
    }
  }

  /// The section an index title jumps to: the section with that title; for first-letter
  /// sections, else the first one after it in the index's order (a letter without rows jumps
  /// to the next letter that has some), else the last section; for attribute sections, else
  /// the section nearest to `index`.
  ///
  /// - Complexity: O(*s*) for *s* sections.
  public func section(forSectionIndexTitle title: String, at index: Int) -> Int {
    if sections.indices.contains(index) && sections[index].title == title { return index }
    if let section = sections.firstIndex(where: { $0.title == title }) { return section }
    if case .firstLetter = sectioning {
      // Sections are in the index's order, so the first one at or after the title follows it.
      let wanted = collation.indexPosition(ofTitle: title)
      let next = sections.firstIndex { section in
        section.title.map { collation.indexPosition(ofTitle: $0) >= wanted } ?? false
      }
      return next ?? sections.count - 1
    }
    return min(max(index, 0), sections.count - 1)
  }

  /// Whether the row at an index path may be edited: when the table allows it and the path
  /// is a row.
  public func canEditRow(at indexPath: TableIndexPath) -> Bool {
    canEditRows && item(at: indexPath) != nil
  }

  // MARK: Building

  /// The sectioning with names resolved against the schema.
  enum Grouping {
    case none
    case attribute(Int)
    case firstLetter(Int)

    init(_ sectioning: SectionedTable.Sectioning, schema: SearchModel.Schema) throws(SectionedTable
      .Error)
    {
      switch sectioning {
      case .none: self = .none
      case .attribute(let name):
        guard let index = schema.attributeIndex(named: name) else {
          throw .unknownAttribute(name, available: schema.attributes)
        }
        self = .attribute(index)
      case .firstLetter(let name):
        guard let index = schema.fieldIndex(named: name) else {
          throw .unknownField(name, available: schema.fields.map(\.name))
        }
        self = .firstLetter(index)
      }
    }
  }

  /// The text whose collation orders a row, or nil (``init(_:grouping:schema:)``) when rows
  /// keep the given order.
  enum SortText: Equatable {
    /// The item's display text.
    case display
    /// The first value of a field.
    case field(Int)

    init?(_ order: SectionedTable.RowOrder, grouping: Grouping, schema: SearchModel.Schema)
      throws(SectionedTable.Error)
    {
      switch order {
      case .given: return nil
      case .collation:
        if case .firstLetter(let field) = grouping { self = .field(field) } else { self = .display }
      case .fieldCollation(let name):
        guard let index = schema.fieldIndex(named: name) else {
          throw .unknownField(name, available: schema.fields.map(\.name))
        }
        self = .field(index)
      }
    }

    /// The text of an item in `model`.
    func text(of id: ItemID, in model: SearchModel) -> String {
      switch self {
      case .display: model.display(id)
      case .field(let field): model.values(of: id, field: field).first ?? ""
      }
    }
  }

  /// The locator, built on the first ``indexPath(of:)``: a results table that is only
  /// shown row by row (most of them, typing) never pays for it.
  private final class LazyLocator: Sendable {
    private let sections: [Section]
    private let identityLimit: Int
    private let locator = LockedValue<Locator?>(nil)

    init(sections: [Section], identityLimit: Int) {
      self.sections = sections
      self.identityLimit = identityLimit
    }

    /// The locator, built on the first call.
    func built() -> Locator {
      self.locator.withLock { locator in
        if let locator { return locator }
        let made = Locator(sections: sections, identityLimit: identityLimit)
        locator = made
        return made
      }
    }
  }

  /// Each item's row counted from the top of the table.
  ///
  /// A table of more than 1/32 of the model's items uses an array by identity (4 bytes an identity,
  /// filled by one pass: what a table edited after a model change needs fast, at 0.1 ms for 235,000
  /// identities); fewer results use a dictionary (some 40 bytes and a hash a row), so that a
  /// one-row result does not cost an array the size of the model.
  enum Locator: Sendable {
    case dense([Int32])
    case sparse([ItemID: Int])

    init(sections: [Section], identityLimit: Int) {
      let count = sections.reduce(0) { $0 + $1.items.count }
      var position = 0
      if count * 32 >= identityLimit {
        var rows = [Int32](repeating: -1, count: identityLimit)
        for section in sections {
          for id in section.items {
            rows[Int(id.rawValue)] = Int32(position)
            position += 1
          }
        }
        self = .dense(rows)
      } else {
        var rows: [ItemID: Int] = [:]
        rows.reserveCapacity(count)
        for section in sections {
          for id in section.items {
            rows[id] = position
            position += 1
          }
        }
        self = .sparse(rows)
      }
    }

    func position(of id: ItemID) -> Int? {
      switch self {
      case .dense(let rows):
        let index = Int(id.rawValue)
        guard rows.indices.contains(index), rows[index] >= 0 else { return nil }
        return Int(rows[index])
      case .sparse(let rows):
        return rows[id]
      }
    }
  }
}

extension SectionedTable {
  /// A table that cannot be built.
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// The sectioning names an attribute the schema does not have.
      public static let unknownAttribute = Code(name: "unknownAttribute")
      /// The sectioning names a field the schema does not have.
      public static let unknownField = Code(name: "unknownField")
      /// An item is not in the model.
      public static let unknownItem = Code(name: "unknownItem")
      /// An item is given more than once.
      public static let duplicateItem = Code(name: "duplicateItem")
      /// ICU could not provide a collator (see ``SectionedTable/Error/icuError``).
      public static let icu = Code(name: "icu")

      /// The code's name, such as "unknownField".
      public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The unknown attribute or field the sectioning names.
    public let name: String?
    /// The item at fault, for ``Code/unknownItem`` and ``Code/duplicateItem``.
    public let item: ItemID?
    /// The ICU failure, for ``Code/icu``.
    public let icuError: ICUError?
    /// The error as one line of text.
    public let description: String

    private init(
      _ code: Code, _ description: String, name: String? = nil, item: ItemID? = nil,
      icuError: ICUError? = nil
    ) {
      self.code = code
      self.description = description
      self.name = name
      self.item = item
      self.icuError = icuError
    }

    /// The sectioning names an attribute the schema does not have.
    public static func unknownAttribute(_ name: String, available: [String]) -> Self {
      Self(
        .unknownAttribute,
        "no attribute \"\(name)\" to section by; \(list(available, "attributes"))", name: name)
    }
    /// The sectioning names a field the schema does not have.
    public static func unknownField(_ name: String, available: [String]) -> Self {
      Self(
        .unknownField, "no field \"\(name)\" to section by; \(list(available, "fields"))",
        name: name)
    }
    /// An item is not in the model.
    public static func unknownItem(_ id: ItemID) -> Self {
      Self(.unknownItem, "item \(id) is not in the model", item: id)
    }
    /// An item is given more than once.
    public static func duplicateItem(_ id: ItemID) -> Self {
      Self(.duplicateItem, "item \(id) is given more than once", item: id)
    }
    /// ICU could not provide a collator.
    public static func icu(_ error: ICUError) -> Self {
      Self(.icu, error.description, icuError: error)
    }

    private static func list(_ names: [String], _ what: String) -> String {
      if names.isEmpty { return "the schema has no \(what)" }
      return "the \(what) are " + names.map { "\"\($0)\"" }.joined(separator: ", ")
    }
  }
}

extension SectionedTable {
  /// This table with only the rows of `items`, in this table's sections and order: what a
  /// build of `items` with this table's layout gives when this table holds every item of
  /// the model in the model's order, without sorting again.
  ///
  /// Sections left without rows go.
  ///
  /// - Complexity: O(*n*) for the *n* rows of this table.
  func keeping(_ items: [ItemID], identityLimit: Int) -> SectionedTable {
    var kept = Bitset(capacity: identityLimit)
    for id in items { kept.insert(Int(id.rawValue)) }
    var sections: [Section] = []
    for section in self.sections {
      let rows = section.items.filter { kept.contains(Int($0.rawValue)) }
      if !rows.isEmpty { sections.append(Section(title: section.title, items: rows)) }
    }
    if sections.isEmpty { sections = [Section(title: nil, items: [])] }
    return SectionedTable(sections: sections, like: self, identityLimit: identityLimit)
  }

  /// This table with, in each section, the rows of the items found with typos after the
  /// others, fewest typos first, each group in this table's order: the results table of a
  /// query with typo tolerance.
  ///
  /// `typos` holds the items that needed typos (absent: none).
  ///
  /// - Complexity: O(*n*) for the *n* rows of this table.
  func exactFirst(typos: TypoMatches, identityLimit: Int) -> SectionedTable {
    guard !typos.isEmpty else { return self }
    let grouping = TypoCounts(typos)
    let sections = self.sections.map { section in
      Section(title: section.title, items: grouping.exactFirst(section.items))
    }
    return SectionedTable(sections: sections, like: self, identityLimit: identityLimit)
  }
}
