/// The saved index file: a corpus's model and folded columns, which a later start reads back
/// instead of loading the data and folding it again.
///
/// Layout (little-endian, as the machines Swift runs on): the 8 bytes of ``magic``, the
/// format version and a byte-order mark (`UInt32` each), the folding rules' identity
/// (`Normalizer.rulesIdentity`: rules version and ICU version), the folding options and locale,
/// the caller's `source` text (what the data was, for a staleness check), then the model
/// (schema, order, columns, value maps, attribute codes), the index (each searched field's
/// folded text, starts, interior boundaries, space lists, byte counts, common bytes, grams) and an
/// end mark. Each array is its count, a checksum and its raw elements.
extension SearchCorpus {
  /// The file's first bytes.
  static let magic: [UInt8] = Array("SCSINDEX".utf8)
  /// The format's version: raised whenever the layout changes.
  package static let savedFormatVersion: UInt32 = 3
  private static let knownFolding: Folding = [
    .case, .diacritics, .compatibility, .latin, .dotlessI,
  ]
  private static let byteOrderMark: UInt32 = 0x0102_0304
  private static let endMark: UInt64 = 0x444E_4558_4544_4E45

  /// Writes the corpus (its model and index) to `path`, for ``init(contentsOf:normalizer:source:)``.
  ///
  /// - Parameters:
  ///   - path: The file to write; an existing file there is replaced once the new one is
  ///     complete.
  ///   - source: What the model was made from (a data file's size, time and hash, say),
  ///     checked on reading so that a file made from other data is refused.
  /// - Throws: ``SavedIndexError`` when the file cannot be written; it is written under
  ///   another name and renamed when complete.
  public func save(toFile path: String, source: String = "") throws(SavedIndexError) {
    let writer = try SavedFileWriter(path: path)
    for byte in Self.magic { try writer.write(byte) }
    try writer.write(Self.savedFormatVersion)
    try writer.write(Self.byteOrderMark)
    try writer.write(normalizer.rulesIdentity)
    try writer.write(normalizer.folding.rawValue)
    try writer.write(optional: normalizer.locale)
    try writer.write(source)
    try model.write(to: writer)
    try index.write(to: writer)
    try writer.write(Self.endMark)
    try writer.finish()
  }

  /// Reads a corpus written by ``save(toFile:source:)``.
  ///
  /// - Parameters:
  ///   - path: The file written by ``save(toFile:source:)``.
  ///   - normalizer: The folding the caller searches with; a file folded otherwise is stale.
  ///     Nil takes the file's own.
  ///   - source: What the model must have been made from; a file made from another source is
  ///     stale. Nil accepts any.
  /// - Throws: ``SavedIndexError``: ``SavedIndexError/Code/stale`` for a file of another
  ///   format, folding rules or options, or source; ``SavedIndexError/Code/corrupt`` for a
  ///   truncated or damaged one, naming the part at fault. Every array is checked against its
  ///   checksum, and, before it is used, every structure against the others: counts against
  ///   the model's items and values, offsets within their arrays, starts ascending and ending
  ///   at separators, value maps and their owners, orders and positions, attribute codes, space
  ///   lists and byte counts against the folded text, the common bytes' rows against the byte
  ///   counts, every posting of the grams (whole, ascending, as many as its gram's count, below
  ///   the values) and each gram against its first and last value. A bad file is an error,
  ///   never a trap.
  ///
  ///   The checksums catch damage, not a change made on purpose: a file whose bytes were
  ///   changed and its checksums computed again may still differ from what was saved where
  ///   the structures stay consistent. The folded text of a value whose text is ASCII that
  ///   folds byte for byte (most values of most data) is checked against that folding, as
  ///   cheaply as reading it; the folding of other values, which would take as long as
  ///   building the index, where a folded character's interior boundaries lie, and which
  ///   values a common letter's bits or a gram's other postings name (as long as computing
  ///   them) are not. A file changed there answers by what it holds: an item whose text reads
  ///   "Mbçintosh" but whose folded text is "macintosh" matches `mac`; a one-letter query may
  ///   match by a changed bit, a three-letter one miss a value its gram's postings leave out.
  ///   It may highlight less than it matches, but never traps.
  /// - Complexity: O(*n*) in the file's size: one read per array, and a pass to check it.
  public init(contentsOf path: String, normalizer: Normalizer? = nil, source: String? = nil)
    throws(SavedIndexError)
  {
    try self.init(reading: try SavedFileReader(path: path), normalizer: normalizer, source: source)
  }

  /// Reads a corpus from `reader`, as ``init(contentsOf:normalizer:source:)``.
  init(reading reader: SavedFileReader, normalizer: Normalizer?, source: String?)
    throws(SavedIndexError)
  {
    let path = reader.path
    var magic: [UInt8] = []
    for _ in Self.magic.indices { magic.append(try reader.read(UInt8.self, "the file's mark")) }
    guard magic == Self.magic else {
      throw reader.corrupt("it does not start with \"SCSINDEX\": not a saved index")
    }
    let version = try reader.read(UInt32.self, "the format version")
    guard version == Self.savedFormatVersion else {
      throw SavedIndexError(
        .stale, file: path,
        reason: "it has format version \(version), this program reads \(Self.savedFormatVersion)")
    }
    guard try reader.read(UInt32.self, "the byte order") == Self.byteOrderMark else {
      throw SavedIndexError(.stale, file: path, reason: "it was written with another byte order")
    }
    let rules = try reader.readString("the folding rules")
    let folding = Folding(rawValue: try reader.read(UInt8.self, "the folding options"))
    let locale = try reader.readOptionalString("the locale")
    let saved = try reader.readString("the source")
    guard folding.rawValue & ~Self.knownFolding.rawValue == 0 else {
      throw reader.corrupt("its folding options \(folding.rawValue) have unknown bits")
    }
    let expected: Normalizer
    if let normalizer {
      expected = normalizer
    } else {
      do { expected = try Normalizer(folding: folding, locale: locale) } catch {
        throw SavedIndexError(.stale, file: path, reason: "its folding cannot be made: \(error)")
      }
    }
    guard rules == expected.rulesIdentity else {
      throw SavedIndexError(
        .stale, file: path,
        reason: "it was folded by \(rules), this program folds by \(expected.rulesIdentity)")
    }
    guard folding == expected.folding, locale == expected.locale else {
      throw SavedIndexError(
        .stale, file: path,
        reason:
          "it was folded with options \(folding) and locale \(locale ?? "root"), not"
          + " \(expected.folding) and \(expected.locale ?? "root")")
    }
    if let source, source != saved {
      throw SavedIndexError(
        .stale, file: path, reason: "it was made from other data (\(saved), now \(source))")
    }
    let model = try SearchModel(reading: reader)
    let index = try SearchIndex(reading: reader, model: model, normalizer: expected)
    guard try reader.read(UInt64.self, "the end mark") == Self.endMark, reader.isAtEnd else {
      throw reader.corrupt("it does not end where its content does")
    }
    do { try self.init(model: model, index: index) } catch {
      throw reader.corrupt("its scopes do not fit its schema: \(error)")
    }
  }
}

extension SearchCorpus {
  /// Where each part of the saved index at `path` lies (`SavedFileReader.outline`).
  static func savedOutline(of path: String) throws(SavedIndexError) -> [SavedFileReader.Part] {
    let reader = try SavedFileReader(path: path)
    reader.outline = []
    _ = try SearchCorpus(reading: reader, normalizer: nil, source: nil)
    return reader.outline ?? []
  }
}
