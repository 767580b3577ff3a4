#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import SearchCore

/// What a load did: how many lines of the data file were read, how many became items, and why
/// the others were rejected.
///
/// `loaded + rejected.count == linesRead` always. The lines read are the lines of the data
/// file (a final "\n" ends the last line, it does not start another) except a TSV header, and
/// except the lines at the end of the file that hold nothing or only "\r": those are ignored.
/// Whether rejected lines are fatal is the caller's decision.
public struct LoadReport: Hashable, Sendable {
  /// The lines of data read (header and ignored final blank lines not included).
  public var linesRead: Int
  /// The lines that became items.
  public var loaded: Int
  /// One error per rejected line, in file order; a rejected line leaves no trace in the model.
  public var rejected: [InputError]

  /// Creates a report.
  public init(linesRead: Int = 0, loaded: Int = 0, rejected: [InputError] = []) {
    self.linesRead = linesRead
    self.loaded = loaded
    self.rejected = rejected
  }
}

/// A data set that cannot be loaded at all: the file cannot be read, or the manifest does not
/// fit it (a TSV header without a column the manifest names).
public struct LoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file at fault: the data file, or the manifest.
  public var file: String
  /// The line at fault, counted from 1, when there is one.
  public var line: Int?
  /// What is wrong.
  public var reason: String
  /// What to do about it.
  public var hint: String?

  /// Creates a load error.
  public init(file: String, line: Int? = nil, reason: String, hint: String? = nil) {
    self.file = file
    self.line = line
    self.reason = reason
    self.hint = hint
  }

  /// The error as "file:line: reason; hint".
  public var description: String {
    var text = file
    if let line { text += ":\(line)" }
    text += ": \(reason)"
    if let hint { text += "; \(hint)" }
    return text
  }
}

/// Loads data files into a ``Model``: TSV and JSON Lines described by a ``Manifest``, and plain
/// lines for `filter`.
///
/// Each line is parsed and checked whole before it is added, so a rejected line leaves no trace
/// in the model; every rejected line is reported as an ``InputError`` in the ``LoadReport``.
/// Lines are checked for UTF-8 one by one: a bad line is rejected, the others load.
///
/// **TSV.** Cells are separated by tabs; there is no quoting and no escaping (a cell cannot
/// hold a tab or a line break), a final "\r" is dropped. Columns past those the manifest uses
/// are ignored; a line with fewer is rejected. An empty cell gives a field no value; a field
/// with a separator gets one value per non-empty piece. A blank line in the middle of the file
/// is a line of one empty cell.
///
/// **JSON Lines.** Each line is one JSON object (RFC 8259, strict: no comments, no trailing
/// commas). A field's value is a string, an array of strings, or null (no value); an empty
/// string is no value. An attribute's value is a string or a number (kept as written); null is
/// an empty string. Keys that the manifest does not use are checked for syntax and ignored; of
/// a key given twice, the last counts. A blank line in the middle of the file is rejected.
///
/// **Both.** A UTF-8 byte order mark at the start of the file is skipped. An integer attribute
/// must hold an optional sign and decimal digits, and is kept in canonical form ("+007" is
/// "7").
public enum DataSetLoader {
  /// Reads and loads the data file of a manifest read from `manifestPath` (see
  /// ``Manifest/dataFilePath(manifestPath:)``).
  ///
  /// - Throws: ``LoadError`` when the data file cannot be read, the manifest is not valid, or
  ///   the manifest does not fit the file.
  public static func load(
    manifest: Manifest, manifestPath: String, progress: LoadProgress? = nil
  ) throws(LoadError) -> (Model, LoadReport) {
    let path = manifest.dataFilePath(manifestPath: manifestPath)
    do {
      _ = try manifest.schema()
    } catch {
      throw LoadError(file: manifestPath, reason: error.reason, hint: error.hint)
    }
    let input: LineBatches
    do {
      input = try LineBatches(path: path)
    } catch {
      throw dataFileError(error, path: path, manifest: manifest, manifestPath: manifestPath)
    }
    do {
      return try load(
        input, source: path, manifest: manifest, manifestFile: manifestPath, progress: progress)
    } catch {
      switch error {
      case .reading(let failure):
        throw dataFileError(failure, path: path, manifest: manifest, manifestPath: manifestPath)
      case .loading(let error): throw error
      }
    }
  }

  private static func dataFileError(
    _ failure: FileBytes.Failure, path: String, manifest: Manifest, manifestPath: String
  ) -> LoadError {
    if case .system(let message) = failure {
      return LoadError(
        file: path, reason: "cannot read the data file: \(message)",
        hint: "\(manifestPath) names it \"\(manifest.dataFile)\", relative to the manifest's folder"
      )
    }
    return LoadError(file: path, line: failure.line, reason: failure.message, hint: failure.hint)
  }

  /// Loads a data file given as bytes; `source` names it in errors (a path, or "<stdin>").
  ///
  /// - Throws: ``LoadError`` when the manifest is not valid or does not fit the file.
  public static func load(bytes: [UInt8], source: String, manifest: Manifest) throws(LoadError)
    -> (Model, LoadReport)
  {
    try load(bytes: bytes, source: source, manifest: manifest, manifestFile: nil)
  }

  /// The model of `filter`: one item per line of `input`, with ``Schema/lines``.
  ///
  /// Every line becomes an item, an empty line too, so item positions are line numbers minus
  /// one; the item's one value is the line as searched (without a final "\r"). Should the text
  /// pass 2 GiB, the lines from the first that does not fit on are left out (then the model has
  /// fewer items than `input` has lines).
  ///
  /// - Complexity: O(*n*) in the size of the input, one copy of its bytes.
  public static func loadLines(_ input: LineInput) -> Model {
    var model = Model(schema: .lines)
    let count = input.count
    model.reserve(items: count, bytes: input.bytes.count, field: 0)
    let fitsWhole = input.bytes.count + count < textLimit
    input.bytes.withUnsafeBufferPointer { buffer in
      for index in 0..<count {
        let range = input.searchedRange(ofLine: index)
        if !fitsWhole && model.columns[0].bytes.count + range.count + 1 >= textLimit { break }
        _ = model.beginItem()
        model.appendValue(utf8: UnsafeBufferPointer(rebasing: buffer[range]), field: 0)
        model.endItem()
      }
    }
    return model
  }

  /// The most bytes a field's text may take (values and their separators), as ``Model`` allows.
  static let textLimit = LineInput.maximumSize

  /// ``load(bytes:source:manifest:)`` with the manifest file for errors, and a limit on each
  /// field's text that tests can lower.
  static func load(
    bytes: [UInt8], source: String, manifest: Manifest, manifestFile: String?,
    textLimit: Int = textLimit, batchBytes: Int = batchBytes, progress: LoadProgress? = nil
  ) throws(LoadError) -> (Model, LoadReport) {
    do {
      return try load(
        LineBatches(bytes: bytes), source: source, manifest: manifest, manifestFile: manifestFile,
        textLimit: textLimit, batchBytes: batchBytes, progress: progress)
    } catch {
      switch error {
      case .reading(let failure):
        throw LoadError(
          file: source, line: failure.line, reason: failure.message, hint: failure.hint)
      case .loading(let error): throw error
      }
    }
  }

  /// The bytes read before their lines are loaded: the memory a load needs beside its model.
  static let batchBytes = 1 << 20

  /// Why a load from batches stopped.
  enum BatchFailure: Error {
    case reading(FileBytes.Failure)
    case loading(LoadError)
  }

  /// Loads the batches of `input` one after the other into one model, so that the file is
  /// never held whole.
  static func load(
    _ input: consuming LineBatches, source: String, manifest: Manifest, manifestFile: String?,
    textLimit: Int = textLimit, batchBytes: Int = batchBytes, progress: LoadProgress? = nil
  ) throws(BatchFailure) -> (Model, LoadReport) {
    let schema: Schema
    do {
      schema = try manifest.schema()
    } catch {
      throw .loading(
        LoadError(
          file: manifestFile ?? "manifest \"\(manifest.name)\"", reason: error.reason,
          hint: error.hint))
    }
    var reader = DataSetReader(
      source: source, manifest: manifest, model: Model(schema: schema), textLimit: textLimit,
      expectedSize: input.size)
    progress?.begin(.reading, total: input.size ?? 0)
    var offset = 0
    while true {
      let next: (bytes: [UInt8], isLast: Bool)?
      do {
        next = try input.next(
          bytes: batchBytes, linesBefore: reader.linesHandedIn, endsAfterContent: true)
      } catch {
        throw .reading(error)
      }
      // An empty file is one empty last batch: its header is missing.
      let batch = next ?? ([], true)
      do {
        try batch.bytes.withUnsafeBufferPointer { bytes throws(LoadError) in
          try reader.read(batch: bytes, offset: offset, isLast: batch.isLast, progress: progress)
        }
      } catch {
        throw .loading(error)
      }
      offset += batch.bytes.count
      if batch.isLast { return (reader.model, reader.report) }
    }
  }
}

// MARK: - Reading lines

/// One pass over a data file: splits it into lines, checks and parses each, and adds the good
/// ones to the model.
private struct DataSetReader {
  /// The batch being read: whole lines of the file.
  private var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  let source: String
  let manifest: Manifest
  var model: Model
  let textLimit: Int
  var report = LoadReport()
  /// The file's size when known, to reserve room for its items from the first batch.
  private let expectedSize: Int?
  /// Whether the first batch has been read.
  private var hasStarted = false

  /// Where the text starts (after a byte order mark) and ends (before the final blank lines).
  private var contentStart = 0
  private var contentEnd = 0
  /// The first invalid UTF-8 byte at or after the line being read, if any.
  private var nextInvalid: Int?
  /// Where the next line starts in the batch, and the number of the last line read.
  private var position = 0
  private var lineNumber = 0
  /// The number of lines of the batches read so far.
  var linesHandedIn: Int { lineNumber }
  /// For JSON Lines: the keys the manifest uses.
  private let jsonKeys: Set<String>

  /// For TSV: the column (from 0) of each field and attribute; the number of columns needed.
  private var fieldColumns: [Int] = []
  private var attributeColumns: [Int] = []
  private var columnsNeeded = 0
  /// Scratch space reused from line to line.
  private var cells: [Range<Int>] = []
  private var pieces: [(field: Int, range: Range<Int>)] = []
  /// The attributes' texts (for TSV, of the integer attributes only).
  private var attributeTexts: [String] = []
  private var fieldSizes: [Int] = []

  init(source: String, manifest: Manifest, model: Model, textLimit: Int, expectedSize: Int?) {
    self.expectedSize = expectedSize
    self.source = source
    self.manifest = manifest
    self.model = model
    self.textLimit = textLimit
    var keys: Set<String> = []
    for source in manifest.fields.map(\.source) + manifest.attributes.map(\.source) {
      if case .named(let key) = source { keys.insert(key) }
    }
    jsonKeys = keys
  }

  /// One line: where it starts, where its content starts (after a byte order mark) and ends
  /// (before "\r\n" or "\n"), and its number from 1.
  struct Line {
    var number: Int
    var start: Int
    var contentStart: Int
    var end: Int
  }

  /// Reads the lines of one batch of whole lines, `offset` bytes into the file; the batches
  /// come in order, the first starting the file (its byte order mark, its header), the last
  /// ending it (its blank lines at the end are ignored).
  mutating func read(
    batch: UnsafeBufferPointer<UInt8>, offset: Int, isLast: Bool, progress: LoadProgress?
  ) throws(LoadError) {
    let separators = manifest.fields.map { $0.separator.map { Array($0.utf8) } }
    buffer = batch
    let isFirst = !hasStarted
    hasStarted = true
    findContent(isFirst: isFirst, isLast: isLast)
    position = contentStart
    guard isFirst else {
      try readLines(separators: separators, offset: offset, progress: progress)
      return
    }
    reserve(isLast: isLast)
    if manifest.format == .tsv && manifest.hasHeader {
      guard let header = nextLine() else {
        throw LoadError(
          file: source, reason: "the file is empty, but the manifest says it has a header line",
          hint: "add the header line, or set \"header\": false in the manifest")
      }
      try readHeader(header)
    } else {
      try resolveColumns(header: nil)
    }
    try readLines(separators: separators, offset: offset, progress: progress)
  }

  private mutating func readLines(
    separators: [[UInt8]?], offset: Int, progress: LoadProgress?
  ) throws(LoadError) {
    while let line = nextLine() {
      report.linesRead += 1
      if report.linesRead % 4096 == 0 { progress?.set(completed: offset + line.end) }
      if let invalid = nextInvalid, invalid < line.end {
        reject(
          line, column: invalid - line.start + 1,
          reason: "invalid UTF-8 (byte 0x\(String(buffer[invalid], radix: 16, uppercase: true)))",
          hint: NotUTF8.hint(buffer, subject: "the data file"))
        nextInvalid = firstInvalid(from: line.end)
        continue
      }
      let added: Bool
      switch manifest.format {
      case .tsv: added = readTSV(line, separators: separators)
      case .jsonl: added = readJSON(line, separators: separators)
      }
      if added { report.loaded += 1 }
    }
  }

  /// Finds where the batch's text starts (after a byte order mark at the start of the file)
  /// and ends (before the blank lines at the end of the file; a batch that is not the last
  /// ends after a line that is not blank).
  private mutating func findContent(isFirst: Bool, isLast: Bool) {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    contentStart = isFirst && buffer.starts(with: bom) ? 3 : 0
    guard isLast else {
      contentEnd = buffer.count
      nextInvalid = firstInvalid(from: contentStart)
      return
    }
    var last = buffer.count - 1
    while last >= contentStart && (buffer[last] == 0x0A || buffer[last] == 0x0D) { last -= 1 }
    if last < contentStart {
      contentEnd = contentStart
    } else {
      contentEnd = last + 1
      while contentEnd < buffer.count && buffer[contentEnd] != 0x0A { contentEnd += 1 }
    }
    nextInvalid = firstInvalid(from: contentStart)
  }

  /// Reserves room for one item per line of the file: the first batch's lines, scaled to the
  /// file's size when it is known (a little more, so that the lists need not grow and copy).
  private mutating func reserve(isLast: Bool) {
    var lines = 0
    var offset = contentStart
    while offset < contentEnd, let base = buffer.baseAddress {
      lines += 1
      guard let newline = memchr(base + offset, 0x0A, contentEnd - offset) else { break }
      offset = UnsafeRawPointer(newline) - UnsafeRawPointer(base) + 1
    }
    if !isLast, let expectedSize, buffer.count > 0 {
      lines = Int(Double(lines) * Double(expectedSize) / Double(buffer.count) * 1.05) + 16
    }
    for field in manifest.fields.indices { model.reserve(items: lines, bytes: 0, field: field) }
  }

  private func firstInvalid(from start: Int) -> Int? {
    guard start < contentEnd else { return nil }
    return UTF8Validation.firstInvalidOffset(
      in: UnsafeBufferPointer(rebasing: buffer[start..<contentEnd])
    )
    .map { $0 + start }
  }

  /// The next line, or nil after the last one that is not ignored.
  private mutating func nextLine() -> Line? {
    guard position < contentEnd, let base = buffer.baseAddress else { return nil }
    lineNumber += 1
    let start = position
    var end = contentEnd
    if let newline = memchr(base + start, 0x0A, contentEnd - start) {
      end = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
    }
    position = end + 1
    if end > start && buffer[end - 1] == 0x0D { end -= 1 }
    return Line(
      number: lineNumber, start: lineNumber == 1 ? 0 : start, contentStart: start, end: end)
  }

  private mutating func reject(_ line: Line, column: Int? = nil, reason: String, hint: String) {
    report.rejected.append(
      InputError(source: source, line: line.number, column: column, reason: reason, hint: hint))
  }

  // MARK: TSV

  /// Reads the header line and finds the named columns in it.
  private mutating func readHeader(_ header: Line) throws(LoadError) {
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
  private mutating func resolveColumns(header: [String]?) throws(LoadError) {
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
  private mutating func split(_ line: Line) {
    cells.removeAll(keepingCapacity: true)
    var start = line.contentStart
    while let base = buffer.baseAddress, let tab = memchr(base + start, 0x09, line.end - start) {
      let index = UnsafeRawPointer(tab) - UnsafeRawPointer(base)
      cells.append(start..<index)
      start = index + 1
    }
    cells.append(start..<line.end)
  }

  private mutating func readTSV(_ line: Line, separators: [[UInt8]?]) -> Bool {
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

  private mutating func clearSizes() {
    fieldSizes.removeAll(keepingCapacity: true)
    fieldSizes.append(contentsOf: repeatElement(0, count: manifest.fields.count))
  }

  /// Whether the line's values (`fieldSizes`, separators included) fit every field's text
  /// limit; rejects the line if not.
  private mutating func fitsLimit(_ line: Line) -> Bool {
    for (field, size) in fieldSizes.enumerated()
    where model.columns[field].bytes.count + size >= textLimit {
      reject(
        line, reason: "field \"\(manifest.fields[field].name)\" would pass 2 GiB of text",
        hint: "split the data set: a field holds at most 2 GiB of text")
      return false
    }
    return true
  }

  // MARK: JSON Lines

  private mutating func readJSON(_ line: Line, separators: [[UInt8]?]) -> Bool {
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
  private struct Problem: Error {
    var reason: String
    var offset: Int
  }

  /// A field's texts from its JSON value: a string, an array of strings, or null (none).
  private func fieldTexts(_ value: JSONValue, of field: Manifest.Field) -> Result<
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
  private func attributeText(_ value: JSONValue, of attribute: Manifest.Attribute) -> Result<
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

/// The hints of rejected lines, written once.
private enum Hints {
  static let missingKey =
    "add the key to the line (null when a field has no value), or fix the \"source\" in the "
    + "manifest"
  static let fieldValue = "a field's value must be a string, an array of strings, or null"
  static func number(_ attribute: Manifest.Attribute) -> String {
    "the manifest declares \"\(attribute.name)\" \(attribute.type.phrase); fix the value, or "
      + "make it a string attribute"
  }
}

/// Calls `body` with the range of each non-empty piece of `bytes[range]` between occurrences of
/// `separator`.
private func splitPieces<C: RandomAccessCollection<UInt8>>(
  of bytes: C, in range: Range<Int>, at separator: [UInt8], _ body: (Range<Int>) -> Void
) where C.Index == Int {
  var start = range.lowerBound
  var index = range.lowerBound
  while index + separator.count <= range.upperBound {
    if bytes[index] == separator[0]
      && bytes[index..<(index + separator.count)].elementsEqual(separator)
    {
      if index > start { body(start..<index) }
      index += separator.count
      start = index
    } else {
      index += 1
    }
  }
  if range.upperBound > start { body(start..<range.upperBound) }
}

// MARK: - JSON

/// A JSON value, with the offset of its first byte in the text that was read.
struct JSONValue {
  /// What the value is.
  enum Kind {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
  }

  var kind: Kind
  var offset: Int

  /// The kind of value, as errors name it: "a string", "an array" …
  var typeName: String {
    switch kind {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A key and value of a JSON object, in the order written.
struct JSONMember {
  var key: String
  var keyOffset: Int
  var value: JSONValue
}

/// JSON that does not follow RFC 8259, with the offset of the byte at fault.
struct JSONSyntaxError: Error {
  var offset: Int
  var message: String
}

/// A strict reader of one JSON text (RFC 8259: no comments, no trailing commas, no leading
/// zeros, no lone surrogates), for manifests and the lines of JSON Lines. The text must already
/// be valid UTF-8.
struct JSONReader {
  /// How deep arrays and objects may nest: deeper text is rejected rather than overflowing the
  /// stack of this recursive reader.
  static let maximumDepth = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  private let end: String
  private let keys: Set<String>?
  private var position = 0

  private init(bytes: UnsafeBufferPointer<UInt8>, end: String, keys: Set<String>?) {
    self.bytes = bytes
    self.end = end
    self.keys = keys
  }

  /// Reads all of `bytes` as one JSON value; `end` names the end of the text in errors ("end of
  /// line"). With `keys`, the members of a top-level object with other keys are checked but
  /// left out.
  static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, end: String, keepingKeys keys: Set<String>? = nil
  ) throws(JSONSyntaxError) -> JSONValue {
    var reader = JSONReader(bytes: bytes, end: end, keys: keys)
    reader.skipWhitespace()
    let value = try reader.value(depth: 0, keep: true)
    reader.skipWhitespace()
    if reader.position < bytes.count {
      throw reader.failure("unexpected \(reader.describe()) after \(value.typeName)")
    }
    return value
  }

  private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipWhitespace() {
    while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      position += 1
    }
  }

  private func failure(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(offset: offset ?? position, message: message)
  }

  /// The character at the reading position, for errors: "'x'", "U+0001" or the end.
  private func describe() -> String {
    guard let byte = peek else { return end }
    if byte < 0x20 || byte == 0x7F { return "U+" + hex(UInt32(byte)) }
    let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
    let slice = bytes[position..<min(position + length, bytes.count)]
    return "'" + String(decoding: UnsafeBufferPointer(rebasing: slice), as: UTF8.self) + "'"
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private mutating func value(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue {
    let start = position
    guard let byte = peek else { throw failure("expected a value, found \(end)") }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth, keep: keep)
    case UInt8(ascii: "["): return try array(depth: depth, keep: keep)
    case UInt8(ascii: "\""): return JSONValue(kind: .string(try string(keep: keep)), offset: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return JSONValue(kind: .number(try number()), offset: start)
    case UInt8(ascii: "t"): return JSONValue(kind: .bool(true), offset: try literal("true"))
    case UInt8(ascii: "f"): return JSONValue(kind: .bool(false), offset: try literal("false"))
    case UInt8(ascii: "n"): return JSONValue(kind: .null, offset: try literal("null"))
    default: throw failure("expected a value, found \(describe())")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) -> Int {
    let start = position
    let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count - position >= text.count,
      bytes[position..<(position + text.count)].elementsEqual(text)
    else { throw failure("expected a value (true, false or null), found \(describe())") }
    position += text.count
    return start
  }

  private mutating func object(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue {
    let start = position
    guard depth < Self.maximumDepth else {
      throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
    }
    position += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      position += 1
      return JSONValue(kind: .object(members), offset: start)
    }
    while true {
      skipWhitespace()
      guard peek == UInt8(ascii: "\"") else {
        if peek == UInt8(ascii: "}") {
          throw failure("a comma before '}' (JSON allows no trailing comma)")
        }
        throw failure("expected a key in double quotes, found \(describe())")
      }
      let keyOffset = position
      let filtered = depth == 0 && keys != nil
      let key = try string(keep: keep || filtered)
      skipWhitespace()
      guard peek == UInt8(ascii: ":") else {
        throw failure("expected ':' after the key, found \(describe())")
      }
      position += 1
      skipWhitespace()
      let keepValue = keep && (!filtered || keys?.contains(key) == true)
      let value = try self.value(depth: depth + 1, keep: keepValue)
      if keepValue { members.append(JSONMember(key: key, keyOffset: keyOffset, value: value)) }
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        return JSONValue(kind: .object(members), offset: start)
      default: throw failure("expected ',' or '}' after a value, found \(describe())")
      }
    }
  }

  private mutating func array(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue {
    let start = position
    guard depth < Self.maximumDepth else {
      throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
    }
    position += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      position += 1
      return JSONValue(kind: .array(items), offset: start)
    }
    while true {
      skipWhitespace()
      if peek == UInt8(ascii: "]") {
        throw failure("a comma before ']' (JSON allows no trailing comma)")
      }
      let item = try value(depth: depth + 1, keep: keep)
      if keep { items.append(item) }
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        return JSONValue(kind: .array(items), offset: start)
      default: throw failure("expected ',' or ']' after a value, found \(describe())")
      }
    }
  }

  /// Reads a string; its text is built only when `keep` is true ("" otherwise).
  private mutating func string(keep: Bool) throws(JSONSyntaxError) -> String {
    let start = position
    position += 1
    var runStart = position
    var unescaped: [UInt8] = []
    while true {
      guard let byte = peek else { throw failure("unterminated string", at: start) }
      switch byte {
      case UInt8(ascii: "\""):
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
        position += 1
        guard keep else { return "" }
        if runStart == start + 1 { return String(decoding: run, as: UTF8.self) }
        unescaped.append(contentsOf: run)
        return String(decoding: unescaped, as: UTF8.self)
      case UInt8(ascii: "\\"):
        if keep { unescaped.append(contentsOf: bytes[runStart..<position]) }
        let scalar = try escape()
        if keep { UTF8.encode(scalar) { unescaped.append($0) } }
        runStart = position
      case 0..<0x20:
        throw failure(
          "control character U+\(hex(UInt32(byte))) in a string; write it as an escape such as \\t")
      default: position += 1
      }
    }
  }

  /// Reads an escape sequence, from its backslash.
  private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let start = position
    position += 1
    guard let byte = peek else { throw failure("unterminated string", at: start) }
    position += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try hexUnit(escapeStart: start)
      if (0xDC00...0xDFFF).contains(unit) {
        throw failure("lone surrogate \\u\(hex(unit)) (JSON text must be Unicode)", at: start)
      }
      if (0xD800...0xDBFF).contains(unit) {
        let low = position
        guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        else {
          throw failure("lone surrogate \\u\(hex(unit)) (JSON text must be Unicode)", at: start)
        }
        position += 2
        let second = try hexUnit(escapeStart: low)
        guard (0xDC00...0xDFFF).contains(second) else {
          throw failure("lone surrogate \\u\(hex(unit)) (JSON text must be Unicode)", at: start)
        }
        let value = 0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
      }
      return Unicode.Scalar(unit) ?? "\u{FFFD}"
    default:
      position -= 1
      throw failure("invalid escape: '\\' followed by \(describe())", at: start)
    }
  }

  /// Reads the four hex digits of a \u escape.
  private mutating func hexUnit(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
    var unit: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek, let digit = hexDigit(byte) else {
        throw failure("invalid \\u escape: four hex digits must follow \\u", at: escapeStart)
      }
      unit = unit << 4 | digit
      position += 1
    }
    return unit
  }

  private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  private mutating func number() throws(JSONSyntaxError) -> String {
    let start = position
    func isDigit(_ byte: UInt8?) -> Bool {
      byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
    }
    if peek == UInt8(ascii: "-") { position += 1 }
    guard isDigit(peek) else { throw failure("invalid number: a digit must follow '-'") }
    if peek == UInt8(ascii: "0") {
      position += 1
      if isDigit(peek) { throw failure("invalid number: no leading zeros", at: position - 1) }
    } else {
      while isDigit(peek) { position += 1 }
    }
    if peek == UInt8(ascii: ".") {
      position += 1
      guard isDigit(peek) else { throw failure("invalid number: digits must follow '.'") }
      while isDigit(peek) { position += 1 }
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      position += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
      guard isDigit(peek) else { throw failure("invalid number: digits must follow the exponent") }
      while isDigit(peek) { position += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }
}
