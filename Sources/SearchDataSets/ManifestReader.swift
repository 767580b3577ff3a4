import SearchEngine

/// Turns a manifest's JSON text into a ``Manifest``, with errors that point at the line and
/// column of the value at fault.
struct ManifestReader {
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
    "ranking":
      "list what ranks equally relevant items, such as [{\"attribute\": \"population\", \"order\": \"descending\"}], or the whole order of rules: \"words\", \"typos\", \"field\", \"exactness\", \"position\", \"length\" and attributes",
    "order": "\"ascending\" (smaller first) or \"descending\" (larger first)",
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
        "scopes", "display", "ranking",
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
      },
      ranking: try top["ranking"].map { value throws(ManifestError) in try ranking(value) }
        ?? .default)
  }

  /// The manifest's "ranking": attributes after exactness in the default rules, or, when it
  /// names rules, the whole order as listed.
  private func ranking(_ value: JSONValue) throws(ManifestError) -> Ranking {
    var rules: [Ranking.Rule] = []
    var namesRules = false
    for (index, entry) in try array(value, path: "ranking").enumerated() {
      let path = "ranking[\(index)]"
      let rule: Ranking.Rule
      if case .string(let name) = entry.kind {
        guard let named = Ranking.Rule.named[name] else {
          throw error(
            "unknown ranking rule \"\(name)\"", at: entry.offset, hint: Self.hints["ranking"])
        }
        rule = named
        namesRules = true
      } else {
        let keys = try members(of: entry, path: path, known: ["attribute", "order"])
        let name = try string(
          required("attribute", in: keys, of: entry, path: path), path: path + ".attribute")
        let orderValue = try required("order", in: keys, of: entry, path: path)
        let orderName = try string(orderValue, path: path + ".order")
        guard let order = Ranking.Order(rawValue: orderName) else {
          throw error(
            "unknown order \"\(orderName)\"", at: orderValue.offset, hint: Self.hints["order"])
        }
        rule = .attribute(name, order)
      }
      let isRepeated = rules.contains { known in
        if case .attribute(let a, _) = known, case .attribute(let b, _) = rule { return a == b }
        return known == rule
      }
      guard !isRepeated else {
        throw error(
          "\(path) ranks by \(rule) a second time", at: entry.offset,
          hint: "name each rule and attribute once")
      }
      rules.append(rule)
    }
    return namesRules ? Ranking(rules) : Ranking.default.with(rules)
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

  private func scope(_ value: JSONValue, path: String) throws(ManifestError) -> ScopeBar.Scope {
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
    return ScopeBar.Scope(title: title, attribute: attribute, values: values, fields: fields)
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
