import SearchDataSets
import SearchEngine

/// Paths and data sets the tests share.
public enum Fixtures {
  /// The repository's root, found from this file's path.
  public static let root: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/TestSupport/Fixtures.swift
    return parts.joined(separator: "/")
  }()

  /// The committed sample of the words corpus (6,249 words, seven languages as scopes).
  public static func wordsSample() throws -> SearchCorpus {
    let path = root + "/Corpus/words/sample.manifest.json"
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
    precondition(report.rejected.isEmpty, "the committed sample loads cleanly")
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  /// The result of `query` in `scope` by a fresh filter: what a narrowed search must equal.
  public static func search(_ query: SearchQuery, scope: Int = 0, in corpus: SearchCorpus) throws
    -> SearchResult
  {
    var filter = IncrementalFilter()
    guard let result = filter.search(query, scope: scope, in: corpus) else {
      throw CancellationError()
    }
    return result
  }
}

/// A deliberately simple evaluator, independent of the index: folds every value with the
/// normaliser and compares Swift strings (character by character), following fzf's rules.
public enum ReferenceSearch {
  /// The items of `corpus` that `query` matches in scope `scope`, in the model's order.
  public static func search(_ query: SearchQuery, scope: Int, in corpus: SearchCorpus) throws
    -> [ItemID]
  {
    let model = corpus.model
    let normalizer = corpus.normalizer
    let bar = corpus.scopeBar.scopes[scope]
    let fields = model.schema.fields.indices.filter { field in
      model.schema.fields[field].isSearched
        && (bar.fields?.contains(model.schema.fields[field].name) ?? true)
    }
    let attribute = bar.attribute.flatMap { model.schema.attributeIndex(named: $0) }
    var result: [ItemID] = []
    for id in model.ids {
      if let attribute, !bar.values.contains(model.attribute(attribute, of: id)) { continue }
      let values = try fields.flatMap { field in
        try model.values(of: id, field: field).map { try normalizer.fold($0) }
      }
      if matches(query, values) { result.append(id) }
    }
    return result
  }

  /// Whether `query` matches an item whose searched values, folded, are `values`.
  public static func matches(_ query: SearchQuery, _ values: [String]) -> Bool {
    query.sets.allSatisfy { set in
      set.terms.contains { term in
        values.contains { matches(term, $0) } != term.isInverse
      }
    }
  }

  /// Whether `term` matches the folded value `value`, by fzf's rules for its kind.
  public static func matches(_ term: Term, _ value: String) -> Bool {
    let pattern = String(decoding: term.pattern.utf8, as: UTF8.self)
    let leading = pattern.first.map { !$0.isWhitespace } ?? true
    let trailing = pattern.last.map { !$0.isWhitespace } ?? true
    switch term.kind {
    // Matches are on whole characters, as the engine's: "d" is not in "dि" (a letter and a
    // vowel sign, one character). String's own contains, hasPrefix and hasSuffix compare
    // scalars, so the comparisons are on arrays of characters.
    case .exact: return containsCharacters(Array(value), Array(pattern))
    case .prefix:
      return Array(leading ? trimmedStart(value) : value[...]).starts(with: Array(pattern))
    case .suffix:
      return Array(trailing ? trimmedEnd(value) : value[...]).reversed()
        .starts(with: Array(pattern).reversed())
    case .equal:
      var text = value[...]
      if leading { text = trimmedStart(String(text)) }
      if trailing { text = trimmedEnd(String(text)) }
      return text == pattern
    case .fuzzy:
      var rest = value[...]
      for character in pattern {
        guard let found = rest.firstIndex(of: character) else { return false }
        rest = rest[rest.index(after: found)...]
      }
      return true
    }
  }

  private static func containsCharacters(_ text: [Character], _ pattern: [Character]) -> Bool {
    guard text.count >= pattern.count else { return false }
    return (0...(text.count - pattern.count)).contains { start in
      text[start..<(start + pattern.count)].elementsEqual(pattern)
    }
  }

  private static func trimmedStart(_ value: String) -> Substring {
    value.drop { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) }
  }

  private static func trimmedEnd(_ value: String) -> Substring {
    var text = value[...]
    while let last = text.last, last.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
      text = text.dropLast()
    }
    return text
  }
}

extension Fixtures {
  /// A committed data set by its manifest path under Corpus/, such as "products/products".
  package static func corpus(_ name: String, progress: LoadProgress? = nil) throws -> SearchCorpus {
    let path = root + "/Corpus/" + name + ".manifest.json"
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(
      manifest: manifest, manifestPath: path, progress: progress)
    precondition(report.rejected.isEmpty, "the committed \(name) data set loads cleanly")
    return try SearchCorpus(model: model, normalizer: try Normalizer(), progress: progress)
  }
}
