// The data readers, TSV and JSON Lines, through the loader an app and the CLI use: whatever
// the bytes, nothing traps; every line read is loaded or rejected (loaded + rejected == lines
// read, and the model holds the loaded ones); every rejection names the source and a line
// that exists, in file order, with a column inside that line.

/// The manifests the bytes are read with: TSV with a header, a multi-value field and an
/// integer attribute; TSV by column number without a header; JSON Lines with a list field.
private let manifests: [Manifest] = [
  #"{"name": "t", "data": "d", "format": "tsv", "header": true,"#
    + #" "fields": [{"name": "name"}, {"name": "alt", "source": "alt", "separator": ","}],"#
    + #" "attributes": [{"name": "n", "type": "integer"}, {"name": "kind"}],"#
    + #" "scopes": [{"title": "All"}, {"title": "A", "attribute": "kind", "values": ["a"]}]}"#,
  #"{"name": "t", "data": "d", "format": "tsv", "header": false,"#
    + #" "fields": [{"name": "word", "source": 1}], "attributes": [{"name": "lang", "source": 2}]}"#,
  #"{"name": "j", "data": "d", "format": "jsonl", "fields": [{"name": "text"},"#
    + #" {"name": "tags"}], "attributes": [{"name": "author"}, {"name": "id", "type": "integer"}]}"#,
].compactMap { try? Manifest(json: Array($0.utf8), file: "fuzz.manifest.json") }

/// One input: which manifest, then the data file's bytes.
func fuzzLoaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  require(manifests.count == 3, "a harness manifest does not parse")
  var input = FuzzInput(data, size)
  let manifest = manifests[input.below(manifests.count)]
  let bytes = input.rest()
  let (model, report): (SearchModel, LoadReport)
  do {
    (model, report) = try DataSetLoader.load(bytes: bytes, source: "fuzz.data", manifest: manifest)
  } catch {
    // A file the manifest does not fit (a header without a named column): one error, naming
    // the file.
    require(error.file == "fuzz.data", "a load error names \(String(describing: error.file))")
    return 0
  }
  require(
    report.loaded + report.rejected.count == report.linesRead,
    "loaded \(report.loaded) + rejected \(report.rejected.count) ≠ read \(report.linesRead)")
  require(model.count == report.loaded, "the model has \(model.count), loaded \(report.loaded)")
  // The lines of the file, as a reader counts them: split at "\n".
  let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
  var previous = 0
  for rejection in report.rejected {
    require(
      rejection.file == "fuzz.data", "a rejection names \(String(describing: rejection.file))")
    guard let line = rejection.line else {
      require(false, "a rejection without a line: \(rejection)")
      continue
    }
    require(
      line > previous && line <= lines.count,
      "rejection at line \(line) after \(previous), of \(lines.count) lines")
    previous = line
    if let column = rejection.column, line > 0, line <= lines.count {
      require(
        column >= 1 && column <= lines[line - 1].count + 1,
        "column \(column) of a line of \(lines[line - 1].count) bytes")
    }
    require(!rejection.reason.isEmpty, "a rejection without a reason")
  }
  return 0
}
