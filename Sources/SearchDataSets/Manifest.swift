#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import SearchCore

/// The description of a data set: where its data file is, how to read it, and the fields,
/// attributes, scopes and display template of its items.
///
/// A manifest is a small JSON file next to its data file:
///
/// ```json
/// {
///   "name": "cities",
///   "description": "GeoNames cities with population ≥ 15,000",
///   "data": "cities.tsv",
///   "format": "tsv",
///   "header": true,
///   "fields": [
///     {"name": "name", "source": "name"},
///     {"name": "alternate names", "source": "alternatenames", "separator": ","}
///   ],
///   "attributes": [
///     {"name": "continent", "source": "continent"},
///     {"name": "population", "source": 15, "type": "integer"}
///   ],
///   "scopes": [
///     {"title": "All"},
///     {"title": "Europe", "attribute": "continent", "values": ["EU"]},
///     {"title": "Name", "fields": ["name"]}
///   ],
///   "display": "{name} ({continent})"
/// }
/// ```
///
/// Read one with ``load(from:)``, turn it into the items' ``Schema`` with ``schema()``, and
/// load its data with ``DataSetLoader``.
public struct Manifest: Hashable, Sendable {
  /// How the data file is written.
  public enum Format: String, Hashable, Sendable, CaseIterable {
    /// Tab-separated values: one item per line, cells separated by tabs, no quoting.
    case tsv
    /// JSON Lines: one JSON object per line.
    case jsonl
  }

  /// Where a field or an attribute takes its value from, in each line of the data file.
  public enum Source: Hashable, Sendable {
    /// A column named by the TSV header, or a key of the JSON object.
    case named(String)
    /// A TSV column by number, counted from 1.
    case column(Int)
  }

  /// What an attribute's values must be.
  public enum ValueType: String, Hashable, Sendable, CaseIterable {
    /// Any text.
    case string
    /// An integer: an optional sign and decimal digits, kept in canonical form ("+007" is "7").
    case integer
    /// A decimal number such as "499.99": an optional sign, digits, optionally a point and
    /// more digits; kept in canonical form ("0499.50" is "499.5", see ``DecimalText``).
    case decimal

    /// The value in this type's canonical form, or nil when `text` is not of this type; a
    /// string is kept as it is.
    public func canonical<S: StringProtocol>(_ text: S) -> String? {
      switch self {
      case .string: String(text)
      case .integer: Int(text).map { String($0) }
      case .decimal: DecimalText.canonical(text)
      }
    }

    /// "an integer", "a decimal number": for messages.
    public var phrase: String {
      switch self {
      case .string: "a string"
      case .integer: "an integer"
      case .decimal: "a decimal number"
      }
    }
  }

  /// A text field of the items, and where its values come from.
  public struct Field: Hashable, Sendable {
    /// The field's name in the schema, such as "alternate names".
    public var name: String
    /// The column or key that holds the field's values.
    public var source: Source
    /// Whether searches look at this field.
    public var isSearched: Bool
    /// The text that splits one cell or string into several values (empty pieces are
    /// dropped); nil keeps it one value.
    public var separator: String?

    /// Creates a field; `source` nil takes the column or key named like the field.
    public init(
      name: String, source: Source? = nil, isSearched: Bool = true, separator: String? = nil
    ) {
      self.name = name
      self.source = source ?? .named(name)
      self.isSearched = isSearched
      self.separator = separator
    }
  }

  /// An attribute of the items (scopes filter on them), and where its value comes from.
  public struct Attribute: Hashable, Sendable {
    /// The attribute's name in the schema, such as "continent".
    public var name: String
    /// The column or key that holds the attribute's value.
    public var source: Source
    /// What the value must be; a line whose value is not of this type is rejected.
    public var type: ValueType
    /// Whether a query word that is a number matches the items whose value equals it (the
    /// manifest's "matchNumbers"; integer and decimal attributes only). See
    /// ``Schema/numberAttributes``.
    public var matchesNumbers: Bool

    /// Creates an attribute; `source` nil takes the column or key named like the attribute.
    public init(
      name: String, source: Source? = nil, type: ValueType = .string, matchesNumbers: Bool = false
    ) {
      self.name = name
      self.source = source ?? .named(name)
      self.type = type
      self.matchesNumbers = matchesNumbers
    }
  }

  /// The data set's short name, such as "cities".
  public var name: String
  /// What the data set is (the manifest's "description").
  public var summary: String?
  /// The data file's path (the manifest's "data"), relative to the manifest's folder unless it
  /// starts with "/".
  public var dataFile: String
  /// How the data file is written.
  public var format: Format
  /// Whether the first line of a TSV file names the columns (the manifest's "header").
  public var hasHeader: Bool
  /// The text fields, in schema order.
  public var fields: [Field]
  /// The attributes, in schema order.
  public var attributes: [Attribute]
  /// The scope bar; when the first scope is not "All" (it restricts something), an "All" scope
  /// is put before it (see ``ScopeBar``).
  public var scopes: [Scope]
  /// How an item is shown, with `{field}` and `{attribute}` placeholders and optional groups
  /// such as `[ ({country})]`, left out when their placeholders are empty (the manifest's
  /// "display", see ``Model/display(_:)``); nil shows the first value of the first field.
  public var displayTemplate: String?

  /// Creates a manifest.
  public init(
    name: String, summary: String? = nil, dataFile: String, format: Format,
    hasHeader: Bool = false, fields: [Field], attributes: [Attribute] = [], scopes: [Scope] = [],
    displayTemplate: String? = nil
  ) {
    self.name = name
    self.summary = summary
    self.dataFile = dataFile
    self.format = format
    self.hasHeader = hasHeader
    self.fields = fields
    self.attributes = attributes
    self.scopes = scopes
    self.displayTemplate = displayTemplate
  }

  /// The largest manifest read, 1 MiB: a manifest describes a data set, it does not hold one.
  public static let maximumFileSize = 1 << 20

  /// Reads and checks the manifest file at `path`.
  ///
  /// - Throws: ``ManifestError`` naming `path`: the file cannot be read or passes
  ///   ``maximumFileSize``, is not UTF-8 or not JSON (with the line and column), lacks a key or
  ///   has one it does not know, or does not make sense (see ``schema()``).
  public static func load(from path: String) throws(ManifestError) -> Manifest {
    let bytes: [UInt8]
    switch FileBytes.contents(of: path, maximumSize: maximumFileSize) {
    case .success(let contents): bytes = contents
    case .failure(.system(let message)):
      throw ManifestError(
        file: path, reason: "cannot read the manifest: \(message)",
        hint: "check the path; a manifest is a JSON file such as Corpus/cities/cities.manifest.json"
      )
    case .failure(let failure):
      throw ManifestError(
        file: path, line: failure.line, reason: failure.message,
        hint: "a manifest is a small JSON file that names its data file; is this the data file?")
    }
    return try Manifest(json: bytes, file: path)
  }

  /// Reads and checks a manifest from its JSON text; `file` names it in errors.
  ///
  /// - Throws: ``ManifestError``, as ``load(from:)``.
  public init(json: [UInt8], file: String? = nil) throws(ManifestError) {
    let reader = ManifestReader(file: file, text: json)
    self = try reader.manifest()
    do {
      _ = try schema()
    } catch {
      var error = error
      error.file = file
      throw error
    }
  }

  /// The path of the data file for a manifest read from `manifestPath`: ``dataFile`` in the
  /// manifest's folder, or ``dataFile`` itself when it starts with "/".
  public func dataFilePath(manifestPath: String) -> String {
    if dataFile.hasPrefix("/") { return dataFile }
    guard let slash = manifestPath.lastIndex(of: "/") else { return dataFile }
    return String(manifestPath[...slash]) + dataFile
  }

  /// The schema of the data set's items, after checking that the manifest makes sense.
  ///
  /// - Throws: ``ManifestError`` when there are no fields, a name is empty or used twice, a
  ///   source does not fit the format (a column name without a header, a column number in JSON
  ///   Lines), a separator is empty, a scope is malformed, or scopes and the display template
  ///   name fields or attributes that do not exist (the error names all of them).
  public func schema() throws(ManifestError) -> Schema {
    try validate()
    let scopes = self.scopes.map { scope in
      var scope = scope
      if let name = scope.attribute, let attribute = attributes.first(where: { $0.name == name }) {
        scope.values = Set(scope.values.map { attribute.type.canonical($0) ?? $0 })
      }
      return scope
    }
    return Schema(
      fields: fields.map { Schema.Field(name: $0.name, isSearched: $0.isSearched) },
      attributes: attributes.map(\.name), scopeBar: ScopeBar(scopes),
      displayTemplate: displayTemplate,
      numberAttributes: attributes.filter(\.matchesNumbers).map(\.name))
  }
}

/// A manifest that cannot be read or does not make sense, with where and what to do about it.
public struct ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The manifest file; nil for a manifest built in code.
  public var file: String?
  /// The line of the manifest file at fault, counted from 1, when known.
  public var line: Int?
  /// The byte of that line, counted from 1, when known.
  public var column: Int?
  /// What is wrong.
  public var reason: String
  /// What to do about it.
  public var hint: String?

  /// Creates a manifest error.
  public init(
    file: String? = nil, line: Int? = nil, column: Int? = nil, reason: String,
    hint: String? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
    self.hint = hint
  }

  /// The error as "file:line:column: reason; hint" ("manifest: reason; hint" without a file).
  public var description: String {
    var text = file ?? "manifest"
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    text += ": \(reason)"
    if let hint { text += "; \(hint)" }
    return text
  }
}

// MARK: - Checking

extension Manifest {
  private static let formatHint = "see the manifest format in Corpus/README.md"

  /// Checks everything ``schema()`` promises; the first problem found is thrown, except that
  /// unknown names in scopes and the display template are gathered into one error.
  fileprivate func validate() throws(ManifestError) {
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
    guard !unknown.isEmpty else { return }
    let list = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ", ") }
    throw ManifestError(
      reason: "unknown names: " + unknown.joined(separator: "; "),
      hint: "use a declared name (fields: \(list(fields.map(\.name))); "
        + "attributes: \(list(attributes.map(\.name)))) or declare it")
  }

  /// The names between braces, read as ``Model/display(_:)`` reads them.
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

// MARK: - Reading the JSON

/// Turns a manifest's JSON text into a ``Manifest``, with errors that point at the line and
/// column of the value at fault.
private struct ManifestReader {
  let file: String?
  let text: [UInt8]

  private static let hints: [String: String] = [
    "the manifest":
      "a manifest is one JSON object with \"name\", \"data\", \"format\" and \"fields\"",
    "name": "give the data set a short name, such as \"cities\"",
    "description": "describe the data set in one line",
    "data": "give the data file's path relative to the manifest, such as \"cities.tsv\"",
    "format": "\"tsv\" (tab-separated values) or \"jsonl\" (one JSON object per line)",
    "header": "true when the first line of the TSV names the columns",
    "fields": "list the fields, such as [{\"name\": \"name\", \"source\": \"name\"}]",
    "attributes": "list the attributes, such as [{\"name\": \"country\", \"source\": 9}]",
    "scopes": "list the scopes, such as [{\"title\": \"All\"}]",
    "display": "a template such as \"{name} ({country})\"",
    "source":
      "a column name (TSV with a header), a column number from 1 (TSV), or a key (JSON Lines)",
    "searched": "true or false",
    "separator": "the text between values, such as \",\"",
    "type": "\"string\", \"integer\" or \"decimal\"",
    "matchNumbers": "true or false",
    "title": "the scope's title, such as \"Europe\"",
    "attribute": "the name of an attribute of the manifest",
    "values": "a list of attribute values, such as [\"EU\"]",
  ]

  func manifest() throws(ManifestError) -> Manifest {
    if let invalid = text.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset(in: $0) }) {
      throw error(
        "invalid UTF-8 (byte 0x\(String(text[invalid], radix: 16, uppercase: true)))",
        at: invalid, hint: "save the manifest as UTF-8")
    }
    let root: JSONValue
    do {
      root = try text.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
        try JSONReader.read(buffer, end: "end of file")
      }
    } catch {
      throw self.error(
        "invalid JSON: \(error.message)", at: error.offset,
        hint: "fix the JSON syntax: double quotes around keys and strings, commas between "
          + "entries, none after the last; no comments")
    }
    let top = try members(
      of: root, path: "the manifest",
      known: [
        "name", "description", "data", "format", "header", "fields", "attributes",
        "scopes", "display",
      ])
    let formatValue = try required("format", in: top, of: root, path: "the manifest")
    let formatName = try string(formatValue, path: "format")
    guard let format = Manifest.Format(rawValue: formatName) else {
      throw error(
        "unknown format \"\(formatName)\"", at: formatValue.offset,
        hint: Self.hints["format"])
    }
    let fields = try array(
      required("fields", in: top, of: root, path: "the manifest"), path: "fields"
    )
    .enumerated().map { index, value throws(ManifestError) in
      try field(value, path: "fields[\(index)]")
    }
    let attributes = try top["attributes"].map { value throws(ManifestError) in
      try array(value, path: "attributes").enumerated().map { index, value throws(ManifestError) in
        try attribute(value, path: "attributes[\(index)]")
      }
    }
    let scopes = try top["scopes"].map { value throws(ManifestError) in
      try array(value, path: "scopes").enumerated().map { index, value throws(ManifestError) in
        try scope(value, path: "scopes[\(index)]")
      }
    }
    return Manifest(
      name: try string(required("name", in: top, of: root, path: "the manifest"), path: "name"),
      summary: try top["description"].map { value throws(ManifestError) in
        try string(value, path: "description")
      },
      dataFile: try string(required("data", in: top, of: root, path: "the manifest"), path: "data"),
      format: format,
      hasHeader: try top["header"].map { value throws(ManifestError) in
        try bool(value, path: "header")
      } ?? false,
      fields: fields, attributes: attributes ?? [], scopes: scopes ?? [],
      displayTemplate: try top["display"].map { value throws(ManifestError) in
        try string(value, path: "display")
      })
  }

  private func field(_ value: JSONValue, path: String) throws(ManifestError) -> Manifest.Field {
    let keys = try members(
      of: value, path: path, known: ["name", "source", "searched", "separator"])
    let name = try string(required("name", in: keys, of: value, path: path), path: path + ".name")
    return Manifest.Field(
      name: name,
      source: try keys["source"].map { value throws(ManifestError) in
        try source(value, path: path + ".source")
      },
      isSearched: try keys["searched"].map { value throws(ManifestError) in
        try bool(value, path: path + ".searched")
      } ?? true,
      separator: try keys["separator"].map { value throws(ManifestError) in
        try string(value, path: path + ".separator")
      })
  }

  private func attribute(_ value: JSONValue, path: String) throws(ManifestError)
    -> Manifest.Attribute
  {
    let keys = try members(
      of: value, path: path, known: ["name", "source", "type", "matchNumbers"])
    let name = try string(required("name", in: keys, of: value, path: path), path: path + ".name")
    var type = Manifest.ValueType.string
    if let typeValue = keys["type"] {
      let typeName = try string(typeValue, path: path + ".type")
      guard let known = Manifest.ValueType(rawValue: typeName) else {
        throw error(
          "unknown type \"\(typeName)\" in \(path).type", at: typeValue.offset,
          hint: Self.hints["type"])
      }
      type = known
    }
    var matchesNumbers = false
    if let flag = keys["matchNumbers"] {
      matchesNumbers = try bool(flag, path: path + ".matchNumbers")
      if matchesNumbers && type == .string {
        throw error(
          "attribute \"\(name)\" matches numbers but its values are strings", at: flag.offset,
          hint: "give it \"type\": \"integer\" or \"decimal\"")
      }
    }
    return Manifest.Attribute(
      name: name,
      source: try keys["source"].map { value throws(ManifestError) in
        try source(value, path: path + ".source")
      },
      type: type, matchesNumbers: matchesNumbers)
  }

  private func scope(_ value: JSONValue, path: String) throws(ManifestError) -> Scope {
    let keys = try members(
      of: value, path: path, known: ["title", "attribute", "values", "fields"])
    let title = try string(
      required("title", in: keys, of: value, path: path), path: path + ".title")
    let attribute = try keys["attribute"].map { value throws(ManifestError) in
      try string(value, path: path + ".attribute")
    }
    var values: Set<String> = []
    if let list = keys["values"] {
      for (index, item) in try array(list, path: path + ".values").enumerated() {
        switch item.kind {
        case .string(let text): values.insert(text)
        case .number(let text) where DecimalText.canonical(text) != nil: values.insert(text)
        default:
          throw mismatch(item, path: path + ".values[\(index)]", expected: "a string or a number")
        }
      }
    }
    let fields = try keys["fields"].map { list throws(ManifestError) in
      try array(list, path: path + ".fields").enumerated().map {
        index, item throws(ManifestError) in
        try string(item, path: path + ".fields[\(index)]")
      }
    }
    return Scope(title: title, attribute: attribute, values: values, fields: fields)
  }

  private func source(_ value: JSONValue, path: String) throws(ManifestError) -> Manifest.Source {
    switch value.kind {
    case .string(let name): return .named(name)
    case .number(let text):
      if let number = Int(text) { return .column(number) }
      throw error(
        "\(path) is \(text), not a column number", at: value.offset, hint: Self.hints["source"])
    default:
      throw mismatch(value, path: path, expected: "a column name, a column number or a key")
    }
  }

  // MARK: Values

  private func members(of value: JSONValue, path: String, known: [String]) throws(ManifestError)
    -> [String: JSONValue]
  {
    guard case .object(let members) = value.kind else {
      throw mismatch(value, path: path, expected: "an object")
    }
    var result: [String: JSONValue] = [:]
    for member in members {
      guard known.contains(member.key) else {
        throw error(
          "unknown key \"\(member.key)\" in \(path)", at: member.keyOffset,
          hint: "the keys are \(known.joined(separator: ", ")) (spelled exactly so)")
      }
      guard result.updateValue(member.value, forKey: member.key) == nil else {
        throw error(
          "the key \"\(member.key)\" appears twice in \(path)", at: member.keyOffset,
          hint: "keep one of them")
      }
    }
    return result
  }

  private func required(
    _ key: String, in members: [String: JSONValue], of object: JSONValue, path: String
  ) throws(ManifestError) -> JSONValue {
    guard let value = members[key] else {
      throw error("\(path) has no \"\(key)\"", at: object.offset, hint: Self.hints[key])
    }
    return value
  }

  private func string(_ value: JSONValue, path: String) throws(ManifestError) -> String {
    guard case .string(let text) = value.kind else {
      throw mismatch(value, path: path, expected: "a string")
    }
    return text
  }

  private func bool(_ value: JSONValue, path: String) throws(ManifestError) -> Bool {
    guard case .bool(let flag) = value.kind else {
      throw mismatch(value, path: path, expected: "true or false")
    }
    return flag
  }

  private func array(_ value: JSONValue, path: String) throws(ManifestError) -> [JSONValue] {
    guard case .array(let items) = value.kind else {
      throw mismatch(value, path: path, expected: "an array")
    }
    return items
  }

  private func mismatch(_ value: JSONValue, path: String, expected: String) -> ManifestError {
    let key = path.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? path
    return error(
      "\(path) must be \(expected), not \(value.typeName)", at: value.offset, hint: Self.hints[key])
  }

  private func error(_ reason: String, at offset: Int, hint: String?) -> ManifestError {
    var line = 1
    var lineStart = 0
    for index in 0..<min(offset, text.count) where text[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return ManifestError(
      file: file, line: line, column: offset - lineStart + 1, reason: reason, hint: hint)
  }
}
