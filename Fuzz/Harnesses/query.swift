// The query parser: any text parses in every syntax without trapping (parsing has no errors;
// only folding can fail, as a thrown ICUError). In the extended syntax, the query written from
// its terms' descriptions parses back to the same terms, and every term's range is its own
// token in the text.

private let normalizer = try? Normalizer()

/// One input: the query text.
func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let text = input.restAsText()
  guard let normalizer else {
    require(false, "the default normaliser cannot be made")
    return 0
  }
  for syntax in SearchQuery.Syntax.allCases {
    _ = try? SearchQuery(text, syntax: syntax, normalizer: normalizer)
  }
  guard let query = try? SearchQuery(text, normalizer: normalizer) else { return 0 }
  let terms = query.sets.flatMap(\.terms)
  require(query.sets.allSatisfy { !$0.terms.isEmpty }, "an empty set in \(text.debugDescription)")
  require(terms.allSatisfy { !$0.pattern.isEmpty }, "an empty pattern in \(text.debugDescription)")

  // Each term's description alone reads back as the term.
  let shape = { (query: SearchQuery) in
    query.sets.map { $0.terms.map { "\($0.kind) \($0.isInverse) \($0.text.debugDescription)" } }
  }
  for term in terms {
    if let again = try? SearchQuery(term.description, normalizer: normalizer) {
      require(
        shape(again) == [["\(term.kind) \(term.isInverse) \(term.text.debugDescription)"]],
        "term \(term.text.debugDescription) of \(text.debugDescription) is written"
          + " \(term.description.debugDescription), which parses as \(shape(again))")
    }
  }
  // The terms' descriptions (query syntax; the query's own description puts a set's terms in
  // parentheses, for reading) joined as the syntax joins them read back as the same query.
  // The syntax has no escape for a backslash, so a description that ends with one (an exact or
  // prefix term) is followed by nothing, or the space after it would be escaped.
  let descriptions = query.sets.map { $0.terms.map(\.description) }
  let canonical = descriptions.map { $0.joined(separator: " | ") }.joined(separator: " ")
  let writable = descriptions.joined().dropLast().allSatisfy { $0.utf8.last != UInt8(ascii: "\\") }
  if writable, let again = try? SearchQuery(canonical, normalizer: normalizer) {
    require(
      shape(again) == shape(query),
      "\(text.debugDescription) is written \(canonical.debugDescription), which parses"
        + " as \(shape(again)), not \(shape(query))")
  }

  // Each term's range is a token of the text: taking the operators off it and reading its
  // escapes gives the term's text.
  var previous = text.startIndex
  for term in terms {
    require(
      term.range.lowerBound >= previous && term.range.upperBound <= text.endIndex,
      "term ranges out of order or out of the text in \(text.debugDescription)")
    previous = term.range.upperBound
    var bytes: [UInt8] = []
    var token = Array(text[term.range].utf8)[...]
    while let byte = token.first {
      token = token.dropFirst()
      if byte == UInt8(ascii: "\\"), token.first == UInt8(ascii: " ") {
        bytes.append(UInt8(ascii: " "))
        token = token.dropFirst()
      } else {
        bytes.append(byte == UInt8(ascii: "\t") ? UInt8(ascii: " ") : byte)
      }
    }
    // The operators as fzf's pattern.go takes them: `!`, then a final `$` (not a lone one),
    // then a leading `'` (fuzzy, even after a `$`) or `^` (prefix, or equal after a `$`).
    var body = bytes[...]
    var kind = Term.Kind.exact
    if term.isInverse { body = body.dropFirst() }
    if body.last == UInt8(ascii: "$") && body.count > 1 {
      kind = .suffix
      body = body.dropLast()
    }
    if body.first == UInt8(ascii: "'") {
      kind = .fuzzy
      body = body.dropFirst()
    } else if body.first == UInt8(ascii: "^") {
      kind = kind == .suffix ? .equal : .prefix
      body = body.dropFirst()
    }
    require(
      kind == term.kind, "term \(term) of \(text.debugDescription) is \(term.kind), not \(kind)")
    require(
      String(decoding: body, as: UTF8.self) == term.text,
      "term \(term.text.debugDescription) sits at \(text[term.range].debugDescription)"
        + " in \(text.debugDescription)")
  }
  return 0
}
