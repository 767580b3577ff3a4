/// A search query: term sets that must all match, each a choice of terms of which one must
/// match.
///
/// The text is read in one of three syntaxes (``SearchQuery/Syntax``): ``SearchQuery/Syntax/words``, white
/// space separated words without operators, each its own set of one exact term;
/// ``SearchQuery/Syntax/literal``, the whole text (trimmed) as one exact term; or, by default,
/// ``SearchQuery/Syntax/extended``, fzf's extended search syntax in exact mode (`fzf --exact`).
///
/// The extended syntax and its corner cases are those of fzf 0.38 (`src/pattern.go`):
///
/// - Terms are separated by runs of spaces (U+0020 only). Spaces at the start and at the end
///   of the query are ignored, except a final escaped space.
/// - `\ ` is a space inside a term: `a\ b` is the one term "a b"; `abc\ ` ends with a space.
///   There is no other escape: `\\ ` is a backslash followed by an escaped space. A tab in the
///   query is read as a space too (fzf uses the tab internally for `\ `).
/// - `abc` must occur in the item (``Term/Kind/exact``); `'abc` is fuzzy: its characters in
///   order, anything between them (``Term/Kind/fuzzy``).
/// - `^abc` is a prefix, `abc$` a suffix, `^abc$` the whole item; a lone `$` is the exact
///   term "$", and `$$` the suffix "$".
/// - `!abc` excludes the items that contain "abc"; `!^abc`, `!abc$`, `!^abc$`, `!'abc` are the
///   inverse prefix, suffix, equal and fuzzy terms.
/// - Operators are read in this order: a leading `!`, then a trailing `$`, then a leading `'`
///   or else a leading `^`. So `'abc$` is the fuzzy term "abc" (the `$` is dropped, not a
///   suffix), `'^abc` is fuzzy "^abc", `^'abc` is the prefix "'abc", `^!abc` the prefix "!abc",
///   and `!$` the inverse exact term "$".
/// - A token that is nothing but operators (`!`, `^`, `'`, `^$`, `!^`, `'$`, …) is an empty
///   term and is dropped.
/// - A term that is not empty but folds to nothing (only a soft hyphen U+00AD, or other
///   default-ignorable characters) is dropped the same way: under this library's folding it
///   would match every item. fzf, which does not fold such characters away, keeps it.
/// - `a | b` puts `b` in the same set as `a`: the item must match `a` or `b`. A `|` is an
///   operator only after a term and not right after another `|`; otherwise it is the exact
///   term "|". So a leading `| a` is the two sets "|" and "a"; `a | | b` is `(a | |) b`; a
///   trailing `a |` is just `a`; `|x` and `a|b` are ordinary terms. A dropped term after a
///   `|` does not end the choice: `a | ! b` is `(a | b)`.
///
/// With ``Folding/latin``, a term whose folded text has a space also matches its text without
/// spaces: `ni\ hao` is `(ni\ hao | nihao)`, so that it finds 你好, which folds to "nihao"
/// (see <doc:Normalization>); an inverse such term excludes both.
///
/// An item matches the query when it matches every set; it matches a set when it contains
/// one of the set's non-inverse terms or lacks one of its inverse terms. Terms are folded with
/// the same ``Normalizer`` as the items, so `ÉCOLE` finds "école" and "ecole". A query with
/// no terms (empty, only white space, only operators, or only terms that fold to nothing)
/// ``isEmpty`` and matches every item, in every syntax.
///
/// A ``SearchQuery/Syntax/words`` query may tolerate typos (``typos``, ``TypoTolerance``): a word of
/// five characters or more then also finds the items with a word one or two edits away,
/// "calfornia" finds "California". The other syntaxes are always exact. See <doc:QueryLanguage>.
///
/// Every string is a valid query in every syntax; only folding can fail.
public struct SearchQuery: Hashable, Sendable {
  /// The query as typed.
  public let text: String
  /// How ``text`` was read.
  public let syntax: SearchQuery.Syntax
  /// The term sets, in query order; an item must match all of them.
  public let sets: [TermSet]
  /// How many typos the words may have: the tolerance given for a ``SearchQuery/Syntax/words``
  /// query, ``TypoTolerance/off`` in the other syntaxes.
  public let typos: TypoTolerance
  /// For each term of each set, its typo budget and whether it matches as a prefix of a word.
  package let typoRules: [[TypoRule]]

  /// Whether the query has no terms, so that it matches every item.
  public var isEmpty: Bool { sets.isEmpty }

  /// Whether some word of the query may match with typos: one long enough for a budget
  /// under ``typos``.
  public var mayMatchWithTypos: Bool {
    typoRules.contains { $0.contains { $0.budget > 0 } }
  }

  /// Parses `text` in `syntax` and folds its terms with `normalizer`.
  ///
  /// - Parameters:
  ///   - text: The query as typed.
  ///   - syntax: How to read `text`.
  ///   - typos: How many typos the words of a ``SearchQuery/Syntax/words`` query may have (see
  ///     <doc:QueryLanguage>); the other syntaxes ignore it and are always exact.
  ///   - normalizer: The normaliser that folded the items.
  /// - Throws: ``ICUError`` when ICU fails to fold a term. Parsing itself never fails.
  public init(
    _ text: String, syntax: SearchQuery.Syntax = .extended, typos: TypoTolerance = .off,
    normalizer: Normalizer
  ) throws(ICUError) {
    self.text = text
    self.syntax = syntax
    let typos = syntax == .words ? typos : .off
    self.typos = typos
    let sets =
      switch syntax {
      case .words: try QueryParser.parseWords(text, normalizer: normalizer)
      case .literal: try QueryParser.parseLiteral(text, normalizer: normalizer)
      case .extended: try QueryParser.parse(text, normalizer: normalizer)
      }
    let joined = try QueryParser.addingJoinedForms(sets, normalizer: normalizer)
    self.sets = joined
    self.typoRules = joined.map { set in
      set.terms.map { TypoRule(of: $0, in: text, typos: typos) }
    }
  }
}

/// How one term of a query may match with typos: its budget of edits (0: exactly only), and
/// whether it may match a prefix of a word (the last word of a query that does not end in
/// white space, which the user is still typing).
package struct TypoRule: Hashable, Sendable {
  package let budget: Int
  package let isPrefix: Bool

  /// No typos.
  package static let exact = TypoRule(budget: 0, isPrefix: false)

  package init(budget: Int, isPrefix: Bool) {
    self.budget = budget
    self.isPrefix = isPrefix
  }

  /// The rule of `term` of a query `text` under `typos`: the budget of its folded length in
  /// characters, none for an inverse term or a number; a prefix when the term ends the text.
  init(of term: Term, in text: String, typos: TypoTolerance) {
    guard typos.isOn, !term.isInverse, term.number == nil else {
      self = .exact
      return
    }
    let length = String(decoding: term.pattern.utf8, as: UTF8.self).count
    budget = typos.budget(forLength: length)
    isPrefix = term.range.upperBound == text.endIndex
  }
}

extension SearchQuery: CustomStringConvertible {
  /// The parsed structure in extended syntax, sets separated by spaces and the terms of a set
  /// in parentheses: `(^abc | def$) !ghi`; empty for a query with no terms.
  ///
  /// A term of a ``SearchQuery/Syntax/words`` or ``SearchQuery/Syntax/literal`` query is always exact and
  /// never inverse, however it starts: its description is its text with spaces escaped, so
  /// the word `!mül` prints as `!mül`.
  public var description: String {
    sets.map(\.description).joined(separator: " ")
  }
}

extension SearchQuery {
  /// What a term matches, wherever it is in the text: terms with equal keys find the same
  /// items in the same places (`e e e` is one term three times).
  private struct MatchKey: Hashable {
    var kind: Term.Kind
    var isInverse: Bool
    var pattern: [UInt8]
    var rule: TypoRule
  }

  /// The index of each set that no earlier set equals in what it matches, in query order: the
  /// sets an item must match (a pasted `e e e …` is one set, however long).
  package var distinctSetIndices: [Int] {
    var seen: Set<[MatchKey]> = []
    var distinct: [Int] = []
    for index in sets.indices {
      var key: [MatchKey] = []
      for (term, rule) in zip(sets[index].terms, typoRules[index]) {
        key.append(
          MatchKey(
            kind: term.kind, isInverse: term.isInverse, pattern: term.pattern.utf8, rule: rule))
      }
      if seen.insert(key).inserted { distinct.append(index) }
    }
    return distinct
  }

  /// The positive terms, one per match key in query order, each with its typo rule and how
  /// many times the query has it: what the ranking sums, without matching a term again for
  /// each copy.
  package var positiveTermsCounted: [(term: Term, rule: TypoRule, count: Int)] {
    var counted: [(term: Term, rule: TypoRule, count: Int)] = []
    var position: [MatchKey: Int] = [:]
    for (set, rules) in zip(sets, typoRules) {
      for (term, rule) in zip(set.terms, rules) where !term.isInverse {
        let key = MatchKey(
          kind: term.kind, isInverse: false, pattern: term.pattern.utf8, rule: rule)
        if let index = position[key] {
          counted[index].count += 1
        } else {
          position[key] = counted.count
          counted.append((term, rule, 1))
        }
      }
    }
    return counted
  }
}
