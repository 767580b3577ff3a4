import SearchEngine

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
///   "display": "{name} ({continent})",
///   "ranking": [{"attribute": "population", "order": "descending"}]
/// }
/// ```
///
/// The fields come in the order ranked results weigh them (a match in the name before one in
/// the alternate names), and "ranking" names what ranks equally relevant items: number
/// attributes, each "ascending" or "descending", after ``Ranking/Rule/exactness`` in the
/// ``Ranking/default`` rules. A list that also names rules ("words", "typos", "field",
/// "exactness", "position", "length") gives the whole order instead:
/// `["typos", "words", {"attribute": "population", "order": "descending"}, "length"]`.
///
/// Read one with ``load(from:)``, turn it into the items' ``SearchModel/Schema`` with ``schema()``, and
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
    /// manifest's "matchNumbers"; integer and decimal attributes only).
    ///
    /// See ``SearchModel/Schema/numberAttributes``.
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
  ///
  /// ``DataSetLoader`` reads it only where it lies in the manifest's folder or below it, unless
  /// asked to read any file (see
  /// ``DataSetLoader/load(manifest:manifestPath:allowsDataOutsideFolder:)``).
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
  public var scopes: [ScopeBar.Scope]
  /// How an item is shown, with `{field}` and `{attribute}` placeholders and optional groups
  /// such as `[ ({country})]`, left out when their placeholders are empty (the manifest's
  /// "display", see ``SearchModel/display(_:)``); nil shows the first value of the first field.
  public var displayTemplate: String?
  /// How ranked results are ordered (the manifest's "ranking"); ``Ranking/default`` when it has
  /// none.
  public var ranking: Ranking

  /// Creates a manifest.
  public init(
    name: String, summary: String? = nil, dataFile: String, format: Format,
    hasHeader: Bool = false, fields: [Field], attributes: [Attribute] = [],
    scopes: [ScopeBar.Scope] = [],
    displayTemplate: String? = nil, ranking: Ranking = .default
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
    self.ranking = ranking
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
    switch FileBytes.contents(of: path, maximumSize: maximumFileSize, regularOnly: true) {
    case .success(let contents): bytes = contents
    case .failure(.notRegular(let kind)):
      let failure = FileBytes.Failure.notRegular(kind)
      throw ManifestError(
        file: path, reason: "cannot read the manifest: \(failure.message)", hint: failure.hint)
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
  ///   name fields or attributes that do not exist (the error names all of them), or the
  ///   ranking names a rule twice or an attribute that is not a number.
  public func schema() throws(ManifestError) -> SearchModel.Schema {
    try validate()
    let scopes = self.scopes.map { scope in
      var scope = scope
      if let name = scope.attribute, let attribute = attributes.first(where: { $0.name == name }) {
        scope.values = Set(scope.values.map { attribute.type.canonical($0) ?? $0 })
      }
      return scope
    }
    return SearchModel.Schema(
      fields: fields.map { SearchModel.Schema.Field(name: $0.name, isSearched: $0.isSearched) },
      attributes: attributes.map(\.name), scopeBar: ScopeBar(scopes),
      displayTemplate: displayTemplate,
      numberAttributes: attributes.filter(\.matchesNumbers).map(\.name), ranking: ranking)
  }
}
