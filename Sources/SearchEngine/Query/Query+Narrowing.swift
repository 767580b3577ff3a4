extension SearchQuery {
  /// Whether every item that matches this query is sure to match `older`, so that a search
  /// for this query may rescan the results of `older` instead of every item.
  ///
  /// True when every term set of `older` has a counterpart here: a set each of whose terms
  /// implies some term of the older set. A term implies another of the same polarity when:
  ///
  /// - exact: the older term's folded text occurs in the newer one (of any kind but fuzzy;
  ///   a fuzzy term implies only the single characters it consists of);
  /// - prefix: the newer term is a prefix or equal term that starts with the older text;
  /// - suffix: the newer term is a suffix or equal term that ends with the older text;
  /// - equal: the newer term is an equal term with the same text;
  /// - fuzzy: the older term's characters occur in order in the newer term (of any kind).
  ///
  /// Contained text must start and end on whole characters of the newer term. Inverse terms
  /// work the other way round: `!abc` then `!ab` narrows (fewer items lack "ab" than lack
  /// "abc"); `!ab` then `!abc` does not. An empty `older` is narrowed by every query; an empty
  /// query narrows only an empty one. False means only "not known": the caller scans all.
  /// Both queries must have been folded with the same normaliser, like the items.
  ///
  /// With `matchingNumbers` (the items have ``SearchModel/Schema/numberAttributes``), a term that is a
  /// number also matches items by equality, which containment does not predict: "200" finds
  /// nothing where "2007" finds the products of 2007. Such a term then implies another only
  /// when both are the same number ("2007" and "2007.0").
  ///
  /// With typos (``typos``), a term that may match with typos finds items that need not
  /// contain an older term's text ("calif" with one typo finds "calf", which "cali" does not),
  /// so it implies an older term only when its budget is at most the older one's and the
  /// older term is the same text, matched as a prefix or as whole words as the newer one is
  /// or more loosely, or is a prefix term (the query's last word) whose text the newer one
  /// starts with: the distance from a query word to the prefixes of a word never falls as the
  /// query word grows. A term without typos implies as above.
  public func narrows(_ older: SearchQuery, matchingNumbers: Bool = false) -> Bool {
    older.sets.indices.allSatisfy { olderSet in
      keepsSet(of: older, at: olderSet)
        || sets.indices.contains { set in
          !sets[set].terms.isEmpty
            && sets[set].terms.indices.allSatisfy { term in
              older.sets[olderSet].terms.indices.contains { olderTerm in
                sets[set].terms[term].implies(
                  older.sets[olderSet].terms[olderTerm], rule: typoRules[set][term],
                  olderRule: older.typoRules[olderSet][olderTerm], matchingNumbers: matchingNumbers)
              }
            }
        }
    }
  }

  /// The words whose typo matches, added to the results of `older`, hold every item that
  /// matches this query, when the results of `older` alone may not: an empty list when this
  /// query ``narrows(_:matchingNumbers:)`` `older`, nil when neither holds.
  ///
  /// A word whose budget grew ("califor" with one typo, then "californ" with two) or whose
  /// typos reach what the older word did not still contains the older word's text: an item it
  /// finds either contains that text (and matched the older word) or holds a word within its
  /// budget, which the word index lists (``SearchCorpus/typoMatches(of:rule:scope:)``). So a
  /// search checks those items beside the older results instead of scanning every item.
  package func typoWidening(of older: SearchQuery, matchingNumbers: Bool = false) -> [TermPosition]?
  {
    var widened: Set<TermPosition> = []
    for olderSet in older.sets.indices where !keepsSet(of: older, at: olderSet) {
      // A set here that implies the older set, by typo-aware implication where it holds
      // (nothing to add) or by the words' text alone (their typo matches to add).
      var best: Set<TermPosition>?
      for set in sets.indices where !sets[set].terms.isEmpty {
        var added: Set<TermPosition> = []
        let implied = sets[set].terms.indices.allSatisfy { term in
          let newer = sets[set].terms[term]
          let rule = typoRules[set][term]
          let olderTerms = older.sets[olderSet].terms.indices
          if olderTerms.contains(where: {
            newer.implies(
              older.sets[olderSet].terms[$0], rule: rule,
              olderRule: older.typoRules[olderSet][$0], matchingNumbers: matchingNumbers)
          }) {
            return true
          }
          guard rule.budget > 0, !newer.isInverse,
            olderTerms.contains(where: {
              newer.implies(older.sets[olderSet].terms[$0], matchingNumbers: matchingNumbers)
            })
          else { return false }
          added.insert(TermPosition(set: set, term: term))
          return true
        }
        if implied && added.count < best?.count ?? .max { best = added }
        if best?.isEmpty == true { break }
      }
      guard let best else { return nil }
      widened.formUnion(best)
    }
    return widened.sorted()
  }
}

extension SearchQuery {
  /// Whether set `index` of `older` is here at the same place with the same typo rules, so
  /// that it implies itself: text typed at the end keeps the sets before it, and the search
  /// compares the other sets only, not every pair (a query of *s* sets costs O(*s*), not
  /// O(*s*²), per keystroke).
  fileprivate func keepsSet(of older: SearchQuery, at index: Int) -> Bool {
    index < sets.count && sets[index] == older.sets[index]
      && typoRules[index] == older.typoRules[index]
  }
}

/// A term of a query: the index of its set, and its index in the set.
package struct TermPosition: Hashable, Comparable, Sendable {
  package let set: Int
  package let term: Int

  package static func < (a: Self, b: Self) -> Bool { (a.set, a.term) < (b.set, b.term) }
}

extension Term {
  /// Whether every item that this term finds under `rule` is found by `other` under
  /// `olderRule` (see ``SearchQuery/narrows(_:matchingNumbers:)``).
  func implies(_ other: Term, rule: TypoRule, olderRule: TypoRule, matchingNumbers: Bool)
    -> Bool
  {
    guard rule.budget > 0 else { return implies(other, matchingNumbers: matchingNumbers) }
    guard !isInverse, !other.isInverse, kind == .exact, other.kind == .exact,
      rule.budget <= olderRule.budget
    else { return false }
    if pattern.utf8 == other.pattern.utf8 { return olderRule.isPrefix || !rule.isPrefix }
    return olderRule.isPrefix && occurs(other.pattern.utf8, in: pattern.utf8, at: .start)
  }
}

extension Term {
  /// Whether every item that satisfies this term (contains it, or lacks it when inverse)
  /// satisfies `other` too.
  ///
  /// Inverse and non-inverse terms never imply each other.
  func implies(_ other: Term, matchingNumbers: Bool) -> Bool {
    guard isInverse == other.isInverse else { return false }
    // Contrapositive: lacking `self` implies lacking `other` when containing `other` implies
    // containing `self`.
    // Every item that contains `narrow` (taken as non-inverse) must contain `wide`.
    let (narrow, wide) = isInverse ? (other, self) : (self, other)
    guard narrow.contains(wide) else { return false }
    // The items `narrow` matches by number must be among those `wide` matches.
    guard matchingNumbers, let number = narrow.number else { return true }
    return number == wide.number
  }

  /// The term's folded text as a canonical number, when it is one.
  var number: String? {
    DecimalText.canonical(String(decoding: pattern.utf8, as: UTF8.self))
  }

  /// Whether every item that contains this term (taken as non-inverse) contains `other` (taken
  /// as non-inverse).
  func contains(_ other: Term) -> Bool {
    let whole = pattern.utf8
    let part = other.pattern.utf8
    guard !whole.isEmpty, !part.isEmpty else { return false }
    switch other.kind {
    case .exact:
      // A fuzzy term holds each of its characters whole, so it implies one of them alone.
      if kind == .fuzzy { return isSingleCharacter(part) && isSubsequence(part, of: whole) }
      return occurs(part, in: whole, at: .anywhere)
    case .prefix:
      return (kind == .prefix || kind == .equal) && occurs(part, in: whole, at: .start)
    case .suffix:
      return (kind == .suffix || kind == .equal) && occurs(part, in: whole, at: .end)
    case .equal:
      return kind == .equal && whole == part
    case .fuzzy:
      return isSubsequence(part, of: whole)
    }
  }
}

private enum Placement {
  case anywhere
  case start
  case end
}

/// Whether `part` occurs in `whole` at `placement`, starting and ending on `Character`
/// boundaries of `whole`.
private func occurs(_ part: [UInt8], in whole: [UInt8], at placement: Placement) -> Bool {
  guard part.count <= whole.count else { return false }
  let last = whole.count - part.count
  let starts =
    switch placement {
    case .anywhere: 0...last
    case .start: 0...0
    case .end: last...last
    }
  // Every Character boundary of `whole` only when its bytes cannot tell: a search compares
  // its query with each cached one, and the query may be a paste of thousands of characters.
  var boundaries: Set<Int>?
  return starts.contains { start in
    let end = start + part.count
    guard whole[start..<end].elementsEqual(part) else { return false }
    if isASCIIBoundary(start, of: whole) && isASCIIBoundary(end, of: whole) { return true }
    let known = boundaries ?? characterBoundaries(of: whole)
    boundaries = known
    return known.contains(start) && known.contains(end)
  }
}

/// Whether `offset` is a `Character` boundary of `bytes` that their bytes alone show: an end,
/// or between two ASCII bytes other than CR LF. (Before a byte that is not ASCII, a combining
/// mark may continue the character: not decided here.)
private func isASCIIBoundary(_ offset: Int, of bytes: [UInt8]) -> Bool {
  guard offset > 0, offset < bytes.count else { return true }
  let (before, after) = (bytes[offset - 1], bytes[offset])
  return before < 0x80 && after < 0x80 && !(before == 0x0D && after == 0x0A)
}

/// The UTF-8 offsets at which the `Character`s of `bytes` start, and its end.
private func characterBoundaries(of bytes: [UInt8]) -> Set<Int> {
  var boundaries: Set<Int> = [0]
  var offset = 0
  for character in String(decoding: bytes, as: UTF8.self) {
    offset += character.utf8.count
    boundaries.insert(offset)
  }
  return boundaries
}

/// Whether `bytes` are one `Character`.
private func isSingleCharacter(_ bytes: [UInt8]) -> Bool {
  String(decoding: bytes, as: UTF8.self).count == 1
}

/// Whether the `Character`s of `part` occur in order among those of `whole`.
private func isSubsequence(_ part: [UInt8], of whole: [UInt8]) -> Bool {
  var remaining = String(decoding: whole, as: UTF8.self).makeIterator()
  for character in String(decoding: part, as: UTF8.self) {
    var found = false
    while let candidate = remaining.next() {
      if candidate.utf8.elementsEqual(character.utf8) {
        found = true
        break
      }
    }
    if !found { return false }
  }
  return true
}
