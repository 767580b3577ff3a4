import Foundation
import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchDataSets
@testable import SearchEngine

/// A query word that is a number also matches number attributes by equality (the products
/// data set's year and price), and incremental filtering stays equal to a full scan.
@Suite struct NumberMatchingTests {
  let corpus: SearchCorpus

  init() throws {
    let path = Fixtures.root + "/Corpus/products/products.manifest.json"
    let manifest = try Manifest.load(from: path)
    let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
    #expect(report.rejected.isEmpty)
    corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  @Test(arguments: [
    ("7", "7"), ("+007", "7"), ("-12", "-12"), ("499.00", "499"), ("0499.50", "499.5"),
    ("666.66", "666.66"), ("5.", "5"), (".5", "0.5"), ("-0.00", "0"), ("+0", "0"), ("0", "0"),
    ("100", "100"), ("10.010", "10.01"),
  ])
  func canonicalForms(text: String, canonical: String) {
    #expect(DecimalText.canonical(text) == canonical)
  }

  @Test(arguments: ["", "+", "-", ".", "1.2.3", "1,5", "1e3", " 1", "1 ", "0x10", "١٢", "½", "--1"])
  func notNumbers(text: String) {
    #expect(DecimalText.canonical(text) == nil)
  }

  @Test func aNumberMatchesEqualValuesOnly() throws {
    #expect(try names("1299") == ["iMac", "12-inch MacBook"])
    #expect(try names("1299.000") == ["iMac", "12-inch MacBook"])
    #expect(try names("129").isEmpty)
    // 12 is no year or price: only the name that contains it.
    #expect(try names("12") == ["12-inch MacBook"])
  }

  @Test func narrowingKnowsThatNumbersMatchByEquality() throws {
    let normalizer = corpus.normalizer
    func query(_ text: String) throws -> SearchQuery {
      try SearchQuery(text, normalizer: normalizer)
    }
    // Text containment alone would say that "2007" narrows "200".
    #expect(try query("2007").narrows(try query("200")))
    #expect(try !query("2007").narrows(try query("200"), matchingNumbers: true))
    #expect(try query("2007.0").narrows(try query("2007"), matchingNumbers: true))
    #expect(try query("mac 2007").narrows(try query("mac"), matchingNumbers: true))
    #expect(try query("macb").narrows(try query("mac"), matchingNumbers: true))
    // Lacking "200" does not imply lacking "2007": the products of 2007 lack "200".
    #expect(try !query("!200").narrows(try query("!2007"), matchingNumbers: true))
    #expect(try query("!2007").narrows(try query("!2007.00"), matchingNumbers: true))
    var filter = IncrementalFilter()
    _ = filter.search(try query("200"), scope: 0, in: corpus)
    guard case .fullScan = filter.plan(try query("2007"), scope: 0, corpus: corpus) else {
      Issue.record("2007 must not be narrowed from 200's (empty) results")
      return
    }
  }

  /// Random typing of number words, names and operators: every step equals a full scan and a
  /// reference that compares numbers with Foundation's `Decimal`.
  @Test func typingNumbersEqualsAFullScanAndTheReference() async throws {
    let corpus = self.corpus
    let words = [
      "2007", "1999", "499.00", "666.66", "2006", "mac 2006", "!2007", "99", "ipod 2005",
    ]
    let sessions = Gen.int(in: 0...(words.count - 1)).array(of: 1...3)
    let actions = Gen.int(in: 0...9).array(of: 4...30)
    await propertyCheck(count: TestBudget.cases(80), input: sessions, actions) { targets, actions in
      var filter = IncrementalFilter()
      var session = TypingSession(target: targets.map { words[$0] }.joined(separator: " "))
      // Of ten actions: 0 and 1 backspace, 2 the next scope button, the rest type.
      let odds = TypingSession.Odds(backspace: 2, selectScope: 1, outOf: 10)
      for action in actions {
        session.press(
          odds.key(for: action), newScope: { ($0 + 1) % corpus.scopeBar.scopes.count })
        let text = session.text
        let scope = session.scope
        let query = try SearchQuery(text, normalizer: corpus.normalizer)
        guard let result = filter.search(query, scope: scope, in: corpus) else {
          Issue.record("a search that nobody cancelled returned nil")
          return
        }
        var fresh = IncrementalFilter()
        let full = fresh.search(query, scope: scope, in: corpus)?.items
        #expect(result.items == full, "\"\(text)\" in scope \(scope) via \(result.path)")
        #expect(
          result.items == reference(text, scope: scope), "\"\(text)\" in scope \(scope)")
      }
    }
  }

  // MARK: Helpers

  private func names(_ text: String) throws -> [String] {
    var filter = IncrementalFilter()
    let result = filter.search(
      try SearchQuery(text, normalizer: corpus.normalizer), scope: 0, in: corpus)
    return (result?.items ?? []).map { corpus.model.values(of: $0, field: 0)[0] }
  }

  /// Plain words only (no `|`): each must be in the lower-cased name, or be a number equal to
  /// the year or the price; `!` negates.
  private func reference(_ text: String, scope: Int) -> [ItemID] {
    let model = corpus.model
    let type = model.schema.attributeIndex(named: "type")
    let year = model.schema.attributeIndex(named: "year") ?? 0
    let price = model.schema.attributeIndex(named: "price") ?? 0
    let scopeValues = corpus.scopeBar.scopes[scope].values
    return model.ids.filter { id in
      if scope != 0, let type, !scopeValues.contains(model.attribute(type, of: id)) {
        return false
      }
      let name = model.values(of: id, field: 0)[0].lowercased()
      return text.split(separator: " ").allSatisfy { word in
        let isInverse = word.hasPrefix("!")
        let body = isInverse ? word.dropFirst() : word
        if body.isEmpty { return true }  // a lone "!" is no term, like fzf
        var found = name.contains(body)
        if let number = Self.decimal(body) {
          found =
            found || Self.decimal(model.attribute(year, of: id)) == number
            || Self.decimal(model.attribute(price, of: id)) == number
        }
        return found != isInverse
      }
    }
  }

  private static func decimal<S: StringProtocol>(_ text: S) -> Decimal? {
    guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      text.filter({ $0 == "." }).count <= 1, text.contains(where: \.isNumber)
    else { return nil }
    return Decimal(string: String(text), locale: Locale(identifier: "en_US_POSIX"))
  }
}
