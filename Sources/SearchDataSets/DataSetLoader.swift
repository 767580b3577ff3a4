import SearchEngine

/// Loads data files into a ``SearchModel``: TSV and JSON Lines described by a ``Manifest``, and plain
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
  /// - Parameters:
  ///   - allowsDataOutsideFolder: Whether the data file may be any file the process can read.
  ///     By default it must lie in the manifest's folder or below it (symbolic links
  ///     followed): a manifest from elsewhere cannot have another file read and printed.
  /// - Throws: ``LoadError`` when the data file cannot be read or lies outside the manifest's
  ///   folder, the manifest is not valid, or the manifest does not fit the file.
  public static func load(
    manifest: Manifest, manifestPath: String, allowsDataOutsideFolder: Bool = false
  ) throws(LoadError) -> (SearchModel, LoadReport) {
    try load(
      manifest: manifest, manifestPath: manifestPath,
      allowsDataOutsideFolder: allowsDataOutsideFolder, progress: nil)
  }

  /// ``load(manifest:manifestPath:allowsDataOutsideFolder:)``, counting the bytes read into
  /// `progress` (what the command line's progress bar shows).
  package static func load(
    manifest: Manifest, manifestPath: String, allowsDataOutsideFolder: Bool = false,
    progress: LoadProgress?
  ) throws(LoadError) -> (SearchModel, LoadReport) {
    let path = manifest.dataFilePath(manifestPath: manifestPath)
    do {
      _ = try manifest.schema()
    } catch {
      throw LoadError(file: manifestPath, reason: error.reason, hint: error.hint)
    }
    if !allowsDataOutsideFolder {
      try DataFileLocation.check(dataPath: path, manifest: manifest, manifestPath: manifestPath)
    }
    let input: LineBatches
    do {
      input = try LineBatches(path: path, regularOnly: true)
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
    switch failure {
    case .system(let message):
      return LoadError(
        file: path, reason: "cannot read the data file: \(message)",
        hint: "\(manifestPath) names it \"\(manifest.dataFile)\", relative to the manifest's folder"
      )
    case .notRegular:
      return LoadError(
        file: path, reason: "cannot read the data file: \(failure.message)", hint: failure.hint)
    default: break
    }
    return LoadError(file: path, line: failure.line, reason: failure.message, hint: failure.hint)
  }

  /// Loads a data file given as bytes; `source` names it in errors (a path, or "<stdin>").
  ///
  /// - Throws: ``LoadError`` when the manifest is not valid or does not fit the file.
  public static func load(bytes: [UInt8], source: String, manifest: Manifest) throws(LoadError)
    -> (SearchModel, LoadReport)
  {
    try load(bytes: bytes, source: source, manifest: manifest, manifestFile: nil)
  }

  /// The model of `filter`: one item per line of `input`, with ``SearchModel/Schema/lines``.
  ///
  /// Every line becomes an item, an empty line too, so item positions are line numbers minus
  /// one; the item's one value is the line as searched (without a final "\r"). Should the text
  /// pass 2 GiB, the lines from the first that does not fit on are left out (then the model has
  /// fewer items than `input` has lines).
  ///
  /// - Complexity: O(*n*) in the size of the input, one copy of its bytes.
  package static func loadLines(_ input: LineInput) -> SearchModel {
    var model = SearchModel(schema: .lines)
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

  /// The most bytes a field's text may take (values and their separators), as ``SearchModel`` allows.
  static let textLimit = LineInput.maximumSize

  /// ``load(bytes:source:manifest:)`` with the manifest file for errors, and a limit on each
  /// field's text that tests can lower.
  static func load(
    bytes: [UInt8], source: String, manifest: Manifest, manifestFile: String?,
    textLimit: Int = textLimit, batchBytes: Int = batchBytes, progress: LoadProgress? = nil
  ) throws(LoadError) -> (SearchModel, LoadReport) {
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

  /// The most bytes a data file may hold: the limit of every input read whole
  /// (`filter --input`, standard input), which a model could not hold more of.
  ///
  /// An endless file (`/dev/urandom`, a pipe that never ends) stops here with an error instead
  /// of being read until memory or patience runs out.
  static let fileLimit = LineInput.maximumSize

  /// Why a load from batches stopped.
  enum BatchFailure: Error {
    case reading(FileBytes.Failure)
    case loading(LoadError)
  }

  /// Loads the batches of `input` one after the other into one model, so that the file is
  /// never held whole.
  static func load(
    _ input: consuming LineBatches, source: String, manifest: Manifest, manifestFile: String?,
    textLimit: Int = textLimit, batchBytes: Int = batchBytes, fileLimit: Int = fileLimit,
    progress: LoadProgress? = nil
  ) throws(BatchFailure) -> (SearchModel, LoadReport) {
    let schema: SearchModel.Schema
    do {
      schema = try manifest.schema()
    } catch {
      throw .loading(
        LoadError(
          file: manifestFile ?? "manifest \"\(manifest.name)\"", reason: error.reason,
          hint: error.hint))
    }
    var reader = DataSetReader(
      source: source, manifest: manifest, model: SearchModel(schema: schema), textLimit: textLimit,
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
      // A binary file is refused as a whole, as `filter` refuses it, not read line by line
      // into rejections until it ends (if it ever does).
      if offset == 0, let kind = NotUTF8.kind(of: batch.bytes.prefix(1 << 16)) {
        throw .loading(
          LoadError(
            file: source, line: 1, reason: "the data file is \(kind), not text",
            hint:
              "name a \(manifest.format == .tsv ? "TSV" : "JSON Lines") file in the manifest's \"data\""
          ))
      }
      if offset + batch.bytes.count > fileLimit {
        let within = batch.bytes.prefix(fileLimit - offset)
        throw .reading(
          .tooLarge(
            line: reader.linesHandedIn + within.count { $0 == 0x0A } + 1, limit: fileLimit))
      }
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
