import Foundation
import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// A corpus saved to a file and read back: it answers every search as the corpus it was
/// saved from, before and after changes, and a stale or damaged file is a clear error.
@Suite(.tags(.concurrent)) struct SearchCorpusSavingTests {
  static let queries = [
    "mac", "i", "ipod", "2007", "499", "air !mini", "'nano", "emile", "^s", "e$", "par | lon",
    "a", "zz", "é",
  ]

  /// The results of every query in every scope, by a full evaluation of the corpus.
  private static func results(of corpus: SearchCorpus) throws -> [[ItemID]] {
    try corpus.fullResults(of: queries)
  }

  /// Saves `corpus` to a file of a new folder and gives its path to `body`.
  private static func withSaved<R>(
    _ corpus: SearchCorpus, source: String = "test data", _ body: (String) throws -> R
  ) throws -> R {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("SearchCorpusSavingTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("corpus.index").path
    try corpus.save(toFile: path, source: source)
    return try body(path)
  }

  @Test(arguments: ["products/products", "cities/cities", "words/sample"])
  func loadedCorpusSearchesAsTheBuiltOne(name: String) throws {
    let built = try Fixtures.corpus(name)
    try Self.withSaved(built) { path in
      let loaded = try SearchCorpus(
        contentsOf: path, normalizer: built.normalizer, source: "test data")
      #expect(loaded.model.count == built.model.count)
      #expect(loaded.model.ids == built.model.ids)
      // The schema, the ranking included (cities and products rank by an attribute).
      #expect(loaded.model.schema == built.model.schema)
      #expect(loaded.model.schema.ranking != .default || name == "words/sample")
      for id in built.model.ids.prefix(200) {
        #expect(loaded.model.record(of: id) == built.model.record(of: id))
      }
      #expect(try Self.results(of: loaded) == Self.results(of: built))
    }
  }

  /// Random batches of changes applied to the built and the loaded corpus alike (and the
  /// changed corpus saved and loaded again) keep their answers equal.
  @Test func changesApplyToTheLoadedCorpusAsToTheBuiltOne() async throws {
    let start = try Fixtures.corpus("products/products")
    let names = ["iPod nano", "Mac mini", "Émile's iMac", "MacBook Äir", "42", "", "ipad"]
    await propertyCheck(count: TestBudget.cases(12), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var built = start
      var loaded = try Self.withSaved(start) { try SearchCorpus(contentsOf: $0) }
      for round in 0..<3 {
        let changes = randomModelChanges(
          Int.random(in: 1...8, using: &random), for: built.model, endInserts: false,
          using: &random
        ) { random in
          SearchModel.Record(
            fields: [[names.randomElement(using: &random) ?? ""]],
            attributes: [
              ["Device", "Desktop", "Portable", "Other"].randomElement(using: &random) ?? "",
              String(Int.random(in: 2000...2010, using: &random)),
              ["499", "499.00", "1299", "x"].randomElement(using: &random) ?? "",
            ])
        }
        try built.apply(changes)
        try loaded.apply(changes)
        #expect(try Self.results(of: loaded) == Self.results(of: built), "round \(round)")
        loaded = try Self.withSaved(loaded) { try SearchCorpus(contentsOf: $0) }
        #expect(try Self.results(of: loaded) == Self.results(of: built), "round \(round), again")
      }
    }
  }

  @Test func staleFilesAreRefusedWithTheReason() throws {
    let built = try Fixtures.corpus("products/products")
    try Self.withSaved(built) { path in
      let otherData = #expect(throws: SavedIndexError.self) {
        try SearchCorpus(contentsOf: path, source: "other data")
      }
      #expect(otherData?.code == .stale)
      #expect(otherData?.description.contains("made from other data") == true)
      let otherFolding = #expect(throws: SavedIndexError.self) {
        try SearchCorpus(contentsOf: path, normalizer: try Normalizer(folding: .none))
      }
      #expect(otherFolding?.code == .stale)
      #expect(otherFolding?.description.contains("build the index again") == true)
      // The format version, after the 8 bytes of the mark.
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      bytes[8] &+= 1
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let otherVersion = #expect(throws: SavedIndexError.self) {
        try SearchCorpus(contentsOf: path)
      }
      #expect(otherVersion?.code == .stale)
      #expect(
        otherVersion?.description.contains(
          "format version \(SearchCorpus.savedFormatVersion + 1)") == true)
    }
  }

  /// A file cut short anywhere, or with any byte changed, is refused, never read as a corpus
  /// and never a trap.
  @Test func damagedFilesAreErrors() async throws {
    let built = try Fixtures.corpus("products/products")
    let original = try Self.withSaved(built) {
      try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0)))
    }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("SearchCorpusSavingTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("damaged.index").path
    let cases = TestBudget.cases(200)
    await propertyCheck(count: cases, input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var bytes = original
      let truncates = Bool.random(using: &random)
      let offset = Int.random(in: 0..<bytes.count, using: &random)
      if truncates {
        bytes.removeLast(bytes.count - offset)
      } else {
        bytes[offset] ^= UInt8.random(in: 1...255, using: &random)
      }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let error = #expect(
        throws: SavedIndexError.self, "\(truncates ? "cut" : "flip") at \(offset)"
      ) {
        try SearchCorpus(contentsOf: path, normalizer: built.normalizer, source: "test data")
      }
      #expect(error?.file == path)
    }
  }

  /// A file saved from `corpus`, its bytes and where each part lies, for changes that keep
  /// the checksums right (`SavedFileReader.Part.write`): they reach the checks of structure.
  private struct Saved {
    let corpus: SearchCorpus
    let path: String
    let bytes: [UInt8]
    let parts: [SavedFileReader.Part]

    init(_ corpus: SearchCorpus, in folder: URL) throws {
      self.corpus = corpus
      path = folder.appendingPathComponent("damaged.index").path
      try corpus.save(toFile: path, source: "test data")
      bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      parts = try SearchCorpus.savedOutline(of: path)
    }

    func part(_ what: String) throws -> SavedFileReader.Part {
      try #require(parts.first { $0.what == what }, "no part \(what)")
    }

    /// Opens the file with element `element` of part `what` set to `value`, its checksum
    /// mended: the error, or nil when the file opens and answers as the corpus it was saved
    /// from.
    func open<T: FixedWidthInteger>(_ what: String, element: Int, _ value: T) throws
      -> SavedIndexError?
    {
      try open(try part(what), element: element, value)
    }

    func open<T: FixedWidthInteger>(_ part: SavedFileReader.Part, element: Int, _ value: T)
      throws -> SavedIndexError?
    {
      var changed = bytes
      part.write(value, element: element, in: &changed)
      try Data(changed).write(to: URL(fileURLWithPath: path))
      let loaded: SearchCorpus
      do {
        loaded = try SearchCorpus(
          contentsOf: path, normalizer: corpus.normalizer, source: "test data")
      } catch { return error }
      #expect(
        try SearchCorpusSavingTests.results(of: loaded)
          == SearchCorpusSavingTests.results(of: corpus),
        "\(part.what)[\(element)] = \(value) opens and answers otherwise")
      return nil
    }
  }

  private static func withFolder<R>(_ body: (URL) async throws -> R) async throws -> R {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("SearchCorpusSavingTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
  }

  /// Issue 45: a value's end set to 0x7FFFFFFF, checksums mended, read a byte far past the
  /// column (a segmentation fault) before it was checked against the column's length.
  @Test(arguments: ["the value starts of field \"name\"", "the folded starts of field \"name\""])
  func anOffsetPastTheColumnIsAnError(part: String) async throws {
    try await Self.withFolder { folder in
      let saved = try Saved(try Fixtures.corpus("products/products"), in: folder)
      for element in [1, 2] {
        let error = try saved.open(part, element: element, Int32.max)
        #expect(error?.code == .corrupt)
        #expect(
          error?.reason.contains("\(part): entry \(element)") == true,
          "\(String(describing: error))")
        #expect(error?.description.contains("build the index again") == true)
      }
    }
  }

  /// Derived parts that disagree with the folded text, checksums mended, are errors rather
  /// than wrong answers: a letter of the folded text (its byte counts no longer match), a
  /// letter of the text (its folding no longer matches), a common byte's bits, a value's
  /// owner.
  @Test func derivedPartsThatDisagreeAreErrors() async throws {
    try await Self.withFolder { folder in
      let products = try Saved(try Fixtures.corpus("products/products"), in: folder)
      let text = try products.part("the folded text of field \"name\"")
      let a = try #require(
        products.bytes[text.offset(ofElement: 0)...].firstIndex(of: UInt8(ascii: "a")))
      let letter = try products.open(
        text, element: a - text.offset(ofElement: 0), UInt8(ascii: "b"))
      #expect(letter?.reason.contains("byte counts of field \"name\" do not match") == true)
      // Issue 45's "Mbcintosh": a letter of an item's text, not of its folded text.
      let raw = try products.part("the text of field \"name\"")
      let m = try #require(
        products.bytes[raw.offset(ofElement: 0)...].firstIndex(of: UInt8(ascii: "a")))
      let unfolded = try products.open(
        raw, element: m - raw.offset(ofElement: 0), UInt8(ascii: "b"))
      #expect(
        unfolded?.reason.contains("field \"name\" is not the folding of value") == true,
        "\(String(describing: unfolded))")
      // The rarest common letter's row with more bits than the letter has occurrences.
      let row = try #require(
        products.parts.last { $0.what == "a row of field \"name\"'s common bytes" })
      let bits = try products.open(row, element: 0, UInt64(1) << 45 - 1)
      #expect(bits?.reason.contains("common bytes of field \"name\" do not match") == true)
      let cities = try Saved(try Fixtures.corpus("cities/cities"), in: folder)
      let owner = try cities.open(
        "the value owners of field \"alternate names\"", element: 0, Int32(1))
      #expect(owner?.reason.contains("owned by 1") == true, "\(String(describing: owner))")
    }
  }

  /// Any element of an array of numbers set to a value that a structure might take (0, ±1, the
  /// neighbours of its value, a large one), checksums mended: an error or the same answers,
  /// never a trap.
  @Test func changedStructuresAreErrorsOrHarmless() async throws {
    try await Self.withFolder { folder in
      let saved = try Saved(try Fixtures.corpus("products/products"), in: folder)
      // Not the common bytes' rows nor the grams: which values a bit or a gram names is not
      // all checked (see `SearchCorpus.init(contentsOf:)`; `gramsNamingOtherValuesAreErrors`).
      let arrays = saved.parts.filter {
        ($0.count ?? 0) > 0 && $0.stride >= 4 && !$0.what.hasPrefix("a row of")
          && !$0.what.hasPrefix("the grams of")
      }
      await propertyCheck(count: TestBudget.cases(300), input: Gen.int(in: 0...1_000_000)) { seed in
        var random = SplitMix64(seed: seed)
        let part = arrays[Int.random(in: 0..<arrays.count, using: &random)]
        let element = Int.random(in: 0..<(part.count ?? 1), using: &random)
        let old = saved.bytes.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: part.offset(ofElement: element), as: Int32.self)
        }
        let values: [Int32] = [
          0, -1, 1, old &- 1, old &+ 1, Int32.max, Int32.random(in: .min ... .max, using: &random),
        ]
        let value = values.randomElement(using: &random) ?? 0
        _ = try saved.open(part, element: element, value)
      }
    }
  }

  /// The grams, checksums mended: a gram its postings' values do not hold, a count that is
  /// not its postings', grams out of order, postings past the values are errors; a loaded
  /// corpus has the built one's grams.
  @Test func gramsNamingOtherValuesAreErrors() async throws {
    try await Self.withFolder { folder in
      let cities = try Saved(try Fixtures.corpus("cities/cities"), in: folder)
      let loaded = try SearchCorpus(
        contentsOf: cities.path, normalizer: cities.corpus.normalizer, source: "test data")
      let field = try #require(cities.corpus.index.fields[0]?.grams)
      #expect(loaded.index.fields[0]?.grams?.postings == field.postings)
      #expect(loaded.index.fields[0]?.grams?.grams == field.grams)
      let what = "field \"name\""
      // "qqq" in place of the gram after it, in order still: its values hold the other.
      let q = Int(GramIndex.classes[Int(UInt8(ascii: "q"))])
      let code = UInt32(q << 12 | q << 6 | q)
      let after = try #require(field.grams.firstIndex { $0 > code })
      #expect(!field.grams.contains(code))
      let renamed = try cities.open("the grams of \(what)", element: after, code)
      #expect(renamed?.reason.contains("is not in the values its postings name") == true)
      let swapped = try cities.open("the grams of \(what)", element: 1, field.grams[0])
      #expect(swapped?.reason.contains("out of order") == true)
      let counted = try cities.open(
        "the counts of \(what)'s grams", element: 3, field.counts[3] + 1)
      #expect(counted?.reason.contains("are not \(field.counts[3] + 1) ascending values") == true)
      let covered = try cities.part("the values covered by \(what)'s grams")
      #expect(
        try cities.open(covered, element: 0, Int64(field.valueCount + 1))?.reason.contains(
          "cover \(field.valueCount + 1) values") == true)
      #expect(try cities.open(covered, element: 0, Int64(1))?.code == .corrupt)
    }
  }

  @Test func aMissingFileIsAnError() throws {
    let error = #expect(throws: SavedIndexError.self) {
      try SearchCorpus(contentsOf: "/nonexistent/folder/corpus.index")
    }
    #expect(error?.code == .io)
    #expect(error?.description.contains("/nonexistent/folder/corpus.index") == true)
  }
}
