import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Typo tolerance against a reference that reads every word of every item, and the
/// incremental filter against full evaluations, on random corpora and typing sessions with
/// non-ASCII letters, combining marks and typos of every kind.
@Suite(.tags(.concurrent)) struct TypoPropertyTests {
  /// Pieces of words: ASCII, precomposed and combining marks, CJK, digits.
  static let syllables = [
    "ca", "li", "for", "ni", "a", "zu", "ri", "ch", "ü", "u\u{308}", "é", "e\u{301}", "ber", "ge",
    "東", "京", "都", "ß", "st", "ra", "ton", "7", "20", "08", "mo", "na",
  ]

  static func word(_ random: inout SplitMix64) -> String {
    let count = 1 + Int(random.next() % 5)
    return (0..<count).map { _ in syllables[Int(random.next() % UInt64(syllables.count))] }
      .joined()
  }

  /// A random corpus of `count` items of one to three words in "name" (and sometimes "alias").
  static func corpus(seed: UInt64, count: Int) throws -> (SearchCorpus, [String]) {
    var random = SplitMix64(seed: seed)
    var words: [String] = []
    var names: [[String]] = []
    for _ in 0..<count {
      let name = (0...(random.next() % 3)).map { _ in word(&random) }
      words += name
      var values = [name.joined(separator: random.next() % 4 == 0 ? "-" : " ")]
      if random.next() % 3 == 0 {
        let alias = word(&random)
        words.append(alias)
        values.append(alias)
      }
      names.append(values)
    }
    return (try TypoToleranceTests.corpus(names), words)
  }

  /// `word` with one or two typos of random kinds, on its characters.
  static func misspelt(_ word: String, _ random: inout SplitMix64) -> String {
    var characters = Array(word)
    for _ in 0...(random.next() % 2) where characters.count > 1 {
      let at = Int(random.next() % UInt64(characters.count - 1))
      switch random.next() % 4 {
      case 0: characters.swapAt(at, at + 1)
      case 1: characters.remove(at: at)
      case 2: characters.insert(contentsOf: syllables[Int(random.next() % 8)], at: at)
      default: characters[at] = "x"
      }
    }
    return String(characters)
  }

  /// The reference: an item matches a term when a folded value of a searched field of the
  /// scope contains it, or has a word (a run of characters whose first scalar is a letter or a
  /// digit, split on Swift's characters) within the term's budget.
  static func reference(_ query: SearchQuery, scope: Int, in corpus: SearchCorpus) throws
    -> [ItemID]
  {
    let model = corpus.model
    let bar = corpus.scopeBar.scopes[scope]
    let fields = model.schema.fields.indices.filter { field in
      model.schema.fields[field].isSearched
        && (bar.fields?.contains(model.schema.fields[field].name) ?? true)
    }
    let attribute = bar.attribute.flatMap { model.schema.attributeIndex(named: $0) }
    var codes = CharacterCodes()
    var result: [ItemID] = []
    for id in model.ids {
      if let attribute, !bar.values.contains(model.attribute(attribute, of: id)) { continue }
      let values = try fields.flatMap { field in
        try model.values(of: id, field: field).map { try corpus.normalizer.fold($0) }
      }
      var words: [[UInt32]] = []
      for value in values {
        var word: [UInt32] = []
        for character in value {
          if let first = character.unicodeScalars.first,
            first.properties.isAlphabetic || first.properties.numericType != nil
          {
            word.append(codes.code(of: character))
          } else if !word.isEmpty {
            words.append(word)
            word = []
          }
        }
        if !word.isEmpty { words.append(word) }
      }
      let matches = zip(query.sets, query.typoRules).allSatisfy { set, rules in
        zip(set.terms, rules).contains { term, rule in
          if values.contains(where: { ReferenceSearch.matches(term, $0) }) { return true }
          guard rule.budget > 0 else { return false }
          let pattern = String(decoding: term.pattern.utf8, as: UTF8.self).map {
            codes.code(of: $0)
          }
          return words.contains {
            TypoDistance.distance(pattern, $0, prefix: rule.isPrefix) <= rule.budget
          }
        }
      }
      if matches { result.append(id) }
    }
    return result
  }

  @Test func fullEvaluationEqualsTheReference() async throws {
    await propertyCheck(count: TestBudget.cases(40), input: Gen.int(in: 0...1_000_000)) { seed in
      let (corpus, words) = try Self.corpus(seed: UInt64(seed), count: 40)
      var random = SplitMix64(seed: UInt64(seed) &+ 1)
      for _ in 0..<12 {
        let first = Self.misspelt(words[Int(random.next() % UInt64(words.count))], &random)
        var text = first
        if random.next() % 3 == 0 {
          text += " " + String(words[Int(random.next() % UInt64(words.count))].prefix(4))
        }
        if random.next() % 3 == 0 { text += " " }
        let query = try SearchQuery(
          text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
        for scope in 0..<3 {
          let found =
            QueryEvaluator(corpus: corpus, query: query, scope: scope)
            .evaluate(candidates: nil, isCancelled: { false }) ?? []
          let expected = try Self.reference(query, scope: scope, in: corpus)
          #expect(found == expected, "\"\(text)\" in scope \(scope), seed \(seed)")
        }
      }
    }
  }

  /// The invariant of the incremental filter, with typos on: whatever path it takes, its
  /// result is the full evaluation's; a word whose budget grew (its fifth or ninth character)
  /// among them, which checks the earlier results and the items it finds with typos.
  @Test func incrementalEqualsFullEvaluationWithTypos() async throws {
    let paths = LockedValue<[String: Int]>([:])
    let sessions = Gen.int(in: 0...1_000_000)
    let actions = Gen.int(in: 0...19).array(of: 8...40)
    await propertyCheck(count: TestBudget.cases(40), input: sessions, actions) { seed, actions in
      let (corpus, words) = try Self.corpus(seed: UInt64(seed), count: 30)
      var random = SplitMix64(seed: UInt64(seed) &+ 2)
      var target = ""
      for _ in 0...(random.next() % 2) {
        target += Self.misspelt(words[Int(random.next() % UInt64(words.count))], &random) + " "
      }
      var filter = IncrementalFilter()
      var session = TypingSession(target: target)
      let odds = TypingSession.Odds(backspace: 3, selectScope: 1, outOf: 20)
      for action in actions {
        session.press(odds.key(for: action), newScope: { ($0 + 1 + action) % 3 })
        let query = try SearchQuery(
          session.text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
        if case .narrow(let earlier) = filter.plan(query, scope: session.scope, corpus: corpus),
          query.typoWidening(of: earlier.query)?.isEmpty == false
        {
          paths.withLock { $0["widened", default: 0] += 1 }
        }
        guard let result = filter.search(query, scope: session.scope, in: corpus) else {
          Issue.record("cancelled")
          return
        }
        let full =
          QueryEvaluator(corpus: corpus, query: query, scope: session.scope)
          .evaluate(candidates: nil, isCancelled: { false }) ?? []
        #expect(
          result.items == full, "\"\(session.text)\" scope \(session.scope) via \(result.path)")
        let path = String("\(result.path)".prefix(6))
        paths.withLock { $0[path, default: 0] += 1 }
      }
    }
    let taken = paths.withLock { $0 }
    #expect(taken["narrow", default: 0] > 0, "\(taken)")
    #expect(taken["cached", default: 0] > 0, "\(taken)")
    #expect(taken["fullSc", default: 0] > 0, "\(taken)")
    #expect(taken["widened", default: 0] > 0, "\(taken)")
  }

  /// The word index's walk (its first levels as nodes, then the sorted table; the branches
  /// whose next characters cannot be the query's skipped) against the distance of every word
  /// of the table, for whole words and prefixes, one typo and two.
  @Test func wordIndexWalkFindsEveryWordWithinTheBudget() async throws {
    await propertyCheck(count: TestBudget.cases(20), input: Gen.int(in: 0...1_000_000)) { seed in
      let (corpus, words) = try Self.corpus(seed: UInt64(seed), count: 300)
      let index = corpus.wordIndex
      let table = index.sorted
      let entries = (0..<table.count).map { word in
        Array(table.characters[Int(table.starts[word])..<Int(table.starts[word + 1])])
      }
      var random = SplitMix64(seed: UInt64(seed) &+ 3)
      for _ in 0..<10 {
        let word = try corpus.normalizer.fold(
          Self.misspelt(words[Int(random.next() % UInt64(words.count))], &random))
        let query = index.codes(of: word)
        for budget in 1...2 {
          for prefix in [false, true] {
            var found: [Int: Int] = [:]
            WordIndex.search(query, budget: budget, prefix: prefix, in: table) { word, distance in
              #expect(found[word] == nil, "\(word) visited twice")
              found[word] = distance
            }
            var expected: [Int: Int] = [:]
            for (word, characters) in entries.enumerated() {
              let distance = TypoDistance.distance(query, characters, prefix: prefix)
              if distance > 0 && distance <= budget { expected[word] = distance }
            }
            #expect(
              found == expected, "\"\(word)\" budget \(budget) prefix \(prefix), seed \(seed)")
          }
        }
      }
    }
  }

  /// A check of candidates that finds the words with typos in the word index (as one of many
  /// candidates does) gives what reading their words gives: the full evaluation's items among
  /// them.
  @Test func checkThroughTheWordIndexEqualsTheFullEvaluation() async throws {
    await propertyCheck(count: TestBudget.cases(20), input: Gen.int(in: 0...1_000_000)) { seed in
      let (corpus, words) = try Self.corpus(seed: UInt64(seed), count: 480)
      var random = SplitMix64(seed: UInt64(seed) &+ 4)
      for _ in 0..<8 {
        var text = Self.misspelt(words[Int(random.next() % UInt64(words.count))], &random)
        if random.next() % 3 == 0 { text += " " }
        let query = try SearchQuery(
          text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
        for scope in 0..<3 {
          let full =
            QueryEvaluator(corpus: corpus, query: query, scope: scope)
            .evaluate(candidates: nil, isCancelled: { false }) ?? []
          // Fewer than a 24th of the items, so that they are checked one by one: some of the
          // matches and some other members of the scope.
          let members = corpus.members(ofScope: scope)
          var candidates = Set(full.prefix(8))
          while candidates.count < 19 && candidates.count < members.count {
            candidates.insert(members[Int(random.next() % UInt64(members.count))])
          }
          let ordered = members.filter { candidates.contains($0) }
          for thresholds in [(one: 0, two: 0), (one: 1_000, two: 1_000)] {
            var evaluator = QueryEvaluator(corpus: corpus, query: query, scope: scope)
            evaluator.typoIndexThresholds = thresholds
            let checked = evaluator.evaluate(candidates: ordered, isCancelled: { false }) ?? []
            #expect(
              checked == full.filter { candidates.contains($0) },
              "\"\(text)\" scope \(scope) thresholds \(thresholds), seed \(seed)")
          }
        }
      }
    }
  }
}
