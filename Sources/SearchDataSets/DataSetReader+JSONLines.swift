import SearchEngine

/// JSON Lines: one object per line, its keys named by the manifest.
extension DataSetReader {
  mutating func readJSON(_ line: Line, separators: [[UInt8]?]) -> Bool {
    let content = UnsafeBufferPointer(rebasing: buffer[line.contentStart..<line.end])
    let shift = line.contentStart - line.start + 1
    if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
      reject(
        line, reason: "blank line",
        hint: "remove the line: JSON Lines has one object on every line")
      return false
    }
    let root: JSONValue
    do {
      root = try JSONReader.read(content, end: "end of line", keepingKeys: jsonKeys)
    } catch {
      reject(
        line, column: error.offset + shift, reason: "invalid JSON: \(error.message)",
        hint: "each line must be one complete JSON object")
      return false
    }
    guard case .object(let members) = root.kind else {
      reject(
        line, column: root.offset + shift, reason: "not a JSON object (\(root.typeName))",
        hint: "each line must be one JSON object, such as {\"name\": \"Paris\"}")
      return false
    }
    // Members holds only the keys the manifest uses, a few: a search beats hashing. Of a key
    // given twice, the last counts.
    func value(_ source: Manifest.Source) -> JSONValue? {
      guard case .named(let key) = source else { return nil }
      return members.last { $0.key == key }?.value
    }
    func missing(_ source: Manifest.Source) -> String {
      guard case .named(let key) = source else { return "missing key" }
      return "missing key \"\(key)\""
    }
    var fieldValues: [(field: Int, bytes: [UInt8])] = []
    for (index, field) in manifest.fields.enumerated() {
      guard let found = value(field.source) else {
        reject(line, reason: missing(field.source), hint: Hints.missingKey)
        return false
      }
      let strings: [String]
      switch fieldTexts(found, of: field) {
      case .success(let texts): strings = texts
      case .failure(let problem):
        reject(
          line, column: problem.offset + shift, reason: problem.reason, hint: Hints.fieldValue)
        return false
      }
      for text in strings {
        let utf8 = Array(text.utf8)
        if let separator = separators[index] {
          splitPieces(of: utf8, in: 0..<utf8.count, at: separator) {
            fieldValues.append((index, Array(utf8[$0])))
          }
        } else if !utf8.isEmpty {
          fieldValues.append((index, utf8))
        }
      }
    }
    attributeTexts.removeAll(keepingCapacity: true)
    for attribute in manifest.attributes {
      guard let found = value(attribute.source) else {
        reject(line, reason: missing(attribute.source), hint: Hints.missingKey)
        return false
      }
      switch attributeText(found, of: attribute) {
      case .success(let text): attributeTexts.append(text)
      case .failure(let problem):
        reject(
          line, column: problem.offset + shift, reason: problem.reason,
          hint: attribute.type != .string
            ? Hints.number(attribute) : "an attribute's value must be a string or a number")
        return false
      }
    }
    clearSizes()
    for (field, bytes) in fieldValues { fieldSizes[field] += bytes.count + 1 }
    guard fitsLimit(line) else { return false }
    _ = model.beginItem()
    for (field, bytes) in fieldValues {
      let added = model.appendValue(utf8: bytes, field: field)
      precondition(added, "a field passed its limit after the line was checked against it")
    }
    for (attribute, text) in attributeTexts.enumerated() {
      model.setAttribute(attribute, utf8: text.utf8)
    }
    model.endItem()
    return true
  }

  /// Why a JSON value does not fit a field or an attribute, and the offset of the value at
  /// fault.
  struct Problem: Error {
    var reason: String
    var offset: Int
  }

  /// A field's texts from its JSON value: a string, an array of strings, or null (none).
  func fieldTexts(_ value: JSONValue, of field: Manifest.Field) -> Result<
    [String], Problem
  > {
    switch value.kind {
    case .null: return .success([])
    case .string(let text): return .success([text])
    case .array(let items):
      var texts: [String] = []
      for item in items {
        guard case .string(let text) = item.kind else {
          return .failure(
            Problem(
              reason: "wrong type: field \"\(field.name)\" holds \(item.typeName) in its array, "
                + "not a string", offset: item.offset))
        }
        texts.append(text)
      }
      return .success(texts)
    default:
      return .failure(
        Problem(
          reason: "wrong type: field \"\(field.name)\" is \(value.typeName), "
            + "not a string or an array of strings", offset: value.offset))
    }
  }

  /// An attribute's text from its JSON value, checked against its type.
  func attributeText(_ value: JSONValue, of attribute: Manifest.Attribute) -> Result<
    String, Problem
  > {
    let name = attribute.name
    switch (value.kind, attribute.type) {
    case (.string(let text), .string), (.number(let text), .string): return .success(text)
    case (.null, .string): return .success("")
    case (.string(let text), let type):
      guard let number = type.canonical(text) else {
        return .failure(
          Problem(
            reason: "wrong type: \(name) \"\(text)\" is not \(type.phrase)", offset: value.offset))
      }
      return .success(number)
    case (.number(let text), let type):
      guard let number = type.canonical(text) else {
        return .failure(
          Problem(reason: "wrong type: \(name) \(text) is not \(type.phrase)", offset: value.offset)
        )
      }
      return .success(number)
    case (_, .string):
      return .failure(
        Problem(
          reason: "wrong type: \(name) is \(value.typeName), not a string or a number",
          offset: value.offset))
    case (_, let type):
      return .failure(
        Problem(
          reason: "wrong type: \(name) is \(value.typeName), not \(type.phrase)",
          offset: value.offset))
    }
  }
}
