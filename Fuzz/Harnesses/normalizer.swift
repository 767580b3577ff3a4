// The normaliser: folding is idempotent for every option set and locale, and every range of
// the folded text between two folded-character boundaries maps back to whole characters of
// the original, with the UTF-16 range of the same characters.

/// The locales whose folding differs: the root, and the Turkic locales' dotted and dotless i.
private let locales: [String?] = [nil, "tr", "az", "de", "el", "lt"]

/// One input: a folding option set (5 bits), a locale, then the text.
func fuzzNormalizer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let folding = Folding(rawValue: input.byte() & 0x1F)
  let locale = locales[input.below(locales.count)]
  let text = input.restAsText()
  guard let normalizer = try? Normalizer(folding: folding, locale: locale) else {
    require(false, "Normalizer(folding: \(folding), locale: \(locale ?? "root")) failed")
    return 0
  }
  let folded: FoldedText
  do {
    folded = try normalizer.foldedText(text)
  } catch {
    // ICU refused the text (a buffer limit, say): an error, not a trap, is the contract.
    return 0
  }
  if let again = try? normalizer.fold(folded.folded) {
    require(
      again == folded.folded,
      "not idempotent with \(folding) \(locale ?? "root"): \(Array(text.unicodeScalars)) → "
        + "\(Array(folded.folded.unicodeScalars)) → \(Array(again.unicodeScalars))")
  }
  let bytes = folded.utf8
  let boundaries = (0...bytes.count).filter { folded.isCharacterBoundary($0) }
  require(boundaries.first == 0 && boundaries.last == bytes.count, "the ends are boundaries")
  let starts = characterOffsets(of: text)
  let utf8 = text.utf8
  // Every pair would be quadratic; the first few boundaries with every other one, and
  // neighbours, cover the starts, the ends and the short ranges a match has.
  var pairs: [(Int, Int)] = []
  for (i, lower) in boundaries.enumerated() {
    for upper in boundaries[(i + 1)...].prefix(i < 4 ? boundaries.count : 3) {
      pairs.append((lower, upper))
    }
  }
  for (lower, upper) in pairs {
    guard let original = folded.originalRange(forFolded: lower..<upper) else {
      require(false, "no original range for folded boundaries \(lower)..<\(upper) of \(bytes)")
      continue
    }
    let from = utf8.distance(from: utf8.startIndex, to: original.lowerBound)
    let to = utf8.distance(from: utf8.startIndex, to: original.upperBound)
    require(
      starts.contains(from) && starts.contains(to),
      "folded \(lower)..<\(upper) maps to \(from)..<\(to), not whole characters of "
        + "\(Array(text.unicodeScalars))")
    let utf16 = folded.utf16Range(forFolded: lower..<upper)
    let expected =
      text[..<original.lowerBound].utf16.count..<text[..<original.upperBound].utf16.count
    require(utf16 == expected, "UTF-16 range \(String(describing: utf16)) ≠ \(expected)")
  }
  return 0
}
