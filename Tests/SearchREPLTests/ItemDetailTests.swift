import Foundation
import SearchCore
import SearchDataSets
import SearchEngine
import Testing

@testable import SearchREPL

/// An item's detail, as `select` prints it and `live` shows it, marks what the query matched
/// in every value, also the values the row's display leaves out (an alternate name).
///
/// Three cities with alternate names, in a data set of the cities' shape: fields "name" and
/// "alternate names" (comma-separated), scopes "All" and "Name" (the name alone).
@Suite struct ItemDetailTests {
  private static let rows = """
    name\talternatenames\tcountry
    Moscow\tMoskva,Москва,Moscou\tRU
    Saint Petersburg\tSankt-Peterburg,Санкт-Петербург\tRU
    Kyiv\tKiev,Київ\tUA

    """

  private static let manifest = """
    {"name": "cities", "data": "cities.tsv", "format": "tsv", "header": true,
     "fields": [{"name": "name"}, {"name": "alternate names", "source": "alternatenames",
                 "separator": ","}],
     "attributes": [{"name": "country"}],
     "scopes": [{"title": "All"}, {"title": "Name", "fields": ["name"]}],
     "display": "{name} ({country})"}
    """

  private static func corpus() throws -> SearchCorpus {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("ItemDetailTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try rows.write(
      to: folder.appendingPathComponent("cities.tsv"), atomically: true, encoding: .utf8)
    let path = folder.appendingPathComponent("cities.manifest.json").path
    try manifest.write(toFile: path, atomically: true, encoding: .utf8)
    let (model, report) = try DataSetLoader.load(
      manifest: try Manifest.load(from: path), manifestPath: path)
    #expect(report.rejected.isEmpty)
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  /// The marked runs of each entry, by name.
  private static func marks(_ entries: [(name: String, value: MarkedText)]) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for (name, value) in entries {
      result[name] = value.runs.filter(\.isMarked).map { String($0.text) }
    }
    return result
  }

  @Test func aMatchInAnAlternateNameIsMarked() throws {
    let corpus = try Self.corpus()
    let query = try SearchQuery("москва", normalizer: corpus.normalizer)
    let entries = ItemDetail.entries(of: ItemID(rawValue: 0), in: corpus, query: query)
    #expect(entries.map(\.name) == ["name", "alternate names", "country"])
    #expect(entries[1].value.text == "Moskva, Москва, Moscou")
    #expect(Self.marks(entries) == ["name": [], "alternate names": ["Москва"], "country": []])
  }

  /// Every value's match is marked, at its place in the joined text; the scope "Name"
  /// searches the name alone, so only the name is marked there.
  @Test func everyValueAndOnlyTheScopesFields() throws {
    let corpus = try Self.corpus()
    let query = try SearchQuery("mos", normalizer: corpus.normalizer)
    let all = ItemDetail.entries(of: ItemID(rawValue: 0), in: corpus, query: query)
    #expect(Self.marks(all)["name"] == ["Mos"])
    #expect(Self.marks(all)["alternate names"] == ["Mos", "Mos"])
    let alternates = all[1].value
    let offsets = alternates.marks.map {
      alternates.text.distance(from: alternates.text.startIndex, to: $0.lowerBound)
    }
    // "Moskva, Москва, Moscou": the first and the third value.
    #expect(offsets == [0, 16])
    let name = ItemDetail.entries(of: ItemID(rawValue: 0), in: corpus, query: query, scope: 1)
    #expect(Self.marks(name) == ["name": ["Mos"], "alternate names": [], "country": []])
  }

  @Test func noQueryMarksNothing() throws {
    let corpus = try Self.corpus()
    let entries = ItemDetail.entries(of: ItemID(rawValue: 2), in: corpus)
    #expect(entries.map(\.value.text) == ["Kyiv", "Kiev, Київ", "UA"])
    #expect(entries.allSatisfy { $0.value.marks.isEmpty })
  }

  /// The live view's detail entry wraps between words and keeps the styles across lines:
  /// the label bold, the match bold and underlined (SGR 1;4), the rest plain.
  @Test func aDetailEntryWrapsWithItsMarks() throws {
    let corpus = try Self.corpus()
    let query = try SearchQuery("петербург", normalizer: corpus.normalizer)
    let entries = ItemDetail.entries(of: ItemID(rawValue: 1), in: corpus, query: query)
    let lines = LiveScreen.detailEntry(name: entries[1].name, value: entries[1].value, width: 30)
    #expect(
      lines.map { REPLOutput.withoutSGR($0.text) } == [
        "  alternate names:", "    Sankt-Peterburg,", "    Санкт-Петербург",
      ])
    #expect(lines[0].text == "\u{1B}[1m  alternate names:\u{1B}[0m")
    #expect(lines[2].text.contains("\u{1B}[1;4mПетербург\u{1B}[0m"))
    #expect(!lines[1].text.contains("\u{1B}[1;4m"))
  }
}
