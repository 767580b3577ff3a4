#if PostgreSQL
  import Foundation
  import SearchCore
  import SearchEngine
  import SearchDataSets
  import SearchCoreTesting

  /// The committed data sets the PostgreSQL tests load.
  enum DataSets {
    static let root: String = {
      var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
      parts.removeLast(4)  // Tests/SearchPostgresTests/Support/DataSets.swift
      return parts.joined(separator: "/")
    }()

    /// A committed data set by its manifest path under Corpus/, such as "cities/cities".
    static func corpus(_ name: String) throws -> SearchCorpus {
      let path = root + "/Corpus/" + name + ".manifest.json"
      let manifest = try Manifest.load(from: path)
      let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
      precondition(report.rejected.isEmpty, "the committed \(name) data set loads cleanly")
      return try SearchCorpus(model: model, normalizer: try Normalizer())
    }
  }

  /// Draws queries over the whole extended syntax from a corpus's own text: plain, anchored
  /// (`^`, `$`, both), inverse, fuzzy, alternatives, numbers, several terms, odd case, and text
  /// a LIKE pattern or a statement would misread.
  struct QueryDrawer {
    let model: SearchModel
    var random: SplitMix64

    init(model: SearchModel, seed: UInt64) {
      self.model = model
      random = SplitMix64(seed: seed)
    }

    mutating func next() -> String {
      let terms = Int.random(in: 1...3, using: &random)
      var parts: [String] = []
      for index in 0..<terms {
        if index > 0 && Int.random(in: 0..<5, using: &random) == 0 { parts.append("|") }
        parts.append(term())
      }
      return parts.joined(separator: " ")
    }

    private mutating func term() -> String {
      let roll = Int.random(in: 0..<100, using: &random)
      if roll < 4 {
        let hostile = ["%", "_", "\\\\", "'; DROP TABLE cities; --", "a%b", "o_o", "\"x\""]
        return hostile[Int.random(in: 0..<hostile.count, using: &random)]
      }
      if roll < 10, let number = number() { return number }
      let value = randomValue()
      let characters = Array(value)
      guard !characters.isEmpty else { return "a" }
      var text: String
      let kind = Int.random(in: 0..<10, using: &random)
      switch kind {
      case 0:  // prefix
        text =
          "^"
          + String(characters.prefix(Int.random(in: 1...min(4, characters.count), using: &random)))
      case 1:  // suffix
        text =
          String(characters.suffix(Int.random(in: 1...min(4, characters.count), using: &random)))
          + "$"
      case 2:  // whole value
        text = "^" + value + "$"
      case 3:  // fuzzy: some characters in order
        let picked = characters.indices.filter { _ in Bool.random(using: &random) }.prefix(4)
        text = "'" + String(picked.map { characters[$0] })
        if text == "'" { text = "'" + String(characters[0]) }
      default:  // a piece from inside
        let length = Int.random(in: 1...min(5, characters.count), using: &random)
        let start = Int.random(in: 0...(characters.count - length), using: &random)
        text = String(characters[start..<(start + length)])
      }
      text = text.replacingOccurrences(of: " ", with: "\\ ")
      if Int.random(in: 0..<4, using: &random) == 0 { text = text.uppercased() }
      if Int.random(in: 0..<6, using: &random) == 0 && !text.hasPrefix("'") { text = "!" + text }
      return text
    }

    private mutating func randomValue() -> String {
      for _ in 0..<8 {
        let id = model.ids[Int.random(in: 0..<model.count, using: &random)]
        let fields = model.schema.fields.indices.filter { model.schema.fields[$0].isSearched }
        guard let field = fields.randomElement(using: &random) else { break }
        let values = model.values(of: id, field: field)
        if let value = values.randomElement(using: &random), !value.isEmpty { return value }
      }
      return "e"
    }

    private mutating func number() -> String? {
      guard let name = model.schema.numberAttributes.randomElement(using: &random),
        let attribute = model.schema.attributeIndex(named: name)
      else { return nil }
      let id = model.ids[Int.random(in: 0..<model.count, using: &random)]
      return model.attribute(attribute, of: id)
    }
  }

  /// Runs `body` with a new empty folder, removed with its contents afterwards.
  func withTemporaryFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("search-postgres-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
  }
#endif
