/// A model with its search index and the members of each scope: everything a search reads.
///
/// A value: a background search works on its own copy while the model changes elsewhere;
/// copies share storage until one of them changes.
public struct SearchCorpus: Sendable {
  /// The items.
  public private(set) var model: SearchModel
  /// The folded text of the searched fields.
  package private(set) var index: SearchIndex
  /// For each scope of the model's scope bar, the items it admits (nil: all of them) and the
  /// fields it searches (indexed fields only).
  private(set) var scopeMembers: [Bitset?]
  private(set) var scopeFields: [[Int]]
  /// For each scope and field, the runs of consecutive values that belong to the scope's
  /// items: what a scan of the scope reads (the whole column for a scope of every item).
  private(set) var scopeRuns: [[[Range<Int>]]]
  /// For each of the schema's number attributes, its index and the codes of its distinct
  /// values by their canonical number (values that are not numbers match no word).
  private(set) var numberCodes: [(attribute: Int, codes: [String: [UInt32]])] = []
  /// The attributes' values read as numbers, for the number conditions of filters.
  let attributeNumbers = AttributeNumbers()
  /// The completion index, built on first use (see `Completion.swift`).
  var completionCache = CompletionCache()
  /// The index of the searched fields' words for typo tolerance, built on first use (see
  /// `WordIndexCache.swift`).
  var wordIndexCache = WordIndexCache()

  /// Indexes `model` with `normalizer`.
  public init(model: SearchModel, normalizer: Normalizer) throws(SearchCorpus.Error) {
    try self.init(model: model, normalizer: normalizer, progress: nil, checksScopes: true)
  }

  /// Indexes `model` with `normalizer`; `progress`, when given, counts the values folded (what
  /// the command line's progress bar shows).
  package init(model: SearchModel, normalizer: Normalizer, progress: LoadProgress?)
    throws(SearchCorpus.Error)
  {
    try self.init(model: model, normalizer: normalizer, progress: progress, checksScopes: true)
  }

  /// Indexes `model`; `checksScopes` false accepts scopes that admit no item (a handful of
  /// items picked from a larger model, as a server backend settles them).
  package init(
    model: SearchModel, normalizer: Normalizer, progress: LoadProgress? = nil, checksScopes: Bool
  ) throws(SearchCorpus.Error) {
    self.model = model
    do { index = try SearchIndex(model: model, normalizer: normalizer, progress: progress) } catch {
      throw .icu(error)
    }
    scopeMembers = []
    scopeFields = []
    scopeRuns = []
    try resolveScopes()
    if checksScopes { try checkScopeValues() }
  }

  /// A corpus of a model and its index read from a saved file: only the scopes are resolved
  /// again (see `SearchCorpus+Saving.swift`).
  init(model: SearchModel, index: SearchIndex) throws(SearchCorpus.Error) {
    self.model = model
    self.index = index
    scopeMembers = []
    scopeFields = []
    scopeRuns = []
    try resolveScopes()
  }

  /// A scope whose attribute values no item has matches nothing: almost always a misspelt
  /// value ("Work" where the data says "work").
  ///
  /// Found when the corpus is built, rather than as an empty list when the scope is picked. A
  /// model without items has nothing to check.
  private func checkScopeValues() throws(SearchCorpus.Error) {
    guard !model.isEmpty else { return }
    for scope in model.schema.scopeBar.scopes where !scope.mayBeEmpty {
      guard let name = scope.attribute, let attribute = model.schema.attributeIndex(named: name)
      else { continue }
      let present = Set(model.attributeValues[attribute])
      guard scope.values.isDisjoint(with: present) else { continue }
      throw .scopeMatchesNothing(
        scope.title, attribute: name, values: scope.values.sorted(), available: present.sorted())
    }
  }

  /// The scope bar of the model's schema.
  public var scopeBar: ScopeBar { model.schema.scopeBar }

  /// The normaliser that folds the model's text; queries must be folded with it too.
  public var normalizer: Normalizer { index.normalizer }

  // MARK: Changes

  /// Adds an item at a position of the model's order and indexes it.
  @discardableResult
  public mutating func insert(_ record: SearchModel.Record, at position: Int) throws(SearchCorpus
    .Error)
    -> ItemID
  {
    let id = ItemID(rawValue: Int32(model.identityLimit))
    try apply([.insert(record, at: position)])
    return id
  }

  /// Adds an item at the end of the model and indexes it.
  @discardableResult
  public mutating func append(_ record: SearchModel.Record) throws(SearchCorpus.Error) -> ItemID {
    try insert(record, at: model.count)
  }

  /// Replaces an item's content and re-indexes it.
  public mutating func update(_ id: ItemID, with record: SearchModel.Record) throws(SearchCorpus
    .Error)
  {
    try apply([.update(id, with: record)])
  }

  /// Removes an item.
  public mutating func remove(_ id: ItemID) throws(SearchCorpus.Error) {
    try apply([.remove(id)])
  }

  /// Applies a batch of changes to the model in order (see ``SearchModel/apply(_:)``), then brings
  /// the index and the scopes up to date once for the whole batch.
  ///
  /// A batch of at most ``incrementalShare`` of the model's items updates the scopes in
  /// place: the members of the items it touched, the runs around the values it killed or
  /// appended, the number codes of the attribute values it added. A larger batch resolves the
  /// scopes again from every item and value, which costs about as much. Either way the corpus
  /// is the one built from scratch from the same model.
  ///
  /// - Returns: The items of the model before the batch that went or changed, and the new
  ///   ones: the edit of a table of all the model's items.
  /// - Throws: ``SearchCorpus/Error/model(_:)`` when a change cannot be made, and then the corpus is
  ///   unchanged; ``SearchCorpus/Error/icu(_:)`` when folding the new text fails.
  /// - Complexity: O(*k*²) for *k* changes, plus, for each scope and field, O(log *r*) for its
  ///   *r* runs and a copy of those from the first value the batch killed on (none when it
  ///   only inserts); only the new text is folded. A batch above ``incrementalShare``: a pass
  ///   over the model's values.
  @discardableResult
  package mutating func apply(_ changes: [SearchModel.Change]) throws(SearchCorpus.Error)
    -> TableEdit
  {
    let before = ScopeBaseline(of: model, changes: changes)
    let completionBaseline = completionBaseline(for: changes)
    let edit: TableEdit
    do { edit = try model.apply(changes) } catch { throw .model(error) }
    do { try index.apply(changesOf: model) } catch { throw .icu(error) }
    updateCompletions(since: completionBaseline)
    // The copies sharing the old cache keep it as it is; a built index takes the new words.
    wordIndexCache = WordIndexCache(
      wordIndexCache.current.map { $0.updated(for: index, model: model) })
    if Double(changes.count) > Self.incrementalShare * Double(max(model.count, 1)) {
      try resolveScopes()
    } else {
      updateScopes(since: before)
    }
    return edit
  }

  /// The largest batch, as a share of the model's items, whose scopes are updated in place
  /// rather than resolved again: above it, sorting the killed values and testing the touched
  /// items costs about what one walk over every value does.
  static let incrementalShare = 0.125

  /// Whether item `a` comes before item `b` in the model's order; both must be in the model.
  ///
  /// - Complexity: O(1).
  package func precedes(_ a: ItemID, _ b: ItemID) -> Bool { model.precedes(a, b) }

  /// Each item's position in the model's order, by identity; empty while the order is the
  /// identity order.
  var positions: [Int32] { model.positions }

  // MARK: Scopes and order

  private mutating func resolveScopes() throws(SearchCorpus.Error) {
    let schema = model.schema
    numberCodes = []
    for name in schema.numberAttributes {
      guard let attribute = schema.attributeIndex(named: name) else {
        throw .unknownName("attribute", name, scope: nil)
      }
      var codes: [String: [UInt32]] = [:]
      for (code, value) in model.attributeValues[attribute].enumerated() {
        guard let number = DecimalText.canonical(value) else { continue }
        codes[number, default: []].append(UInt32(code))
      }
      numberCodes.append((attribute, codes))
    }
    var members: [Bitset?] = []
    var fields: [[Int]] = []
    for scope in schema.scopeBar.scopes {
      var searched: [Int] = []
      if let names = scope.fields {
        for name in names {
          guard let field = schema.fieldIndex(named: name) else {
            throw .unknownName("field", name, scope: scope.title)
          }
          if index.isIndexed(field: field) { searched.append(field) }
        }
      } else {
        searched = schema.fields.indices.filter { index.isIndexed(field: $0) }
      }
      fields.append(searched)
      guard let name = scope.attribute else {
        members.append(nil)
        continue
      }
      guard let attribute = schema.attributeIndex(named: name) else {
        throw .unknownName("attribute", name, scope: scope.title)
      }
      // Whether each code is one of the scope's values: a table read per item, rather than a
      // search of the scope's codes (a third of a start from a saved index went there).
      let admits = model.attributeValues[attribute].map { scope.values.contains($0) }
      var set = Bitset(capacity: model.identityLimit)
      let ofItem = model.attributeOfItem[attribute]
      for id in model.ids where admits[Int(ofItem[Int(id.rawValue)])] {
        set.insert(Int(id.rawValue))
      }
      members.append(set)
    }
    scopeMembers = members
    scopeFields = fields
    scopeRuns = members.map { members in
      model.schema.fields.indices.map { field in
        Self.runs(
          of: model.valueMaps[field], values: model.columns[field].valueCount, members: members)
      }
    }
  }

  /// The maximal runs of values whose owner is alive and a member (any item when `members`
  /// is nil).
  private static func runs(of map: ValueMap, values: Int, members: Bitset?) -> [Range<Int>] {
    if map.explicit == nil && members == nil {
      return values > 0 ? [0..<values] : []  // every value, each owned by its item
    }
    var runs: [Range<Int>] = []
    var start: Int?
    for value in 0..<values {
      let inside = isInside(value, map: map, members: members)
      if inside, start == nil { start = value }
      if !inside, let first = start {
        runs.append(first..<value)
        start = nil
      }
    }
    if let first = start { runs.append(first..<values) }
    return runs
  }

  /// Whether a value belongs to a scope's runs: its owner is alive and a member.
  @inline(__always)
  private static func isInside(_ value: Int, map: ValueMap, members: Bitset?) -> Bool {
    let owner = map.owner(of: value)
    return owner >= 0 && (members?.contains(Int(owner)) ?? true)
  }

  // MARK: Keeping the scopes up to date

  /// What the scopes' upkeep needs to know of the model before a batch: the sizes of its
  /// tables, and the values the batch may kill (those of the items it updates or removes).
  private struct ScopeBaseline {
    var identityLimit: Int
    /// The number of values of each field.
    var valueCounts: [Int]
    /// The number of distinct values of each attribute.
    var attributeValueCounts: [Int]
    /// The identities the batch updates or removes.
    var touched: [Int]
    /// For each field, the values of the touched items that were in the model.
    var killed: [[Range<Int>]]

    init(of model: SearchModel, changes: [SearchModel.Change]) {
      identityLimit = model.identityLimit
      valueCounts = model.columns.map(\.valueCount)
      attributeValueCounts = model.attributeValues.map(\.count)
      touched = []
      killed = Array(repeating: [], count: model.columns.count)
      for change in changes {
        let id: ItemID
        switch change {
        case .insert, .reorder: continue
        case .update(let item, _), .remove(let item): id = item
        }
        touched.append(Int(id.rawValue))
        guard model.contains(id) else { continue }  // new in the batch, or an error
        for field in killed.indices {
          let values = model.valueMaps[field].range(of: Int(id.rawValue))
          if !values.isEmpty { killed[field].append(values) }
        }
      }
    }
  }

  /// Brings the scopes up to date after a batch, from what the model was before it.
  ///
  /// Only the batch's items may change scope (an update may change their attribute) and only
  /// their values may change state: an update or removal takes the old values from their
  /// owner, and every new value is appended at the end of its column. So each scope's set is
  /// tested again for those items alone, each run list only around the values killed and
  /// after the old end of the column, and the number codes only for the attribute values
  /// added (codes are never reused).
  private mutating func updateScopes(since before: ScopeBaseline) {
    let schema = model.schema
    for entry in numberCodes.indices {
      let attribute = numberCodes[entry].attribute
      let values = model.attributeValues[attribute]
      for code in before.attributeValueCounts[attribute]..<values.count {
        guard let number = DecimalText.canonical(values[code]) else { continue }
        numberCodes[entry].codes[number, default: []].append(UInt32(code))
      }
    }
    let items = before.touched + Array(before.identityLimit..<model.identityLimit)
    for (scope, definition) in schema.scopeBar.scopes.enumerated() {
      guard var members = scopeMembers[scope], let name = definition.attribute,
        let attribute = schema.attributeIndex(named: name)
      else { continue }
      scopeMembers[scope] = nil  // one owner, so that the set changes in place
      members.grow(to: model.identityLimit)
      let values = model.attributeValues[attribute]
      let ofItem = model.attributeOfItem[attribute]
      for item in items {
        if model.isAlive[item] && definition.values.contains(values[Int(ofItem[item])]) {
          members.insert(item)
        } else {
          members.remove(item)
        }
      }
      scopeMembers[scope] = members
    }
    for field in schema.fields.indices {
      let changed = Self.merged(
        before.killed[field] + [before.valueCounts[field]..<model.columns[field].valueCount])
      guard !changed.isEmpty else { continue }
      let map = model.valueMaps[field]
      for scope in scopeRuns.indices {
        let members = scopeMembers[scope]
        var runs = scopeRuns[scope][field]
        scopeRuns[scope][field] = []  // one owner, so that the runs change in place
        Self.update(&runs, changed: changed) { Self.isInside($0, map: map, members: members) }
        scopeRuns[scope][field] = runs
      }
    }
  }

  /// Updates `runs`, the maximal runs of the values inside a scope, after the values in
  /// `changed` (ascending, disjoint though they may touch, none empty) may have changed state: `isInside` tells
  /// their new state, every other value keeps its own.
  ///
  /// The runs before the first changed value stay where they are; the others are written
  /// again. Around a changed range, the runs that overlap or touch it are replaced by the
  /// runs of their span: their parts outside the range are inside (a run is contiguous),
  /// the range's values are tested. The runs before and after that span end and start at
  /// least one value away, so the result is maximal again.
  ///
  /// - Complexity: O(log *r* + *t* + *c*) for *r* runs, *t* of them from the first changed
  ///   value on, and *c* changed values.
  static func update(
    _ runs: inout [Range<Int>], changed: [Range<Int>], isInside: (Int) -> Bool
  ) {
    guard let first = changed.first else { return }
    let from = runs.firstIndex(from: 0) { $0.upperBound >= first.lowerBound }
    let old = Array(runs[from...])
    runs.removeSubrange(from...)
    var next = 0
    for range in changed {
      let touching = old.firstIndex(from: next) { $0.upperBound >= range.lowerBound }
      runs.append(contentsOf: old[next..<touching])
      var start = range.lowerBound
      var end = range.upperBound
      // The last run written for the range before may reach this one (an old run that
      // touched both): its span joins this one's.
      if let last = runs.last, last.upperBound >= range.lowerBound {
        start = last.lowerBound
        end = max(end, last.upperBound)
        runs.removeLast()
      }
      next = old.firstIndex(from: touching) { $0.lowerBound > range.upperBound }
      if touching < next {
        start = min(start, old[touching].lowerBound)
        end = max(end, old[next - 1].upperBound)
      }
      var open: Int? = start < range.lowerBound ? start : nil
      for value in range {
        if isInside(value) {
          if open == nil { open = value }
        } else if let runStart = open {
          runs.append(runStart..<value)
          open = nil
        }
      }
      if end > range.upperBound {
        runs.append((open ?? range.upperBound)..<end)
      } else if let runStart = open {
        runs.append(runStart..<range.upperBound)
      }
    }
    runs.append(contentsOf: old[next...])
  }

  /// The items of a scope whose number attributes hold one of `matches` (from
  /// `numberMatches(of:)`), ascending by identity.
  func items(withNumber matches: [NumberMatch], scope: Int) -> [ItemID] {
    guard !matches.isEmpty else { return [] }
    let members = scopeMembers[scope]
    var result: [ItemID] = []
    for id in model.ids where members?.contains(Int(id.rawValue)) ?? true {
      if Self.hasNumber(Int(id.rawValue), matches: matches, model: model) { result.append(id) }
    }
    if !positions.isEmpty { result.sort() }
    return result
  }

  /// The attribute values equal to `number` (canonical), for each number attribute.
  func numberMatches(of number: String?) -> [NumberMatch] {
    guard let number else { return [] }
    return numberCodes.compactMap { entry in entry.codes[number].map { (entry.attribute, $0) } }
  }

  /// Whether an item's number attributes hold one of `matches`.
  static func hasNumber(_ item: Int, matches: [NumberMatch], model: SearchModel) -> Bool {
    matches.contains { match in match.codes.contains(model.attributeOfItem[match.attribute][item]) }
  }

  /// The items of a scope, in model order.
  ///
  /// While the model is in identity order (as loaded), its order is ascending identity, so the
  /// members are the set's identities that name items, found in one walk over the set's words
  /// into a list of the right size, instead of a test of every item into a growing list.
  func members(ofScope scope: Int) -> [ItemID] {
    guard let members = scopeMembers[scope] else { return model.ids }
    guard model.isInIdentityOrder else {
      return model.ids.filter { members.contains(Int($0.rawValue)) }
    }
    var result: [ItemID] = []
    result.reserveCapacity(members.count)
    model.isAlive.withUnsafeBufferPointer { isAlive in
      members.forEach { member in
        if member < isAlive.count && isAlive[member] {
          result.append(ItemID(rawValue: Int32(truncatingIfNeeded: member)))
        }
      }
    }
    return result
  }

  /// The members of a scope among `items`, in their order.
  func items(of items: [ItemID], inScope scope: Int) -> [ItemID] {
    guard let members = scopeMembers[scope] else { return items }
    return items.filter { members.contains(Int($0.rawValue)) }
  }

  /// Sorts identities into model order.
  ///
  /// - Complexity: O(*k* log *k*) for *k* items, in one sort of integers; a walk over the
  ///   model's order instead when the items are more than a sixteenth of the model.
  package func sortedByPosition(_ items: inout [ItemID]) {
    if positions.isEmpty {
      items.sort()
    } else if items.count * 16 > model.count {
      var wanted = Bitset(capacity: model.identityLimit)
      for id in items { wanted.insert(Int(id.rawValue)) }
      var sorted: [ItemID] = []
      sorted.reserveCapacity(items.count)
      for id in model.ids where wanted.contains(Int(id.rawValue)) { sorted.append(id) }
      items = sorted
    } else {
      // Position and identity in one integer: a sort without a closure that reads an array.
      var keys = items.map {
        UInt64(UInt32(bitPattern: positions[Int($0.rawValue)])) << 32
          | UInt64(UInt32(bitPattern: $0.rawValue))
      }
      keys.sort()
      items = keys.map { ItemID(rawValue: Int32(truncatingIfNeeded: $0)) }
    }
  }
}

extension [Range<Int>] {
  /// The first index from `start` on whose range satisfies `predicate`, which must be false
  /// for a prefix and true after it (`endIndex` when none does): a binary search.
  fileprivate func firstIndex(from start: Int, where predicate: (Range<Int>) -> Bool) -> Int {
    var low = start
    var high = endIndex
    while low < high {
      let middle = (low + high) / 2
      if predicate(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}

extension SearchCorpus {
  /// A corpus that cannot be built or changed.
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// ICU failed while folding (see ``SearchCorpus/Error/icuError``).
      public static let icu = Code(name: "icu")
      /// The model refused a change (see ``SearchCorpus/Error/modelError``).
      public static let model = Code(name: "model")
      /// A scope (or, with no scope, the schema's number attributes) names a field or
      /// attribute the schema does not have.
      public static let unknownName = Code(name: "unknownName")
      /// A scope's attribute values are those of no item.
      public static let scopeMatchesNothing = Code(name: "scopeMatchesNothing")
      /// The search backend did not make the change (see ``SearchCorpus/Error/backendError``).
      public static let backend = Code(name: "backend")

      /// The code's name, such as "unknownName".
      public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The ICU failure, for ``Code/icu``.
    public let icuError: ICUError?
    /// The model's refusal, for ``Code/model``.
    public let modelError: SearchModel.Error?
    /// The backend's refusal, for ``Code/backend``.
    public let backendError: SearchBackendError?
    /// The scope at fault (nil for the number attributes).
    public let scope: String?
    /// The unknown field or attribute, for ``Code/unknownName``.
    public let name: String?
    /// The error as one line of text.
    public let description: String

    private init(
      _ code: Code, _ description: String, icuError: ICUError? = nil,
      modelError: SearchModel.Error? = nil, backendError: SearchBackendError? = nil,
      scope: String? = nil, name: String? = nil
    ) {
      self.code = code
      self.description = description
      self.icuError = icuError
      self.modelError = modelError
      self.backendError = backendError
      self.scope = scope
      self.name = name
    }

    /// ICU failed while folding.
    public static func icu(_ error: ICUError) -> Self {
      Self(.icu, error.description, icuError: error)
    }
    /// The model refused a change.
    public static func model(_ error: SearchModel.Error) -> Self {
      Self(.model, error.description, modelError: error)
    }
    /// A scope (or, with no scope, the schema's number attributes) names a field or attribute
    /// the schema does not have; `kind` is "field" or "attribute".
    public static func unknownName(_ kind: String, _ name: String, scope: String?) -> Self {
      let description =
        if let scope {
          "scope \"\(scope)\" names \(kind) \"\(name)\", which the schema does not have"
        } else {
          "the number attributes name \(kind) \"\(name)\", which the schema does not have"
        }
      return Self(.unknownName, description, scope: scope, name: name)
    }
    /// A scope's attribute values are those of no item (`available` are the values there are).
    public static func scopeMatchesNothing(
      _ scope: String, attribute: String, values: [String], available: [String]
    ) -> Self {
      let wanted = values.map { "\"\($0)\"" }.joined(separator: ", ")
      let near = available.filter { value in
        values.contains { $0.lowercased() == value.lowercased() }
      }
      let hint =
        near.isEmpty
        ? "the values are " + available.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ")
          + (available.count > 12 ? ", …" : "")
        : "did you mean " + near.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
      return Self(
        .scopeMatchesNothing,
        "scope \"\(scope)\" matches no item: no item has \(attribute) \(wanted); \(hint)",
        scope: scope, name: attribute)
    }
    /// The search backend did not make the change (see ``SearchBackend/apply(_:)``).
    public static func backend(_ error: SearchBackendError) -> Self {
      Self(.backend, error.description, backendError: error)
    }
  }
}
