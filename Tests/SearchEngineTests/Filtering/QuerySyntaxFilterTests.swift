import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// What people type into the tweets' search field: two neighbouring words of a tweet (as
/// written, lower case, swapped, joined by a tab) and words with extended syntax's operator
/// characters, which the other syntaxes take literally.
private let tweetTargets: [String] = {
  guard let corpus = try? Fixtures.corpus("tweets/tweets") else { return [] }
  var result: [String] = []
  for (index, id) in corpus.model.ids.enumerated() {
    guard let text = corpus.model.values(of: id, field: 0).first else { continue }
    let words = text.split(separator: " ").map(String.init)
    guard words.count >= 3 else { continue }
    let start = index % (words.count - 2)
    let (first, second) = (words[start], words[start + 1])
    switch index % 8 {
    case 0: result.append(first + " " + second)
    case 1: result.append((first + " " + second).lowercased())
    case 2: result.append(second + " " + first)
    case 3: result.append(first + "\t" + second)
    case 4: result.append("!" + first + " " + second)
    case 5: result.append(first + " | " + second)
    case 6: result.append("^" + first + " " + second + "$")
    default: result.append("'" + first + second.prefix(2))
    }
  }
  return result
}()

/// Product names with years and prices, which match number attributes by equality.
private let productTargets = [
  "ipod 2007", "2007", "499.00 ipad", "!2007 ipod", "imac pro", "12-inch", "apple tv 299",
  "mac mini 2005", "ipad 2010", "1999 imac",
]

/// The invariant of incremental filtering, in every syntax: whatever path a search takes
/// (narrowed from earlier results, cached, full scan), its result is a fresh full scan's.
@Suite(.tags(.concurrent)) struct QuerySyntaxFilterTests {
  @Test func targetsAreReal() {
    #expect(tweetTargets.count >= 40)
  }

  @Test(arguments: SearchQuery.Syntax.allCases)
  func incrementalEqualsFullScanWhileTyping(_ syntax: SearchQuery.Syntax) async throws {
    let tweets = try Fixtures.corpus("tweets/tweets")
    let products = try Fixtures.corpus("products/products")
    let paths = LockedValue<[String: Int]>([:])
    for (corpus, targets) in [(tweets, tweetTargets), (products, productTargets)] {
      let sessions = Gen.int(in: 0...(targets.count - 1)).array(of: 1...2)
      let actions = Gen.int(in: 0...19).array(of: 8...40)
      let scopes = corpus.scopeBar.scopes.count
      await propertyCheck(count: TestBudget.cases(50), input: sessions, actions) {
        chosen, actions in
        var session = TypingSession(target: chosen.map { targets[$0] }.joined(separator: " "))
        var filter = IncrementalFilter()
        // Of twenty actions: 0 and 1 backspace, 2 another scope button, the rest type.
        let odds = TypingSession.Odds(backspace: 2, selectScope: 1, outOf: 20)
        for action in actions {
          session.press(odds.key(for: action), newScope: { ($0 + 1 + action) % scopes })
          let text = session.text
          let scope = session.scope
          let query = try SearchQuery(text, syntax: syntax, normalizer: corpus.normalizer)
          let searched = filter.search(query, scope: scope, in: corpus)
          let result = try #require(searched)
          var fresh = IncrementalFilter()
          let scanned = fresh.search(query, scope: scope, in: corpus)
          let full = try #require(scanned)
          #expect(full.path == .fullScan)
          #expect(
            result.items == full.items, "\(syntax) \"\(text)\" scope \(scope) via \(result.path)")
          if corpus.numberCodes.isEmpty {
            let expected = try ReferenceSearch.search(query, scope: scope, in: corpus)
            #expect(full.items == expected, "\(syntax) \"\(text)\" scope \(scope)")
          }
          let path = String("\(result.path)".prefix(6))
          paths.withLock { $0[path, default: 0] += 1 }
        }
      }
    }
    let taken = paths.withLock { $0 }
    #expect(taken["narrow", default: 0] > 0, "\(taken)")
    #expect(taken["cached", default: 0] > 0, "\(taken)")
    #expect(taken["fullSc", default: 0] > 0, "\(taken)")
  }
}
