import Foundation
import Testing

@testable import SearchDataSets
@testable import SearchEngine

@Suite struct ManifestTests {
  static let cities = """
    {
      "name": "cities",
      "description": "GeoNames cities with population ≥ 15,000",
      "data": "cities.tsv",
      "format": "tsv",
      "header": true,
      "fields": [
        {"name": "name", "source": "name", "searched": true},
        {"name": "alternate names", "source": "alternatenames", "searched": true, "separator": ","},
        {"name": "ascii", "source": 3, "searched": false}
      ],
      "attributes": [
        {"name": "continent", "source": "continent"},
        {"name": "population", "source": "population", "type": "integer"}
      ],
      "scopes": [
        {"title": "All"},
        {"title": "Europe", "attribute": "continent", "values": ["EU"]},
        {"title": "Name", "fields": ["name"]}
      ],
      "display": "{name} ({continent})"
    }
    """

  private func manifest(_ text: String) throws(ManifestError) -> Manifest {
    try Manifest(json: Array(text.utf8), file: "m.json")
  }

  /// The error a manifest text gives, as one line.
  private func failure(_ text: String) -> String? {
    do {
      _ = try manifest(text)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func readsEveryKeyOfTheCitiesManifest() throws {
    let cities = try manifest(Self.cities)
    #expect(cities.name == "cities")
    #expect(cities.summary == "GeoNames cities with population ≥ 15,000")
    #expect(cities.dataFile == "cities.tsv")
    #expect(cities.format == .tsv)
    #expect(cities.hasHeader)
    #expect(
      cities.fields == [
        Manifest.Field(name: "name", source: .named("name")),
        Manifest.Field(name: "alternate names", source: .named("alternatenames"), separator: ","),
        Manifest.Field(name: "ascii", source: .column(3), isSearched: false),
      ])
    #expect(
      cities.attributes == [
        Manifest.Attribute(name: "continent", source: .named("continent")),
        Manifest.Attribute(name: "population", source: .named("population"), type: .integer),
      ])
    #expect(
      cities.scopes == [
        ScopeBar.Scope(title: "All"),
        ScopeBar.Scope(title: "Europe", attribute: "continent", values: ["EU"]),
        ScopeBar.Scope(title: "Name", fields: ["name"]),
      ])
    #expect(cities.displayTemplate == "{name} ({continent})")
  }

  @Test func schemaHasTheFieldsAttributesScopesAndDisplay() throws {
    let schema = try manifest(Self.cities).schema()
    #expect(schema.fields.map(\.name) == ["name", "alternate names", "ascii"])
    #expect(schema.fields.map(\.isSearched) == [true, true, false])
    #expect(schema.attributes == ["continent", "population"])
    #expect(schema.scopeBar.titles == ["All", "Europe", "Name"])
    #expect(schema.scopeBar.scopes[1].values == ["EU"])
    #expect(schema.displayTemplate == "{name} ({continent})")
  }

  @Test func omittedKeysTakeTheirDefaults() throws {
    let minimal = try manifest(
      #"{"name": "n", "data": "d.jsonl", "format": "jsonl", "fields": [{"name": "title"}]}"#)
    #expect(minimal.summary == nil)
    #expect(!minimal.hasHeader)
    #expect(minimal.fields == [Manifest.Field(name: "title", source: .named("title"))])
    #expect(minimal.fields[0].isSearched)
    #expect(minimal.fields[0].separator == nil)
    #expect(minimal.attributes.isEmpty)
    #expect(minimal.displayTemplate == nil)
    #expect(try minimal.schema().scopeBar.titles == ["All"])
  }

  @Test func aScopeBarWithoutAllGetsOne() throws {
    let text = #"""
      {"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 1}],
       "attributes": [{"name": "kind", "source": 2}],
       "scopes": [{"title": "Fruit", "attribute": "kind", "values": ["fruit", "berry"]}]}
      """#
    #expect(try manifest(text).schema().scopeBar.titles == ["All", "Fruit"])
  }

  @Test func integerScopeValuesAreCanonical() throws {
    let text = #"""
      {"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 1}],
       "attributes": [{"name": "rank", "source": 2, "type": "integer"}],
       "scopes": [{"title": "Top", "attribute": "rank", "values": [1, "+002", "-0"]}]}
      """#
    #expect(try manifest(text).schema().scopeBar.scopes[1].values == ["1", "2", "0"])
  }

  @Test func numberAttributesReachTheSchema() throws {
    let text = #"""
      {"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 1}],
       "attributes": [{"name": "year", "source": 2, "type": "integer", "matchNumbers": true},
                      {"name": "price", "source": 3, "type": "decimal", "matchNumbers": true},
                      {"name": "weight", "source": 4, "type": "decimal"}],
       "scopes": [{"title": "Cheap", "attribute": "price", "values": [9.90, "010.5"]}]}
      """#
    let schema = try manifest(text).schema()
    #expect(schema.numberAttributes == ["year", "price"])
    #expect(schema.scopeBar.scopes[1].values == ["9.9", "10.5"])
  }

  @Test(arguments: [
    (
      #"""
      {"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 1}],
       "attributes": [{"name": "kind", "source": 2, "matchNumbers": true}]}
      """#,
      "m.json:2:63: attribute \"kind\" matches numbers but its values are strings; give it "
        + "\"type\": \"integer\" or \"decimal\""
    ),
    (
      #"""
      {"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 1}],
       "attributes": [{"name": "price", "source": 2, "type": "decimal"}],
       "scopes": [{"title": "Cheap", "attribute": "price", "values": ["cheap"]}]}
      """#,
      "m.json: scope \"Cheap\" keeps \"cheap\", but attribute \"price\" is a decimal number; "
        + "list values of the attribute's type"
    ),
  ])
  func badNumberAttributesAreExplained(text: String, message: String) {
    #expect(failure(text) == message)
  }

  @Test(arguments: [
    // Unknown names in scopes and the display template, all named in one error.
    (
      #"""
      {"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "name"}],
       "attributes": [{"name": "continent"}],
       "scopes": [{"title": "Europe", "attribute": "contnent", "values": ["EU"]},
                  {"title": "Name", "fields": ["name", "nmae"]}],
       "display": "{name} {country}"}
      """#,
      "m.json: unknown names: scope \"Europe\" filters on attribute \"contnent\"; scope \"Name\" "
        + "searches field \"nmae\"; display uses \"{country}\"; use a declared name (fields: "
        + "name; attributes: continent) or declare it"
    ),
    (
      "{\"name\": \"n\",\n  \"data\": \"d\",\n  \"format\": \"tsv\",\n}",
      "m.json:4:1: invalid JSON: a comma before '}' (JSON allows no trailing comma); fix the "
        + "JSON syntax: double quotes around keys and strings, commas between entries, none "
        + "after the last; no comments"
    ),
    (
      "{\"name\": \"n\"\n \"data\": \"d\"}",
      "m.json:2:2: invalid JSON: expected ',' or '}' after a value, found '\"'; fix the JSON "
        + "syntax: double quotes around keys and strings, commas between entries, none after the "
        + "last; no comments"
    ),
    (
      #"{"name": "n", "data": "d", "format": "csv", "fields": [{"name": "a"}]}"#,
      "m.json:1:38: unknown format \"csv\"; \"tsv\" (tab-separated values) or \"jsonl\" (one "
        + "JSON object per line)"
    ),
    (
      #"{"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 1, "seperator": ","}]}"#,
      "m.json:1:83: unknown key \"seperator\" in fields[0]; the keys are name, source, searched, "
        + "separator (spelled exactly so)"
    ),
    (
      #"{"name": "n", "format": "tsv", "fields": []}"#,
      "m.json:1:1: the manifest has no \"data\"; give the data file's path relative to the "
        + "manifest, such as \"cities.tsv\""
    ),
    (
      #"{"name": "n", "data": "d", "format": "tsv", "header": "yes", "fields": []}"#,
      "m.json:1:55: header must be true or false, not a string; true when the first line of the "
        + "TSV names the columns"
    ),
    (
      #"{"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": [1]}]}"#,
      "m.json:1:80: fields[0].source must be a column name, a column number or a key, not an "
        + "array; a column name (TSV with a header), a column number from 1 (TSV), or a key (JSON "
        + "Lines)"
    ),
    (
      #"{"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a"}]}"#,
      "m.json: field \"a\" has source \"a\", a column name, but the TSV has no header; set "
        + "\"header\": true if the first line names the columns, or give a column number"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "a", "source": 2}]}"#,
      "m.json: field \"a\" has source 2, a column number, but the format is jsonl; JSON Lines "
        + "values are found by key: give the key as a string"
    ),
    (
      #"{"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a", "source": 0}]}"#,
      "m.json: field \"a\" has source 0; column numbers start at 1"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "a"}], "attributes": [{"name": "a"}]}"#,
      "m.json: the name \"a\" is used twice; fields and attributes need distinct names (the "
        + "display template and scopes use them)"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "a", "separator": ""}]}"#,
      "m.json: field \"a\" has an empty separator; give the text between values, such as \",\", "
        + "or remove \"separator\""
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [], "name": "m"}"#,
      "m.json:1:61: the key \"name\" appears twice in the manifest; keep one of them"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": []}"#,
      "m.json: the manifest has no fields; add at least one field, e.g. \"fields\": [{\"name\": "
        + "\"name\"}]"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "a"}], "attributes": [{"name": "b", "type": "date"}]}"#,
      "m.json:1:111: unknown type \"date\" in attributes[0].type; \"string\", \"integer\" or \"decimal\""
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "a"}], "scopes": [{"title": "X", "values": ["1"]}]}"#,
      "m.json: scope \"X\" lists values but no attribute; add \"attribute\": the attribute whose "
        + "values these are"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "a"}], "scopes": [{"title": "X"}, {"title": "x", "fields": ["a"]}]}"#,
      "m.json: two scopes are titled \"x\"; scopes are chosen by title, ignoring case: give each a "
        + "distinct title"
    ),
    (
      #"{"name": "n", "data": "d", "format": "jsonl", "header": true, "fields": [{"name": "a"}]}"#,
      "m.json: \"header\" is true but the format is jsonl; JSON Lines has no header line; remove "
        + "\"header\""
    ),
    (
      "[]",
      "m.json:1:1: the manifest must be an object, not an array; a manifest is one JSON object "
        + "with \"name\", \"data\", \"format\" and \"fields\""
    ),
  ])
  func badManifestsAreExplained(text: String, message: String) {
    #expect(failure(text) == message)
  }

  /// The manifest's "ranking": attributes after exactness in the default rules, or a whole
  /// order of named rules.
  @Test func rankingNamesAttributesOrTheWholeOrder() throws {
    func ranking(_ json: String) throws -> Ranking {
      try manifest(
        """
        {"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "name"}],
         "attributes": [{"name": "population", "type": "integer"}, {"name": "price", "type": "decimal"}],
         "ranking": \(json)}
        """
      ).schema().ranking
    }
    #expect(try manifest(Self.cities).ranking == .default)
    #expect(
      try ranking(#"[{"attribute": "population", "order": "descending"}]"#)
        == Ranking.default.with(.attribute("population", .descending)))
    #expect(
      try ranking(#"["typos", {"attribute": "price", "order": "ascending"}, "words"]"#)
        == Ranking([.typos, .attribute("price", .ascending), .words]))
    #expect(try ranking("[]") == .default)
  }

  @Test(arguments: [
    (#"["words", "popularity"]"#, #"m.json:3:23: unknown ranking rule "popularity""#),
    (#"[{"attribute": "population", "order": "down"}]"#, #"unknown order "down""#),
    (#"[{"attribute": "population"}]"#, #"has no "order""#),
    (#"["typos", "typos"]"#, "ranks by typos a second time"),
    (
      #"[{"attribute": "price", "order": "ascending"}, {"attribute": "price", "order": "descending"}]"#,
      "ranks by price descending a second time"
    ),
    (#"[{"attribute": "area", "order": "ascending"}]"#, #"ranking uses attribute "area""#),
    (#"[{"attribute": "kind", "order": "ascending"}]"#, #"attribute "kind", which is text"#),
  ])
  func badRankingsAreExplained(json: String, message: String) {
    let text = """
      {"name": "n", "data": "d", "format": "jsonl", "fields": [{"name": "name"}],
       "attributes": [{"name": "kind"}, {"name": "price", "type": "decimal"}],
       "ranking": \(json)}
      """
    let failure = failure(text)
    #expect(failure?.contains(message) == true, "\(failure ?? "no error")")
  }

  @Test func invalidUTF8IsReportedWithItsPlace() {
    var bytes = Array("{\"name\":\n \"caf".utf8)
    bytes += [0xE9, 0x22, 0x7D]
    #expect {
      _ = try Manifest(json: bytes, file: "latin1.json")
    } throws: { error in
      (error as? ManifestError)?.description
        == "latin1.json:2:6: invalid UTF-8 (byte 0xE9); save the manifest as UTF-8"
    }
  }

  @Test func aManifestBuiltInCodeIsCheckedBySchema() {
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .tsv, hasHeader: true,
      fields: [Manifest.Field(name: "a")],
      scopes: [ScopeBar.Scope(title: "Big", attribute: "population", values: ["1"])])
    #expect {
      _ = try manifest.schema()
    } throws: { error in
      let error = error as? ManifestError
      return error?.file == nil
        && error?.description.hasPrefix(
          "unknown names: scope \"Big\" filters on attribute \"population\"") == true
    }
  }

  @Test func loadsFromAFileAndFindsTheDataBesideIt() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("cities.manifest.json", Self.cities)
    let cities = try Manifest.load(from: path)
    #expect(cities.name == "cities")
    #expect(cities.dataFilePath(manifestPath: path) == folder.path + "/cities.tsv")
  }

  @Test func errorsOfALoadedFileNameIt() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("bad.json", #"{"name": "n", "data": "d", "format": "xml"}"#)
    #expect {
      _ = try Manifest.load(from: path)
    } throws: { error in
      (error as? ManifestError)?.description.hasPrefix("\(path):1:38: unknown format \"xml\"")
        == true
    }
    let semantic = try folder.write(
      "semantic.json", #"{"name": "n", "data": "d", "format": "tsv", "fields": [{"name": "a"}]}"#)
    #expect {
      _ = try Manifest.load(from: semantic)
    } throws: { error in
      (error as? ManifestError)?.description.hasPrefix("\(semantic): field \"a\" has source")
        == true
    }
  }

  @Test func aMissingFileIsNamed() {
    #expect {
      _ = try Manifest.load(from: "/nonexistent/cities.manifest.json")
    } throws: { error in
      (error as? ManifestError)?.description.hasPrefix(
        "/nonexistent/cities.manifest.json: cannot read the manifest: No such file or directory;")
        == true
    }
  }

  @Test(arguments: [
    ("Corpus/cities/cities.manifest.json", "cities.tsv", "Corpus/cities/cities.tsv"),
    ("cities.manifest.json", "cities.tsv", "cities.tsv"),
    ("/data/m.json", "sub/cities.tsv", "/data/sub/cities.tsv"),
    ("Corpus/m.json", "/abs/cities.tsv", "/abs/cities.tsv"),
  ])
  func dataFileIsRelativeToTheManifest(manifestPath: String, dataFile: String, expected: String) {
    let manifest = Manifest(
      name: "n", dataFile: dataFile, format: .jsonl, fields: [Manifest.Field(name: "a")])
    #expect(manifest.dataFilePath(manifestPath: manifestPath) == expected)
  }
}

/// A folder under the system's temporary folder, removed when the value is dropped.
final class TemporaryFolder {
  let path: String

  init() throws {
    path =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("SearchDataSetsTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes a file into the folder and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    try write(name, Array(text.utf8))
  }

  /// Writes a file into the folder and returns its path.
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let file = path + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    return file
  }
}
