import SearchEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tab-separated lines: the header, the columns the manifest names, and each line's cells.
extension DataSetReader {
  /// Reads the header line and finds the named columns in it.
  mutating func readHeader(_ header: Line) throws(LoadError) {
    if let invalid = nextInvalid, invalid < header.end {
      throw LoadError(
        file: source, line: 1,
        reason:
          "the header is not UTF-8 (byte 0x\(String(buffer[invalid], radix: 16, uppercase: true)) "
          + "at column \(invalid - header.start + 1))",
        hint: NotUTF8.hint(buffer, subject: "the data file"))
    }
    split(header)
    let names = cells.map {
      String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self)
    }
    try resolveColumns(header: names)
  }

  /// Turns each source into a column number; with a header, every source must be in it.
  mutating func resolveColumns(header: [String]?) throws(LoadError) {
    guard manifest.format == .tsv else { return }
    var problems: [String] = []
    func column(of source: Manifest.Source, for entry: String) -> Int {
      switch source {
      case .column(let number):
        if let header, number > header.count {
          problems.append("\(entry) uses column \(number), but the header has \(header.count)")
        }
        return number - 1
      case .named(let name):
        let names = header ?? []
        let matches = names.indices.filter { names[$0] == name }
        if matches.isEmpty {
          problems.append("no column \"\(name)\" (for \(entry))")
        } else if matches.count > 1 {
          let numbers = matches.map { String($0 + 1) }.joined(separator: " and ")
          problems.append("two columns \"\(name)\" (\(numbers), for \(entry))")
        }
        return matches.first ?? 0
      }
    }
    fieldColumns = manifest.fields.map { column(of: $0.source, for: "field \"\($0.name)\"") }
    attributeColumns = manifest.attributes.map {
      column(of: $0.source, for: "attribute \"\($0.name)\"")
    }
    columnsNeeded = (fieldColumns + attributeColumns).max().map { $0 + 1 } ?? 0
    guard !problems.isEmpty, let header else { return }
    throw LoadError(
      file: source, line: 1,
      reason: "the header does not fit the manifest: " + problems.joined(separator: "; "),
      hint: "the header's columns are \(header.map { "\"\($0)\"" }.joined(separator: ", ")); "
        + "fix the manifest's \"source\" (a column name or number) or the header")
  }

  /// Splits a line's content at tabs into `cells`.
  mutating func split(_ line: Line) {
    cells.removeAll(keepingCapacity: true)
    var start = line.contentStart
    while let base = buffer.baseAddress, let tab = memchr(base + start, 0x09, line.end - start) {
      let index = UnsafeRawPointer(tab) - UnsafeRawPointer(base)
      cells.append(start..<index)
      start = index + 1
    }
    cells.append(start..<line.end)
  }

  mutating func readTSV(_ line: Line, separators: [[UInt8]?]) -> Bool {
    split(line)
    if cells.count < columnsNeeded {
      let entries =
        Array(zip(manifest.fields.map { "field \"\($0.name)\"" }, fieldColumns))
        + Array(zip(manifest.attributes.map { "attribute \"\($0.name)\"" }, attributeColumns))
      // The entry of the first column missing; of entries sharing it, the first declared.
      let missing = entries.filter { $0.1 >= cells.count }.min { $0.1 < $1.1 }
      let columns = cells.count == 1 ? "1 column" : "\(cells.count) columns"
      reject(
        line, reason: "missing \(missing?.0 ?? "column") (\(columns), \(columnsNeeded) needed)",
        hint: "each line needs \(columnsNeeded) tab-separated columns; look for a lost tab or a "
          + "line break inside a value")
      return false
    }
    attributeTexts.removeAll(keepingCapacity: true)
    for (attribute, column) in zip(manifest.attributes, attributeColumns)
    where attribute.type != .string {
      let cell = cells[column]
      let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[cell]), as: UTF8.self)
      guard let number = attribute.type.canonical(text) else {
        reject(
          line, column: cell.lowerBound - line.start + 1,
          reason: "wrong type: \(attribute.name) \"\(text)\" is not \(attribute.type.phrase)",
          hint: Hints.number(attribute))
        return false
      }
      attributeTexts.append(number)
    }
    pieces.removeAll(keepingCapacity: true)
    for (field, column) in fieldColumns.enumerated() {
      let cell = cells[column]
      guard let separator = separators[field] else {
        if !cell.isEmpty { pieces.append((field, cell)) }
        continue
      }
      splitPieces(of: buffer, in: cell, at: separator) { pieces.append((field, $0)) }
    }
    clearSizes()
    for (field, range) in pieces { fieldSizes[field] += range.count + 1 }
    guard fitsLimit(line) else { return false }
    _ = model.beginItem()
    for (field, range) in pieces {
      let added = model.appendValue(
        utf8: UnsafeBufferPointer(rebasing: buffer[range]), field: field)
      precondition(added, "a field passed its limit after the line was checked against it")
    }
    // String attributes go to the model as the cell's bytes; numbers in canonical form.
    var numbers = attributeTexts.makeIterator()
    for (attribute, column) in attributeColumns.enumerated() {
      if manifest.attributes[attribute].type != .string, let text = numbers.next() {
        model.setAttribute(attribute, utf8: text.utf8)
      } else {
        model.setAttribute(attribute, utf8: UnsafeBufferPointer(rebasing: buffer[cells[column]]))
      }
    }
    model.endItem()
    return true
  }

  mutating func clearSizes() {
    fieldSizes.removeAll(keepingCapacity: true)
    fieldSizes.append(contentsOf: repeatElement(0, count: manifest.fields.count))
  }

  /// Whether the line's values (`fieldSizes`, separators included) fit every field's text
  /// limit; rejects the line if not.
  mutating func fitsLimit(_ line: Line) -> Bool {
    for (field, size) in fieldSizes.enumerated()
    where model.columns[field].bytes.count + size >= textLimit {
      reject(
        line, reason: "field \"\(manifest.fields[field].name)\" would pass 2 GiB of text",
        hint: "split the data set: a field holds at most 2 GiB of text")
      return false
    }
    return true
  }
}
