// Under `Folding.latin`, a run of Han characters folds to its syllables without spaces
// (你好 to "nihao"), and a term with spaces ("ni hao") also looks for its text without them.

extension QueryParser {
  /// The most term sets one set becomes when its inverse terms get their joined forms (each
  /// such term doubles them); the terms past that keep their spaced form alone.
  static let joinedSetLimit = 8

  /// `sets` where every term whose folded text has a space (U+0020) also matches its text
  /// without spaces, when `normalizer` transliterates (``Folding/latin``); `sets` unchanged
  /// otherwise.
  ///
  /// A term "ni hao" becomes the choice "ni hao" | "nihao" in its set. An inverse term must
  /// lack both forms, so its set splits in two, one set per form: `(a | !b\ c)` becomes
  /// `(a | !b\ c) (a | !bc)`.
  static func addingJoinedForms(
    _ sets: [TermSet], normalizer: Normalizer
  ) throws(ICUError) -> [TermSet] {
    guard normalizer.folding.contains(.latin) else { return sets }
    var result: [TermSet] = []
    for set in sets {
      var choices: [Term] = []
      var inverseForms: [[Term]] = []
      for term in set.terms {
        let joined = try joinedForm(of: term, normalizer: normalizer)
        if term.isInverse {
          inverseForms.append([term] + (joined.map { [$0] } ?? []))
        } else {
          choices.append(term)
          if let joined { choices.append(joined) }
        }
      }
      // One set per way of picking one form of each inverse term.
      var expanded: [[Term]] = [choices]
      for forms in inverseForms {
        let usable = expanded.count * forms.count <= joinedSetLimit ? forms : [forms[0]]
        expanded = expanded.flatMap { terms in usable.map { terms + [$0] } }
      }
      // Keep the terms in query order within each set.
      for terms in expanded {
        let ordered = set.terms.flatMap { original in
          terms.filter { $0.range == original.range && $0.isInverse == original.isInverse }
        }
        result.append(TermSet(terms: ordered))
      }
    }
    return result
  }

  /// The term with its text's spaces taken out, when its folded text has a space and the
  /// joined text folds to something else.
  private static func joinedForm(
    of term: Term, normalizer: Normalizer
  ) throws(ICUError) -> Term? {
    guard term.pattern.utf8.contains(0x20) else { return nil }
    let text = String(term.text.unicodeScalars.filter { $0 != " " })
    let pattern = try FoldedPattern(text, normalizer: normalizer)
    guard !pattern.isEmpty, pattern.utf8 != term.pattern.utf8 else { return nil }
    return Term(
      kind: term.kind, isInverse: term.isInverse, text: text, pattern: pattern, range: term.range)
  }
}
