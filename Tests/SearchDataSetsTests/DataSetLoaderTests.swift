import Foundation
import Testing

@testable import SearchDataSets
@testable import SearchEngine

@Suite struct DataSetLoaderTests {
  // MARK: Helpers

  /// A TSV of cities with a header; the columns are not in the manifest's order.
  static let citiesTSV = """
    name\tcountry\talternatenames\tpopulation\tcontinent
    Zürich\tCH\tZurich,Zuerich,,Turitg\t341730\tEU
    Tokyo\tJP\t\t+08336599\tAS

    """

  static let citiesByName = Manifest(
    name: "cities", dataFile: "cities.tsv", format: .tsv, hasHeader: true,
    fields: [
      Manifest.Field(name: "name"),
      Manifest.Field(name: "alternate names", source: .named("alternatenames"), separator: ","),
    ],
    attributes: [
      Manifest.Attribute(name: "continent"),
      Manifest.Attribute(name: "population", type: .integer),
      Manifest.Attribute(name: "country"),
    ],
    scopes: [ScopeBar.Scope(title: "Europe", attribute: "continent", values: ["EU"])],
    displayTemplate: "{name} ({country}): {alternate names}")

  static let citiesByNumber = Manifest(
    name: "cities", dataFile: "cities.tsv", format: .tsv, hasHeader: false,
    fields: [
      Manifest.Field(name: "name", source: .column(1)),
      Manifest.Field(name: "alternate names", source: .column(3), separator: ","),
    ],
    attributes: [
      Manifest.Attribute(name: "continent", source: .column(5)),
      Manifest.Attribute(name: "population", source: .column(4), type: .integer),
      Manifest.Attribute(name: "country", source: .column(2)),
    ])

  static let citiesJSON = Manifest(
    name: "cities", dataFile: "cities.jsonl", format: .jsonl,
    fields: [
      Manifest.Field(name: "name"),
      Manifest.Field(name: "alternate names", source: .named("alt"), separator: "|"),
    ],
    attributes: [
      Manifest.Attribute(name: "continent"),
      Manifest.Attribute(name: "population", type: .integer),
    ],
    displayTemplate: "{name} [[{continent}]]")

  /// Loads `text`, and checks on the way that reading it in batches of a few bytes (lines
  /// crossing every batch boundary) gives the same items, report and error as reading it whole.
  private func load(_ text: String, _ manifest: Manifest, source: String = "data")
    throws -> (SearchModel, LoadReport)
  {
    let bytes = Array(text.utf8)
    let whole = Result {
      try DataSetLoader.load(bytes: bytes, source: source, manifest: manifest)
    }
    for batchBytes in [1, 7, 64] {
      let batched = Result {
        try DataSetLoader.load(
          bytes: bytes, source: source, manifest: manifest, manifestFile: nil,
          batchBytes: batchBytes)
      }
      switch (whole, batched) {
      case (.success(let a), .success(let b)):
        #expect(records(a.0) == records(b.0), "batches of \(batchBytes) bytes")
        #expect(a.1 == b.1, "batches of \(batchBytes) bytes")
      case (.failure(let a), .failure(let b)):
        #expect(a as? LoadError == b as? LoadError, "batches of \(batchBytes) bytes")
      default:
        Issue.record("batches of \(batchBytes) bytes: \(batched), whole: \(whole)")
      }
    }
    return try whole.get()
  }

  private func records(_ model: SearchModel) -> [SearchModel.Record] {
    model.ids.map { model.record(of: $0) }
  }

  /// Each rejection as "line:column: reason", the source checked against `source`.
  private func rejections(_ report: LoadReport, source: String = "data") -> [String] {
    report.rejected.map { error in
      #expect(error.file == source)
      #expect(error.hint?.isEmpty == false)
      return "\(error.line ?? 0):" + (error.column.map { "\($0):" } ?? "") + " \(error.reason)"
    }
  }

  // MARK: Files that are not data

  static let oneColumn = Manifest(
    name: "n", dataFile: "d", format: .tsv, fields: [Manifest.Field(name: "a", source: .column(1))])

  /// A data file whose start holds a NUL byte or a known binary signature is refused as a
  /// whole, at line 1, not read into a rejection per line until it ends.
  @Test(
    arguments: [
      ([0x61, 0x00, 0x62, 0x0A, 0x63, 0x0A], "a binary file (it holds NUL bytes)"),
      ([0x1F, 0x8B, 0x08, 0x00, 0x0A], "gzip data"),
    ] as [([UInt8], String)])
  func aBinaryDataFileIsRefusedAsAWhole(bytes: [UInt8], kind: String) {
    #expect {
      _ = try DataSetLoader.load(bytes: bytes, source: "d", manifest: Self.oneColumn)
    } throws: { error in
      guard let error = error as? LoadError else { return false }
      return error.line == 1 && error.reason == "the data file is \(kind), not text"
        && error.hint == "name a TSV file in the manifest's \"data\""
    }
    // Text with a bad byte further on is still read, the bad line rejected.
    #expect(throws: Never.self) {
      let (model, report) = try DataSetLoader.load(
        bytes: Array("a\nb\u{FF}\n".utf8) + [0xFF, 0x0A], source: "d", manifest: Self.oneColumn)
      #expect(model.count == 2 && report.rejected.count == 1)
    }
  }

  /// A data file that passes the size limit stops with an error at the line the limit falls
  /// in, after the batches before it were read: an endless file ends.
  @Test func aDataFilePastTheLimitStopsAtTheLineItReaches() {
    let bytes = Array(String(repeating: "abc\n", count: 10).utf8)
    for batchBytes in [1, 8, 64] {
      do {
        _ = try DataSetLoader.load(
          LineBatches(bytes: bytes), source: "d", manifest: Self.oneColumn, manifestFile: nil,
          batchBytes: batchBytes, fileLimit: 14)
        Issue.record("batches of \(batchBytes): loaded past the limit")
      } catch {
        guard case .reading(let failure) = error, case .tooLarge(let line, let limit) = failure
        else {
          Issue.record("batches of \(batchBytes): \(error)")
          continue
        }
        // Byte 15, the first past the limit, is in line 4 (bytes 13 to 16).
        #expect(line == 4 && limit == 14, "batches of \(batchBytes)")
      }
    }
    #expect(throws: Never.self) {
      _ = try DataSetLoader.load(
        LineBatches(bytes: bytes), source: "d", manifest: Self.oneColumn, manifestFile: nil,
        batchBytes: 8, fileLimit: 40)
    }
  }

  // MARK: TSV

  @Test func tsvWithHeaderFindsColumnsByName() throws {
    let (model, report) = try load(Self.citiesTSV, Self.citiesByName)
    #expect(report == LoadReport(linesRead: 2, loaded: 2, rejected: []))
    #expect(
      records(model) == [
        SearchModel.Record(
          fields: [["Zürich"], ["Zurich", "Zuerich", "Turitg"]],
          attributes: ["EU", "341730", "CH"]),
        SearchModel.Record(fields: [["Tokyo"], []], attributes: ["AS", "8336599", "JP"]),
      ])
    #expect(model.schema.scopeBar.titles == ["All", "Europe"])
  }

  @Test func tsvColumnsByNumberWithAndWithoutHeader() throws {
    let withHeader = try load(Self.citiesTSV, Self.citiesByName)
    var numbered = Self.citiesByNumber
    numbered.hasHeader = true
    let (model, report) = try load(Self.citiesTSV, numbered)
    #expect(report.linesRead == 2)
    #expect(records(model) == records(withHeader.0))

    let headless = String(Self.citiesTSV.drop { $0 != "\n" }.dropFirst())
    let (bare, bareReport) = try load(headless, Self.citiesByNumber)
    #expect(bareReport == LoadReport(linesRead: 2, loaded: 2))
    #expect(records(bare) == records(withHeader.0))
  }

  @Test func displayTemplateShowsFieldsAndAttributes() throws {
    let (model, _) = try load(Self.citiesTSV, Self.citiesByName)
    #expect(model.display(model.id(at: 0)) == "Zürich (CH): Zurich, Zuerich, Turitg")
    #expect(model.display(model.id(at: 1)) == "Tokyo (JP): ")
  }

  @Test func unknownAndUnclosedPlaceholdersStayText() throws {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], displayTemplate: "{name} {x} a{b"))
    let id = try model.append(SearchModel.Record(fields: [["Zürich"]], attributes: []))
    #expect(model.display(id) == "Zürich {x} a{b")
  }

  @Test func carriageReturnsAreStripped() throws {
    let text = "name\tpopulation\r\nA\t1\r\nB\t2\r\n"
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .tsv, hasHeader: true,
      fields: [Manifest.Field(name: "name")],
      attributes: [Manifest.Attribute(name: "population", type: .integer)])
    let (model, report) = try load(text, manifest)
    #expect(report == LoadReport(linesRead: 2, loaded: 2))
    #expect(
      records(model) == [
        SearchModel.Record(fields: [["A"]], attributes: ["1"]),
        SearchModel.Record(fields: [["B"]], attributes: ["2"]),
      ])
  }

  @Test func blankLinesInTheMiddleAreLinesAndAtTheEndAreIgnored() throws {
    let oneColumn = Manifest(
      name: "n", dataFile: "d", format: .tsv,
      fields: [Manifest.Field(name: "word", source: .column(1))])
    let (model, report) = try load("a\n\n\r\nb\n\n\r\n\n", oneColumn)
    #expect(report == LoadReport(linesRead: 4, loaded: 4))
    #expect(records(model).map(\.fields) == [[["a"]], [[]], [[]], [["b"]]])

    let (_, twoColumns) = try load("a\t1\n\nb\t2\n\n", Self.twoColumns)
    #expect(twoColumns.linesRead == 3)
    #expect(twoColumns.loaded == 2)
    #expect(rejections(twoColumns) == ["2: missing field \"b\" (1 column, 2 needed)"])
  }

  static let twoColumns = Manifest(
    name: "n", dataFile: "d", format: .tsv,
    fields: [
      Manifest.Field(name: "a", source: .column(1)), Manifest.Field(name: "b", source: .column(2)),
    ])

  @Test func aByteOrderMarkIsSkipped() throws {
    let (model, report) = try load("\u{FEFF}" + Self.citiesTSV, Self.citiesByName)
    #expect(report.loaded == 2)
    #expect(records(model)[0].fields[0] == ["Zürich"])
  }

  @Test func emptyFiles() throws {
    let (model, report) = try load("\n\r\n", Self.twoColumns)
    #expect(model.isEmpty)
    #expect(report == LoadReport())
    #expect {
      _ = try load("", Self.citiesByName, source: "cities.tsv")
    } throws: { error in
      (error as? LoadError)?.description
        == "cities.tsv: the file is empty, but the manifest says it has a header line; add the "
        + "header line, or set \"header\": false in the manifest"
    }
  }

  /// The cities TSV with a bad line of each kind between good ones.
  static let badTSV =
    Array(
      """
      name\tcountry\talternatenames\tpopulation\tcontinent
      Zürich\tCH\tZurich\t341730\tEU
      Bad
      """.utf8) + [0xC3, 0x28]
    + Array(
      """
      \tCH\t\t1\tEU
      Short\tCH
      Abc\tCH\t\tabc\tEU
      Abd\tCH\t\t12 000\tXX
      Tokyo\tJP\t\t8336599\tAS

      """.utf8)

  @Test func decimalAttributesAreCheckedAndCanonical() throws {
    let manifest = Manifest(
      name: "products", dataFile: "p.tsv", format: .tsv, hasHeader: true,
      fields: [Manifest.Field(name: "name")],
      attributes: [Manifest.Attribute(name: "price", type: .decimal, matchesNumbers: true)])
    let bytes = Array("name\tprice\nA\t0499.00\nB\t12,50\nC\t1e3\nD\t-0.50\n".utf8)
    let (model, report) = try DataSetLoader.load(bytes: bytes, source: "p.tsv", manifest: manifest)
    #expect(
      rejections(report, source: "p.tsv") == [
        "3:3: wrong type: price \"12,50\" is not a decimal number",
        "4:3: wrong type: price \"1e3\" is not a decimal number",
      ])
    #expect(
      report.rejected.first?.hint
        == "the manifest declares \"price\" a decimal number; fix the value, or make it a "
        + "string attribute")
    #expect(model.ids.map { model.attribute(0, of: $0) } == ["499", "-0.5"])
    #expect(model.schema.numberAttributes == ["price"])
  }

  @Test func everyTSVRejectionNamesItsPlace() throws {
    let (model, report) = try DataSetLoader.load(
      bytes: Self.badTSV, source: "Corpus/cities.tsv", manifest: Self.citiesByName)
    #expect(report.linesRead == 6)
    #expect(report.loaded == 2)
    #expect(report.loaded + report.rejected.count == report.linesRead)
    #expect(
      rejections(report, source: "Corpus/cities.tsv") == [
        "3:4: invalid UTF-8 (byte 0xC3)",
        "4: missing field \"alternate names\" (2 columns, 5 needed)",
        "5:9: wrong type: population \"abc\" is not an integer",
        "6:9: wrong type: population \"12 000\" is not an integer",
      ])
    #expect(
      report.rejected[2].description
        == "Corpus/cities.tsv:5:9: wrong type: population \"abc\" is not an integer; the "
        + "manifest declares \"population\" an integer; fix the value, or make it a string "
        + "attribute")
    #expect(
      report.rejected[0].hint
        == "the data file must be UTF-8; if it is text in another encoding, convert it first,"
        + " e.g. from Latin-1 with iconv -f latin1 -t utf-8")
    #expect(model.count == 2)
  }

  @Test func invalidUTF8IsFoundOnEveryLineItIsOn() throws {
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .tsv,
      fields: [Manifest.Field(name: "word", source: .column(1))])
    // Two bad lines in a row, a good one, then a sequence cut off by the end of the file.
    let bytes: [UInt8] = [0x61, 0xFF, 0x0A, 0xC3, 0x0A, 0x62, 0x0A, 0x63, 0xE2, 0x82]
    let (model, report) = try DataSetLoader.load(bytes: bytes, source: "w", manifest: manifest)
    #expect(report.linesRead == 4)
    #expect(
      rejections(report, source: "w") == [
        "1:2: invalid UTF-8 (byte 0xFF)", "2:1: invalid UTF-8 (byte 0xC3)",
        "4:2: invalid UTF-8 (byte 0xE2)",
      ])
    #expect(records(model) == [SearchModel.Record(fields: [["b"]])])
  }

  @Test func aMissingAttributeColumnIsNamed() throws {
    let (_, report) = try load("A\tCH\tx\n", Self.citiesByNumber)
    #expect(rejections(report) == ["1: missing attribute \"population\" (3 columns, 5 needed)"])
  }

  @Test func rejectedLinesLeaveNoTrace() throws {
    let (model, _) = try DataSetLoader.load(
      bytes: Self.badTSV, source: "cities.tsv", manifest: Self.citiesByName)
    let clean = """
      name\tcountry\talternatenames\tpopulation\tcontinent
      Zürich\tCH\tZurich\t341730\tEU
      Tokyo\tJP\t\t8336599\tAS
      """
    let (expected, _) = try load(clean, Self.citiesByName)
    expectSameContent(model, expected)
    // "XX" and "abc" were on rejected lines: no attribute value remembers them.
    #expect(!model.attributeValues.joined().contains("XX"))
  }

  private func expectSameContent(_ model: SearchModel, _ expected: SearchModel) {
    #expect(model.count == expected.count)
    #expect(model.ids == expected.ids)
    #expect(model.identityLimit == expected.identityLimit)
    #expect(records(model) == records(expected))
    #expect(model.columns.map(\.bytes) == expected.columns.map(\.bytes))
    #expect(model.columns.map(\.starts) == expected.columns.map(\.starts))
    #expect(model.attributeValues == expected.attributeValues)
    #expect(model.attributeOfItem == expected.attributeOfItem)
    #expect(model.version == expected.version)
  }

  @Test func aLineThatWouldPassTheTextLimitIsRejected() throws {
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .tsv,
      fields: [Manifest.Field(name: "a", source: .column(1))])
    let (model, report) = try DataSetLoader.load(
      bytes: Array("abcde\nfghij\nk\n".utf8), source: "d", manifest: manifest,
      manifestFile: nil, textLimit: 12)
    #expect(report.loaded == 2)
    #expect(rejections(report, source: "d") == ["2: field \"a\" would pass 2 GiB of text"])
    #expect(records(model).map(\.fields) == [[["abcde"]], [["k"]]])
  }

  @Test func headerProblemsFailTheWholeLoad() {
    let cases: [(String, Manifest, String)] = [
      (
        "name\tcountry\n", Self.citiesByName,
        "c.tsv:1: the header does not fit the manifest: no column \"alternatenames\" (for field "
          + "\"alternate names\"); no column \"continent\" (for attribute \"continent\"); no "
          + "column \"population\" (for attribute \"population\"); the header's columns are "
          + "\"name\", \"country\"; fix the manifest's \"source\" (a column name or number) or "
          + "the header"
      ),
      (
        "a\tb\ta\n", Self.named(["a"]),
        "c.tsv:1: the header does not fit the manifest: two columns \"a\" (1 and 3, for field "
          + "\"a\"); the header's columns are \"a\", \"b\", \"a\"; fix the manifest's \"source\" "
          + "(a column name or number) or the header"
      ),
      (
        "a\tb\n", Self.numbered(hasHeader: true),
        "c.tsv:1: the header does not fit the manifest: field \"c\" uses column 3, but the header "
          + "has 2; the header's columns are \"a\", \"b\"; fix the manifest's \"source\" (a "
          + "column name or number) or the header"
      ),
    ]
    for (text, manifest, message) in cases {
      #expect {
        _ = try load(text, manifest, source: "c.tsv")
      } throws: { error in
        (error as? LoadError)?.description == message
      }
    }
    #expect {
      _ = try DataSetLoader.load(
        bytes: [0x61, 0xFF, 0x0A, 0x62, 0x0A], source: "c.tsv", manifest: Self.named(["a"]))
    } throws: { error in
      (error as? LoadError)?.description.hasPrefix(
        "c.tsv:1: the header is not UTF-8 (byte 0xFF at column 2)") == true
    }
  }

  static func named(_ names: [String]) -> Manifest {
    Manifest(
      name: "n", dataFile: "d", format: .tsv, hasHeader: true,
      fields: names.map { Manifest.Field(name: $0) })
  }

  static func numbered(hasHeader: Bool) -> Manifest {
    Manifest(
      name: "n", dataFile: "d", format: .tsv, hasHeader: hasHeader,
      fields: [Manifest.Field(name: "c", source: .column(3))])
  }

  @Test func anInvalidManifestFailsTheLoad() {
    let manifest = Manifest(
      name: "broken", dataFile: "d", format: .tsv, fields: [Manifest.Field(name: "a")])
    #expect {
      _ = try load("x\n", manifest)
    } throws: { error in
      (error as? LoadError)?.description.hasPrefix(
        "manifest \"broken\": field \"a\" has source \"a\", a column name, but the TSV has no "
          + "header;") == true
    }
  }

  // MARK: JSON Lines

  @Test func jsonLinesTakeStringsArraysNumbersAndNull() throws {
    let text = #"""
      {"name": "Zürich", "alt": ["Zurich", "", "Zuerich"], "population": 341730, "continent": "EU", "extra": {"nested": [1, 2, {"a": null}]}}
      {"name": "Tokyo", "alt": null, "population": "+8336599", "continent": "AS"}
      {"population": -0, "continent": 1.50, "name": "Caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \t", "alt": "A|B||C"}
      {"name": "", "alt": [], "population": 1e0, "continent": null, "population": 7}
      """#
    let (model, report) = try load(text, Self.citiesJSON)
    #expect(report == LoadReport(linesRead: 4, loaded: 4))
    #expect(
      records(model) == [
        SearchModel.Record(
          fields: [["Zürich"], ["Zurich", "Zuerich"]], attributes: ["EU", "341730"]),
        SearchModel.Record(fields: [["Tokyo"], []], attributes: ["AS", "8336599"]),
        SearchModel.Record(
          fields: [["Café 😀 \"q\" \\ / \t"], ["A", "B", "C"]], attributes: ["1.50", "0"]),
        SearchModel.Record(fields: [[], []], attributes: ["", "7"]),
      ])
    #expect(model.display(model.id(at: 0)) == "Zürich [EU]")
  }

  @Test func jsonLinesWithCRLF() throws {
    let text =
      "{\"name\": \"a\", \"alt\": [], \"population\": 1, \"continent\": \"EU\"}\r\n"
      + "{\"name\": \"b\", \"alt\": [], \"population\": 2, \"continent\": \"EU\"}\r\n\r\n"
    let (model, report) = try load(text, Self.citiesJSON)
    #expect(report == LoadReport(linesRead: 2, loaded: 2))
    #expect(records(model).map(\.fields) == [[["a"], []], [["b"], []]])
  }

  /// A good JSON line, and bad ones of every kind.
  static let badJSON: [UInt8] =
    Array(
      #"""
      {"name": "ok", "alt": [], "population": 1, "continent": "EU"}
      {"name": "x", "alt": [], "population": 1.5, "continent": "EU"}
      [1, 2]
      {"name": "x" "alt": []}

      {"alt": [], "population": 1, "continent": "EU"}
      {"name": 5, "alt": [], "population": 1, "continent": "EU"}
      {"name": ["a", 1], "alt": [], "population": 1, "continent": "EU"}
      {"name": "x", "alt": [], "population": true, "continent": "EU"}
      {"name": "x", "alt": [], "population": 1, "continent": [1]}
      {"name": "x", "alt": [], "population": 1, "continent": "XX"} x
      {"name": "x", "alt": [], "continent": "EU"}
      {"name": "
      """#.utf8) + [0xE9]
    + Array("\", \"alt\": [], \"population\": 1, \"continent\": \"EU\"}\n".utf8)
    + Array(#"{"name": "last", "alt": [], "population": 2, "continent": "AS"}"#.utf8)

  @Test func everyJSONRejectionNamesItsPlace() throws {
    let (model, report) = try DataSetLoader.load(
      bytes: Self.badJSON, source: "c.jsonl", manifest: Self.citiesJSON)
    #expect(report.linesRead == 14)
    #expect(report.loaded == 2)
    #expect(report.loaded + report.rejected.count == report.linesRead)
    #expect(
      rejections(report, source: "c.jsonl") == [
        "2:40: wrong type: population 1.5 is not an integer",
        "3:1: not a JSON object (an array)",
        "4:14: invalid JSON: expected ',' or '}' after a value, found '\"'",
        "5: blank line",
        "6: missing key \"name\"",
        "7:10: wrong type: field \"name\" is a number, not a string or an array of strings",
        "8:16: wrong type: field \"name\" holds a number in its array, not a string",
        "9:40: wrong type: population is a boolean, not an integer",
        "10:56: wrong type: continent is an array, not a string or a number",
        "11:62: invalid JSON: unexpected 'x' after an object",
        "12: missing key \"population\"",
        "13:11: invalid UTF-8 (byte 0xE9)",
      ])
    #expect(records(model).map(\.fields) == [[["ok"], []], [["last"], []]])
    let (expected, _) = try load(
      #"""
      {"name": "ok", "alt": [], "population": 1, "continent": "EU"}
      {"name": "last", "alt": [], "population": 2, "continent": "AS"}
      """#, Self.citiesJSON)
    expectSameContent(model, expected)
  }

  @Test(arguments: [
    (#"{"name": "a\qb"}"#, "12: invalid JSON: invalid escape: '\\' followed by 'q'"),
    (
      #"{"name": "\ud800x"}"#,
      "11: invalid JSON: lone surrogate \\uD800 (JSON text must be Unicode)"
    ),
    (
      #"{"name": "\udc00"}"#, "11: invalid JSON: lone surrogate \\uDC00 (JSON text must be Unicode)"
    ),
    (#"{"name": "\u12"}"#, "11: invalid JSON: invalid \\u escape: four hex digits must follow \\u"),
    (
      "{\"name\": \"a\tb\"}",
      "12: invalid JSON: control character U+0009 in a string; write it as an escape such as \\t"
    ),
    (#"{"name": "ab"#, "10: invalid JSON: unterminated string"),
    (#"{"name": 012}"#, "10: invalid JSON: invalid number: no leading zeros"),
    (#"{"name": -}"#, "11: invalid JSON: invalid number: a digit must follow '-'"),
    (#"{"name": 1.}"#, "12: invalid JSON: invalid number: digits must follow '.'"),
    (#"{"name": 1e+}"#, "13: invalid JSON: invalid number: digits must follow the exponent"),
    (#"{"name": [1,]}"#, "13: invalid JSON: a comma before ']' (JSON allows no trailing comma)"),
    (#"{"name": tru}"#, "10: invalid JSON: expected a value (true, false or null), found 't'"),
    (#"{"name": }"#, "10: invalid JSON: expected a value, found '}'"),
    (#"{"name": "a",}"#, "14: invalid JSON: a comma before '}' (JSON allows no trailing comma)"),
    (#"{name: "a"}"#, "2: invalid JSON: expected a key in double quotes, found 'n'"),
    (#"{"name" "a"}"#, "9: invalid JSON: expected ':' after the key, found '\"'"),
    (#"{"name": "a""#, "13: invalid JSON: expected ',' or '}' after a value, found end of line"),
    (
      #"{"x": [[1]}, "name": "a"}"#,
      "11: invalid JSON: expected ',' or ']' after a value, found '}'"
    ),
    (#"{"name": "a"} // note"#, "15: invalid JSON: unexpected '/' after an object"),
    (#"{"x": "é" é}"#, "12: invalid JSON: expected ',' or '}' after a value, found 'é'"),
  ])
  func jsonSyntaxErrorsPointAtTheByte(line: String, expected: String) throws {
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .jsonl, fields: [Manifest.Field(name: "name")])
    let (model, report) = try load(line, manifest)
    #expect(model.isEmpty)
    #expect(rejections(report).map { $0.drop { $0 != ":" }.dropFirst() } == [expected[...]])
  }

  @Test func deepNestingIsRejectedNotOverflowed() throws {
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .jsonl, fields: [Manifest.Field(name: "name")])
    let deep = "{\"x\": " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    let (_, report) = try load(deep + ", \"name\": \"a\"}", manifest)
    #expect(
      rejections(report) == ["1:518: invalid JSON: arrays and objects nest deeper than 512 levels"])
  }

  @Test func jsonEscapesAndUnusedKeysAreRead() throws {
    let manifest = Manifest(
      name: "n", dataFile: "d", format: .jsonl, fields: [Manifest.Field(name: "name")])
    let text =
      #"{"skip": {"a": [true, false, null, -1.5e-3, "\u0041"]}, "name": "\u00e9\u0301\b\f\n\r"}"#
    let (model, report) = try load(text, manifest)
    #expect(report.loaded == 1)
    #expect(records(model) == [SearchModel.Record(fields: [["é\u{301}\u{8}\u{C}\n\r"]])])
    #expect(model.values(of: model.id(at: 0), field: 0)[0].unicodeScalars.count == 6)
  }

  // MARK: Files

  @Test func loadsTheDataFileBesideTheManifest() throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("cities.tsv", Self.badTSV)
    let manifestPath = try folder.write("cities.manifest.json", ManifestTests.cities)
    let manifest = try Manifest.load(from: manifestPath)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: manifestPath)
    #expect(report.linesRead == 6)
    #expect(report.rejected.first?.file == folder.path + "/cities.tsv")
    #expect(report.rejected.first?.line == 3)
    #expect(model.display(model.id(at: 0)) == "Zürich (EU)")
  }

  /// A manifest's data file outside its folder (a path up, an absolute path, a symbolic link
  /// beside it that points out) is refused unless the caller allows it; below the folder is
  /// inside.
  @Test func aDataFileOutsideTheManifestsFolderIsRefusedUnlessAllowed() throws {
    let outer = try TemporaryFolder()
    let secret = try outer.write("secret.tsv", "Zürich\tEU\t400000\n")
    try FileManager.default.createDirectory(
      atPath: outer.path + "/sets/sub", withIntermediateDirectories: true)
    _ = try outer.write("sets/sub/inside.tsv", "Zürich\tEU\t400000\n")
    try FileManager.default.createSymbolicLink(
      atPath: outer.path + "/sets/link.tsv", withDestinationPath: secret)
    let cases = [
      ("../secret.tsv", false), (secret, false), ("link.tsv", false), ("sub/inside.tsv", true),
      ("sub/../sub/inside.tsv", true),
    ]
    for (data, inside) in cases {
      let manifest = Manifest(
        name: "n", dataFile: data, format: .tsv,
        fields: [Manifest.Field(name: "name", source: .column(1))])
      let manifestPath = outer.path + "/sets/n.manifest.json"
      let refused: LoadError?
      do {
        _ = try DataSetLoader.load(manifest: manifest, manifestPath: manifestPath)
        refused = nil
      } catch { refused = error }
      if inside {
        #expect(refused == nil, "\(data): \(String(describing: refused))")
      } else {
        #expect(refused?.file == manifestPath, "\(data)")
        #expect(
          refused?.reason
            == "the data file \"\(data)\" is \(secret), outside the manifest's folder", "\(data)")
        #expect(refused?.hint?.contains("--allow-data-outside") == true)
      }
      let (model, _) = try DataSetLoader.load(
        manifest: manifest, manifestPath: manifestPath, allowsDataOutsideFolder: true)
      #expect(model.count == 1, "\(data)")
    }
  }

  @Test func aMissingDataFileIsALoadError() throws {
    let folder = try TemporaryFolder()
    let manifestPath = try folder.write("cities.manifest.json", ManifestTests.cities)
    let manifest = try Manifest.load(from: manifestPath)
    #expect {
      _ = try DataSetLoader.load(manifest: manifest, manifestPath: manifestPath)
    } throws: { error in
      (error as? LoadError)?.description
        == "\(folder.path)/cities.tsv: cannot read the data file: No such file or directory; "
        + "\(manifestPath) names it \"cities.tsv\", relative to the manifest's folder"
    }
  }

  // MARK: Plain lines

  @Test func loadLinesMakesOneItemPerLine() throws {
    let input = try LineInput(bytes: Array("a\r\nb\n\n\r\nlast".utf8), source: "t")
    let model = DataSetLoader.loadLines(input)
    #expect(model.schema == .lines)
    #expect(model.count == 5)
    #expect(records(model).map(\.fields) == [[["a"]], [["b"]], [[""]], [[""]], [["last"]]])
    #expect(model.display(model.id(at: 4)) == "last")
    #expect(model.ids == (0..<5).map { ItemID(rawValue: Int32($0)) })
  }

  @Test func loadLinesOfNothing() throws {
    #expect(DataSetLoader.loadLines(try LineInput(bytes: [], source: "t")).isEmpty)
    let oneLine = DataSetLoader.loadLines(try LineInput(bytes: Array("only\n".utf8), source: "t"))
    #expect(records(oneLine) == [SearchModel.Record(fields: [["only"]])])
  }
}
