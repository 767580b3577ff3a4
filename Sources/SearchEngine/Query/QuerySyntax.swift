extension SearchQuery {
  /// How ``SearchQuery`` reads the text it is given: as words, as one literal piece of text, or in
  /// fzf's extended syntax with operators.
  ///
  /// The command line and the REPL read queries in ``extended`` syntax, as fzf does. An app's
  /// search field usually wants ``words``: a person typing `!mül` or `a|b` there means those
  /// characters, not an exclusion or a choice.
  ///
  /// | text | ``words`` | ``literal`` | ``extended`` |
  /// |---|---|---|---|
  /// | `new york` | "new" and "york", in any fields | "new york" | "new" and "york" |
  /// | `!mül` | "!mül" | "!mül" | not "mül" |
  /// | `a\|b` | "a\|b" | "a\|b" | "a\|b" (a `\|` is an operator only between terms) |
  /// | `a \| b` | "a", "\|" and "b" | "a \| b" | "a" or "b" |
  /// | `'mlr` | "'mlr" | "'mlr" | fuzzy "mlr" |
  /// | `^york$` | "^york$" | "^york$" | the field is "york" |
  ///
  /// In every syntax the terms are folded like the items, a term that is a number also matches
  /// ``SearchModel/Schema/numberAttributes`` by equality, and a query that is empty or folds to nothing
  /// matches every item.
  public enum Syntax: String, Hashable, Sendable, CaseIterable {
    /// Words separated by white space, each of which must occur in the item, in any field the
    /// scope searches, as Apple's AdvancedTableSearch sample does. There are no operators: every
    /// character but white space is literal.
    ///
    /// White space is any character with Unicode's White_Space property, so a tab, a no-break
    /// space (U+00A0) or an ideographic space (U+3000) separates words as a space does.
    ///
    /// The only syntax with typo tolerance (``TypoTolerance``), when the query asks for it.
    case words
    /// The whole text, without white space at either end, is one piece of text that must occur
    /// in one field's value: `new york` finds "New York" but not "York, New". There are no
    /// operators, and white space inside the text is kept.
    ///
    /// A text that is a number (`2007`) also matches number attributes by equality, as the same
    /// one-word query does in the other syntaxes: the same text finds the same items whether an
    /// app reads it as words or as literal text.
    case literal
    /// fzf's extended search syntax in exact mode: `^prefix`, `suffix$`, `!exclude`, `'fuzzy`,
    /// `a | b`, `\ ` for a space; terms are separated by spaces (U+0020) only. See ``SearchQuery``.
    case extended
  }
}
