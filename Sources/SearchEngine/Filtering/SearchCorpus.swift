/// A model with its search index and the members of each scope: everything a search reads.
///
/// A value: a background search works on its own copy while the model changes elsewhere;
/// copies share storage until one of them changes.
public struct SearchCorpus: Sendable {
  /// The items.
  public private(set) var model: SearchModel
  /// The folded text of the searched fields.
  package private(set) var index: SearchIndex
  /// For each scope of the model's scope bar, the items it admits, the fields it searches and
  /// the runs of values a scan of it reads.
  private(set) var scopes: ScopeMembership
  /// For each of the schema's number attributes, its index and the codes of its distinct
  /// values by their canonical number (values that are not numbers match no word).
  private(set) var numberCodes: [(attribute: Int, codes: [String: [UInt32]])] = []
  /// The attributes' values read as numbers, for the number conditions of filters.
  let attributeNumbers = AttributeNumbers()
  /// The completion index, built on first use (see `SearchCorpus+Completion.swift`).
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
    numberCodes = try Self.numberCodes(of: model)
    scopes = try Self.scopes(of: model, index: index)
    if checksScopes { try checkScopeValues() }
  }

  /// A corpus of a model and its index read from a saved file: only the scopes are resolved
  /// again (see `SearchCorpus+Saving.swift`).
  init(model: SearchModel, index: SearchIndex) throws(SearchCorpus.Error) {
    self.model = model
    self.index = index
    numberCodes = try Self.numberCodes(of: model)
    scopes = try Self.scopes(of: model, index: index)
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
  /// A batch of at most `ScopeMembership.incrementalShare` of the model's items updates the
  /// scopes in place: the members of the items it touched, the state of the values it killed
  /// or appended, the number codes of the attribute values it added. A larger batch
  /// resolves the scopes again from every item and value, which costs about as much. Either
  /// way the corpus is the one built from scratch from the same model.
  ///
  /// - Returns: The items of the model before the batch that went or changed, and the new
  ///   ones: the edit of a table of all the model's items.
  /// - Throws: ``SearchCorpus/Error/model(_:)`` when a change cannot be made, and then the corpus is
  ///   unchanged; ``SearchCorpus/Error/icu(_:)`` when folding the new text fails.
  /// - Complexity: O(*k*²) for *k* changes, plus, for each scope and field, O(*v*) for the *v*
  ///   values the batch killed or appended; only the new text is folded. A batch above
  ///   `ScopeMembership.incrementalShare`: a pass over the model's values.
  @discardableResult
  package mutating func apply(_ changes: [SearchModel.Change]) throws(SearchCorpus.Error)
    -> TableEdit
  {
    let before = ScopeMembership.Baseline(of: model, changes: changes)
    let attributeValueCounts = model.attributeValues.map(\.count)
    let completionBaseline = completionBaseline(for: changes)
    let edit: TableEdit
    do { edit = try model.apply(changes) } catch { throw .model(error) }
    do { try index.apply(changesOf: model) } catch { throw .icu(error) }
    updateCompletions(since: completionBaseline)
    // The copies sharing the old cache keep it as it is; a built index takes the new words.
    wordIndexCache = WordIndexCache(
      wordIndexCache.current.map { $0.updated(for: index, model: model) })
    if ScopeMembership.rebuilds(changes: changes.count, count: model.count) {
      numberCodes = try Self.numberCodes(of: model)
    } else {
      updateNumberCodes(since: attributeValueCounts)
    }
    do { try scopes.update(since: before, model: model, index: index) } catch {
      throw .unknownName(error.kind, error.name, scope: error.scope)
    }
    return edit
  }

  /// Whether item `a` comes before item `b` in the model's order; both must be in the model.
  ///
  /// - Complexity: O(1).
  package func precedes(_ a: ItemID, _ b: ItemID) -> Bool { model.precedes(a, b) }

  /// Each item's position in the model's order, by identity; empty while the order is the
  /// identity order.
  var positions: [Int32] { model.positions }

  // MARK: Scopes and numbers

  /// For each of the schema's number attributes of `model`, its index and the codes of its
  /// distinct values by their canonical number. (It checks that the ranking's attributes exist
  /// too: both are read when a corpus is made.)
  private static func numberCodes(of model: SearchModel) throws(SearchCorpus.Error)
    -> [(attribute: Int, codes: [String: [UInt32]])]
  {
    for name in model.schema.ranking.attributes
    where model.schema.attributeIndex(named: name) == nil {
      throw .unknownName("attribute", name, scope: nil)
    }
    var numberCodes: [(attribute: Int, codes: [String: [UInt32]])] = []
    for name in model.schema.numberAttributes {
      guard let attribute = model.schema.attributeIndex(named: name) else {
        throw .unknownName("attribute", name, scope: nil)
      }
      var codes: [String: [UInt32]] = [:]
      for (code, value) in model.attributeValues[attribute].enumerated() {
        guard let number = DecimalText.canonical(value) else { continue }
        codes[number, default: []].append(UInt32(code))
      }
      numberCodes.append((attribute, codes))
    }
    return numberCodes
  }

  /// The scopes of `model`, resolved from every item and value.
  private static func scopes(of model: SearchModel, index: SearchIndex) throws(SearchCorpus.Error)
    -> ScopeMembership
  {
    do { return try ScopeMembership(model: model, index: index) } catch {
      throw .unknownName(error.kind, error.name, scope: error.scope)
    }
  }

  /// Adds the number codes of the attribute values added since the attributes had
  /// `attributeValueCounts` values (codes are never reused).
  private mutating func updateNumberCodes(since attributeValueCounts: [Int]) {
    for entry in numberCodes.indices {
      let attribute = numberCodes[entry].attribute
      let values = model.attributeValues[attribute]
      for code in attributeValueCounts[attribute]..<values.count {
        guard let number = DecimalText.canonical(values[code]) else { continue }
        numberCodes[entry].codes[number, default: []].append(UInt32(code))
      }
    }
  }

  /// For each scope, the items it admits (nil: all of them).
  var scopeMembers: [Bitset?] { scopes.members }
  /// For each scope, the fields it searches (indexed fields only).
  var scopeFields: [[Int]] { scopes.fields }
  /// For each scope and field, the values a scan of the scope reads.
  var scopeValues: [[ScopeMembership.Values]] { scopes.values }

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
