// The manifest reader: any bytes give a manifest or a ManifestError that names the file, and
// a line and column inside it when it has them; a manifest's schema is made or refused, never
// a trap.

/// One input: the manifest's bytes.
func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let bytes = input.rest()
  let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
  do {
    let manifest = try Manifest(json: bytes, file: "fuzz.manifest.json")
    _ = try? manifest.schema()
  } catch {
    require(
      error.file == "fuzz.manifest.json", "a manifest error names \(String(describing: error.file))"
    )
    require(!error.reason.isEmpty, "a manifest error without a reason")
    if let line = error.line {
      require(line >= 1 && line <= lines.count, "line \(line) of \(lines.count)")
      if let column = error.column {
        require(
          column >= 1 && column <= lines[line - 1].count + 1,
          "column \(column) of a line of \(lines[line - 1].count) bytes")
      }
    }
  }
  return 0
}
