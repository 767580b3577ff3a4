import SearchEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One pass over a data file: splits it into lines, checks and parses each, and adds the good
/// ones to the model.
struct DataSetReader {
  /// The batch being read: whole lines of the file.
  var buffer = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
  let source: String
  let manifest: Manifest
  var model: SearchModel
  let textLimit: Int
  var report = LoadReport()
  /// The file's size when known, to reserve room for its items from the first batch.
  let expectedSize: Int?
  /// Whether the first batch has been read.
  var hasStarted = false

  /// Where the text starts (after a byte order mark) and ends (before the final blank lines).
  var contentStart = 0
  var contentEnd = 0
  /// The first invalid UTF-8 byte at or after the line being read, if any.
  var nextInvalid: Int?
  /// Where the next line starts in the batch, and the number of the last line read.
  var position = 0
  var lineNumber = 0
  /// The number of lines of the batches read so far.
  var linesHandedIn: Int { lineNumber }
  /// For JSON Lines: the keys the manifest uses.
  let jsonKeys: Set<String>

  /// For TSV: the column (from 0) of each field and attribute; the number of columns needed.
  var fieldColumns: [Int] = []
  var attributeColumns: [Int] = []
  var columnsNeeded = 0
  /// Scratch space reused from line to line.
  var cells: [Range<Int>] = []
  var pieces: [(field: Int, range: Range<Int>)] = []
  /// The attributes' texts (for TSV, of the integer attributes only).
  var attributeTexts: [String] = []
  var fieldSizes: [Int] = []

  init(source: String, manifest: Manifest, model: SearchModel, textLimit: Int, expectedSize: Int?) {
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

  mutating func readLines(
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
  mutating func findContent(isFirst: Bool, isLast: Bool) {
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
  mutating func reserve(isLast: Bool) {
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

  func firstInvalid(from start: Int) -> Int? {
    guard start < contentEnd else { return nil }
    return UTF8Validation.firstInvalidOffset(
      in: UnsafeBufferPointer(rebasing: buffer[start..<contentEnd])
    )
    .map { $0 + start }
  }

  /// The next line, or nil after the last one that is not ignored.
  mutating func nextLine() -> Line? {
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

  mutating func reject(_ line: Line, column: Int? = nil, reason: String, hint: String) {
    report.rejected.append(
      InputError(source: source, line: line.number, column: column, reason: reason, hint: hint))
  }
}

/// The hints of rejected lines, written once.
enum Hints {
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
func splitPieces<C: RandomAccessCollection<UInt8>>(
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
