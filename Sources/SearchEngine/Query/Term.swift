/// One search term of a ``SearchQuery``: a piece of folded text, how it must occur in an item, and
/// whether the item must contain it or must not.
///
/// Every kind matches on whole folded characters, like ``FoldedPattern``. The anchored kinds
/// follow fzf: ``Kind/prefix`` matches at the start of an item after its leading white space,
/// ``Kind/suffix`` at the end before its trailing white space, ``Kind/equal`` the whole item
/// without either; white space is kept when the term itself starts (or ends) with white space.
public struct Term: Hashable, Sendable {
  /// How a term must occur in an item.
  public enum Kind: Hashable, Sendable {
    /// Anywhere in the item: `abc` (and `!abc`).
    case exact
    /// At the start of the item: `^abc`.
    case prefix
    /// At the end of the item: `abc$`.
    case suffix
    /// The whole item: `^abc$`.
    case equal
    /// The term's characters in order, with anything between them: `'abc`.
    case fuzzy
  }

  /// How the term must occur in an item.
  public let kind: Kind
  /// Whether the term excludes the items that contain it (`!abc`) instead of requiring it.
  public let isInverse: Bool
  /// The term as typed, without its operators (`!`, `'`, `^`, `$`) and with `\ ` read as a
  /// space; not folded.
  public let text: String
  /// ``text`` folded with the query's normaliser: what is looked for in folded items.
  public let pattern: FoldedPattern
  /// Where the term's whole token, operators and escapes included, sits in ``SearchQuery/text``:
  /// for highlighting the query itself.
  public let range: Range<String.Index>
}

extension Term: CustomStringConvertible {
  /// The term in query syntax, with spaces escaped: `!^abc`, `def$`, `'ghi`, `a\ b`; the
  /// query that is this text alone has this term.
  ///
  /// The syntax has no escape for a backslash: an exact or prefix term whose text ends with one
  /// (`a\`) reads back only at the end of a query, since a space after it would be escaped.
  public var description: String {
    var bytes: [UInt8] = []
    for byte in text.utf8 {
      if byte == 0x20 { bytes.append(0x5C) }
      bytes.append(byte)
    }
    let body = String(decoding: bytes, as: UTF8.self)
    let term =
      switch kind {
      case .exact: body
      case .prefix: "^" + body
      case .suffix: body + "$"
      case .equal: "^" + body + "$"
      // A final `$` after `'` is taken off as a suffix mark, as fzf takes it (`'abc$` is the
      // fuzzy "abc"), so a fuzzy text that ends with `$` is written with one more. One that
      // ends with `\` gets one too, so that a space after the term is not escaped. (The last
      // byte, not the last Character: "\u{6DD}$" is one Character.)
      case .fuzzy:
        "'" + body
          + (bytes.last == UInt8(ascii: "$") || bytes.last == UInt8(ascii: "\\") ? "$" : "")
      }
    return isInverse ? "!" + term : term
  }
}

/// Terms joined by `|`: an item matches the set when any one of its terms matches it.
///
/// A non-inverse term matches the items that contain it; an inverse term matches the items
/// that do not. A set is never empty.
public struct TermSet: Hashable, Sendable {
  /// The alternatives, in query order.
  public let terms: [Term]
}

extension TermSet: CustomStringConvertible {
  /// The set in query syntax: one term alone, several in parentheses, `(^abc | def$)`.
  public var description: String {
    if terms.count == 1 { return terms[0].description }
    return "(" + terms.map(\.description).joined(separator: " | ") + ")"
  }
}
