extension SavedFileWriter {
  /// Writes an optional string as a flag and the string.
  func write(optional string: String?) throws(SavedIndexError) {
    try write(string == nil ? UInt8(0) : UInt8(1))
    if let string { try write(string) }
  }
}

extension SavedFileReader {
  /// Reads an optional string written by `write(optional:)`.
  func readOptionalString(_ what: String) throws(SavedIndexError) -> String? {
    let flag = try read(UInt8.self, "the presence of \(what)")
    guard flag <= 1 else { throw corrupt("the presence of \(what) is \(flag)") }
    return flag == 1 ? try readString(what) : nil
  }
}

extension SearchModel.Schema {
  /// Writes the schema to a saved index file.
  func write(to writer: SavedFileWriter) throws(SavedIndexError) {
    try writer.write(fields.map(\.name))
    try writer.write(fields.map { $0.isSearched ? UInt8(1) : 0 })
    try writer.write(attributes)
    try writer.write(optional: displayTemplate)
    try writer.write(numberAttributes)
    try writer.write(Int64(scopeBar.scopes.count))
    for scope in scopeBar.scopes {
      try writer.write(scope.title)
      try writer.write(optional: scope.attribute)
      try writer.write(scope.values.sorted())
      try writer.write(UInt8(scope.fields == nil ? 0 : 1))
      if let fields = scope.fields { try writer.write(fields) }
      try writer.write(scope.mayBeEmpty ? UInt8(1) : 0)
    }
    try writer.write(Int64(ranking.rules.count))
    for rule in ranking.rules {
      try writer.write(rule.savedCode)
      if case .attribute(let name, let order) = rule {
        try writer.write(name)
        try writer.write(order == .ascending ? UInt8(0) : 1)
      }
    }
  }

  /// Reads a schema written by ``write(to:)``.
  init(reading reader: SavedFileReader) throws(SavedIndexError) {
    let names = try reader.readStrings("field names")
    let searched: [UInt8] = try reader.readArray("the searched fields")
    guard searched.count == names.count else {
      throw reader.corrupt("\(searched.count) searched flags for \(names.count) fields")
    }
    guard searched.allSatisfy({ $0 <= 1 }) else {
      throw reader.corrupt("a searched flag is not 0 or 1")
    }
    let fields = zip(names, searched).map { Field(name: $0, isSearched: $1 == 1) }
    let attributes = try reader.readStrings("attribute names")
    let template = try reader.readOptionalString("the display template")
    let numbers = try reader.readStrings("number attributes")
    let scopeCount = try reader.readCount("the number of scopes", limit: 1 << 16)
    var scopes: [ScopeBar.Scope] = []
    for _ in 0..<scopeCount {
      let title = try reader.readString("a scope's title")
      var scope = ScopeBar.Scope(
        title: title, attribute: try reader.readOptionalString("the attribute of \(title)"),
        values: Set(try reader.readStrings("the values of \(title)")))
      let hasFields = try reader.read(UInt8.self, "the fields of \(title)")
      if hasFields == 1 { scope.fields = try reader.readStrings("the fields of \(title)") }
      let mayBeEmpty = try reader.read(UInt8.self, "the scope \(title)")
      guard hasFields <= 1, mayBeEmpty <= 1 else {
        throw reader.corrupt("a flag of the scope \(title) is not 0 or 1")
      }
      scope.mayBeEmpty = mayBeEmpty == 1
      scopes.append(scope)
    }
    let ruleCount = try reader.readCount("the number of ranking rules", limit: 1 << 16)
    var rules: [Ranking.Rule] = []
    for _ in 0..<ruleCount {
      let code = try reader.read(UInt8.self, "a ranking rule")
      if code == Ranking.Rule.savedAttributeCode {
        let name = try reader.readString("a ranking attribute")
        let order = try reader.read(UInt8.self, "the order of \(name)")
        guard order <= 1 else { throw reader.corrupt("the order of \(name) is \(order)") }
        rules.append(.attribute(name, order == 0 ? .ascending : .descending))
      } else if let rule = Ranking.Rule.saved.first(where: { $0.savedCode == code }) {
        rules.append(rule)
      } else {
        throw reader.corrupt("ranking rule \(code) is none this program knows")
      }
    }
    self.init(
      fields: fields, attributes: attributes, scopeBar: ScopeBar(scopes),
      displayTemplate: template, numberAttributes: numbers, ranking: Ranking(rules))
    guard scopeBar.scopes.count == scopeCount else {
      throw reader.corrupt("the first scope restricts something")
    }
  }
}

extension Ranking.Rule {
  /// The rules without a name, in the order of their codes in a saved file.
  static let saved: [Ranking.Rule] = [.words, .typos, .field, .exactness, .position, .length]
  /// The code of an attribute rule, followed by its name and order.
  static let savedAttributeCode: UInt8 = 255

  /// The rule's code in a saved file.
  var savedCode: UInt8 {
    Self.saved.firstIndex(of: self).map(UInt8.init) ?? Self.savedAttributeCode
  }
}
