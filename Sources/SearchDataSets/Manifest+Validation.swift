import SearchEngine

extension Manifest {
  private static let formatHint = "see the manifest format in Corpus/README.md"

  /// Checks everything ``schema()`` promises; the first problem found is thrown, except that
  /// unknown names in scopes and the display template are gathered into one error.
  func validate() throws(ManifestError) {
    guard !fields.isEmpty else {
      throw ManifestError(
        reason: "the manifest has no fields",
        hint: "add at least one field, e.g. \"fields\": [{\"name\": \"name\"}]")
    }
    var seen: Set<String> = []
    let entries =
      fields.map { ("field", $0.name, $0.source) }
      + attributes.map { ("attribute", $0.name, $0.source) }
    for (kind, name, source) in entries {
      guard !name.isEmpty else {
        throw ManifestError(
          reason: "a \(kind) has an empty name", hint: "give every \(kind) a name")
      }
      guard seen.insert(name).inserted else {
        throw ManifestError(
          reason: "the name \"\(name)\" is used twice",
          hint:
            "fields and attributes need distinct names (the display template and scopes use them)")
      }
      try Self.validate(
        source: source, of: "\(kind) \"\(name)\"", format: format, header: hasHeader)
    }
    if format == .jsonl && hasHeader {
      throw ManifestError(
        reason: "\"header\" is true but the format is jsonl",
        hint: "JSON Lines has no header line; remove \"header\"")
    }
    for field in fields where field.separator == "" {
      throw ManifestError(
        reason: "field \"\(field.name)\" has an empty separator",
        hint: "give the text between values, such as \",\", or remove \"separator\"")
    }
    try validateScopes()
    try validateNames()
  }

  private static func validate(
    source: Source, of entry: String, format: Format, header: Bool
  ) throws(ManifestError) {
    switch (source, format) {
    case (.column(let number), _) where number < 1:
      throw ManifestError(
        reason: "\(entry) has source \(number)", hint: "column numbers start at 1")
    case (.column(let number), .jsonl):
      throw ManifestError(
        reason: "\(entry) has source \(number), a column number, but the format is jsonl",
        hint: "JSON Lines values are found by key: give the key as a string")
    case (.named(let name), .tsv) where !header:
      throw ManifestError(
        reason: "\(entry) has source \"\(name)\", a column name, but the TSV has no header",
        hint: "set \"header\": true if the first line names the columns, or give a column number")
    case (.named(let name), _) where name.isEmpty:
      throw ManifestError(reason: "\(entry) has an empty source", hint: formatHint)
    default: return
    }
  }

  private func validateScopes() throws(ManifestError) {
    var titles: Set<String> = []
    for scope in scopes {
      let title = scope.title
      guard !title.isEmpty else {
        throw ManifestError(reason: "a scope has an empty title", hint: "give every scope a title")
      }
      guard titles.insert(title.lowercased()).inserted else {
        throw ManifestError(
          reason: "two scopes are titled \"\(title)\"",
          hint: "scopes are chosen by title, ignoring case: give each a distinct title")
      }
      if scope.attribute != nil && scope.values.isEmpty {
        throw ManifestError(
          reason: "scope \"\(title)\" filters on an attribute but lists no values",
          hint: "add \"values\": the attribute values the scope keeps")
      }
      if scope.attribute == nil && !scope.values.isEmpty {
        throw ManifestError(
          reason: "scope \"\(title)\" lists values but no attribute",
          hint: "add \"attribute\": the attribute whose values these are")
      }
      if scope.fields?.isEmpty == true {
        throw ManifestError(
          reason: "scope \"\(title)\" searches an empty list of fields",
          hint: "name the fields it searches, or remove \"fields\" to search every searched field")
      }
      guard let name = scope.attribute,
        let attribute = attributes.first(where: { $0.name == name }),
        attribute.type != .string
      else { continue }
      for value in scope.values.sorted() where attribute.type.canonical(value) == nil {
        throw ManifestError(
          reason: "scope \"\(title)\" keeps \"\(value)\", but attribute \"\(name)\" is "
            + attribute.type.phrase,
          hint: "list values of the attribute's type")
      }
    }
  }

  /// Gathers every name that scopes and the display template use but no field or attribute
  /// has, so that one error names them all.
  private func validateNames() throws(ManifestError) {
    let fieldNames = Set(fields.map(\.name))
    let attributeNames = Set(attributes.map(\.name))
    var unknown: [String] = []
    for scope in scopes {
      if let attribute = scope.attribute, !attributeNames.contains(attribute) {
        unknown.append("scope \"\(scope.title)\" filters on attribute \"\(attribute)\"")
      }
      for field in scope.fields ?? [] where !fieldNames.contains(field) {
        unknown.append("scope \"\(scope.title)\" searches field \"\(field)\"")
      }
    }
    for name in Self.placeholders(in: displayTemplate ?? "")
    where !fieldNames.contains(name) && !attributeNames.contains(name) {
      unknown.append("display uses \"{\(name)}\"")
    }
    for name in ranking.attributes where !attributeNames.contains(name) {
      unknown.append("ranking uses attribute \"\(name)\"")
    }
    guard !unknown.isEmpty else { return try validateRankingTypes() }
    let list = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ", ") }
    throw ManifestError(
      reason: "unknown names: " + unknown.joined(separator: "; "),
      hint: "use a declared name (fields: \(list(fields.map(\.name))); "
        + "attributes: \(list(attributes.map(\.name)))) or declare it")
  }

  /// An attribute ranks by its number: a text one would rank nothing.
  private func validateRankingTypes() throws(ManifestError) {
    for name in ranking.attributes {
      guard let attribute = attributes.first(where: { $0.name == name }),
        attribute.type == .string
      else { continue }
      throw ManifestError(
        reason: "ranking uses attribute \"\(name)\", which is text",
        hint: "rank by an attribute of \"type\" \"integer\" or \"decimal\"")
    }
  }

  /// The names between braces, read as ``SearchModel/display(_:)`` reads them.
  static func placeholders(in template: String) -> [String] {
    var names: [String] = []
    var rest = template[...]
    while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
      names.append(String(rest[rest.index(after: open)..<close]))
      rest = rest[rest.index(after: close)...]
    }
    return names
  }
}
