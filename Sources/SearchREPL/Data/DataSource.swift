import ArgumentParser
import SearchCore
import SearchDataSets
import SearchEngine

/// Where `filter`'s items come from: lines of text, or a data set.
struct DataSource {
  let model: SearchModel
  /// The lines, when the items are lines: printed back byte for byte.
  let lines: LineInput?

  static func load(
    input: String?, corpus: String?, allowsDataOutsideFolder: Bool = false,
    progress: LoadProgress? = nil
  ) throws -> DataSource {
    if let corpus {
      let manifest = try Manifest.load(from: corpus)
      let (model, report) = try DataSetLoader.load(
        manifest: manifest, manifestPath: corpus,
        allowsDataOutsideFolder: allowsDataOutsideFolder, progress: progress)
      if !report.rejected.isEmpty {
        let shown = report.rejected.prefix(20).map(\.description)
        let more = report.rejected.count > 20 ? "\n… and \(report.rejected.count - 20) more" : ""
        throw CommandError(
          "\(report.rejected.count) of \(report.linesRead) lines rejected:\n"
            + shown.joined(separator: "\n") + more)
      }
      return DataSource(model: model, lines: nil)
    }
    let lines = try LineInput(readingFile: input)
    let model = DataSetLoader.loadLines(lines)
    guard model.count == lines.count else {
      throw CommandError(
        "\(lines.source): too much text: the items pass 2 GiB from line \(model.count + 1) on")
    }
    return DataSource(model: model, lines: lines)
  }

  func writeItem(_ id: ItemID, to output: inout OutputBuffer) {
    if let lines {
      lines.bytes.withUnsafeBufferPointer { bytes in
        output.append(
          UnsafeBufferPointer(rebasing: bytes[lines.printedRange(ofLine: Int(id.rawValue))]))
      }
    } else {
      var text = model.display(id)
      text.withUTF8 { output.append($0) }
    }
    output.append(0x0A)
  }

  /// One line of `filter --format jsonl`: the item, its highlights and, when the query
  /// tolerates typos, how many it needed (`typos`).
  func jsonLine(_ id: ItemID, highlights: [SearchResult.Highlight], typos: Int? = nil) -> String {
    var object = JSONObject()
    if lines != nil {
      object.add("line", Int(id.rawValue) + 1)
      object.add("text", model.values(of: id, field: 0).first ?? "")
      object.add("ranges", raw: JSONObject.ranges(highlights.first?.utf16Ranges ?? []))
    } else {
      object.add("id", Int(id.rawValue))
      object.add("item", model.display(id))
      let matches = highlights.map { highlight in
        var match = JSONObject()
        match.add("field", model.schema.fields[highlight.field].name)
        match.add("value", highlight.value)
        match.add("text", highlight.text)
        match.add("ranges", raw: JSONObject.ranges(highlight.utf16Ranges))
        return match.json
      }
      object.add("matches", raw: JSONObject.array(matches))
    }
    if let typos { object.add("typos", typos) }
    return object.json
  }
}
