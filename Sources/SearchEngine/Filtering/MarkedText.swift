/// A row's text with the parts a query matched marked, for drawing highlights: the item as
/// ``SearchModel/display(_:)`` shows it, and the ranges of that text that come from matched
/// ranges of the fields it shows.
public struct MarkedText: Hashable, Sendable {
  /// The row's text.
  public let text: String
  /// The marked ranges of ``text``: whole characters, ascending, not overlapping or touching.
  public let marks: [Range<String.Index>]

  /// Creates marked text; `marks` must be ascending ranges of `text` that do not overlap.
  public init(text: String, marks: [Range<String.Index>] = []) {
    self.text = text
    self.marks = marks
  }

  /// The marks in UTF-16 code units of ``text``, for `NSRange` and UIKit's attributed
  /// strings.
  public var utf16Marks: [Range<Int>] {
    let utf16 = text.utf16
    return marks.map { mark in
      let lower = utf16.distance(from: utf16.startIndex, to: mark.lowerBound)
      return lower..<(lower + utf16.distance(from: mark.lowerBound, to: mark.upperBound))
    }
  }

  /// The text cut into runs that alternate between unmarked and marked; empty runs are
  /// left out.
  public var runs: [(text: Substring, isMarked: Bool)] {
    var result: [(text: Substring, isMarked: Bool)] = []
    var position = text.startIndex
    for mark in marks {
      if position < mark.lowerBound { result.append((text[position..<mark.lowerBound], false)) }
      if !mark.isEmpty { result.append((text[mark], true)) }
      position = mark.upperBound
    }
    if position < text.endIndex { result.append((text[position...], false)) }
    return result
  }
}

extension SearchCorpus {
  /// An item's display text with where `query` matched it marked (in the fields `scope`
  /// searches and the display shows); no marks for a nil or empty query.
  ///
  /// - Throws: ICU's errors, from folding the item's values.
  public func markedDisplay(of id: ItemID, for query: SearchQuery?, scope: Int = 0) throws(ICUError)
    -> MarkedText
  {
    markedDisplay(
      of: id,
      highlights: try query.map { query throws(ICUError) in
        try highlights(
          of: id, for: query, scope: scope, foldingEveryValue: false, in: displayedFields(of: id))
      } ?? [])
  }

  /// The fields the display of item `id` shows values of (the first field's first value when
  /// the model has no display template).
  private func displayedFields(of id: ItemID) -> Set<Int> {
    guard let parts = model.displayParts else { return [0] }
    var shown: Set<Int> = []
    parts.walk(
      id, in: model, text: { _ in }, field: { field, _ in shown.insert(field) },
      attribute: { _ in })
    return shown
  }

  /// The display of item `id` with `highlights` marked.
  private func markedDisplay(of id: ItemID, highlights: [SearchResult.Highlight]) -> MarkedText {
    var byValue: [Int: [Int: [Range<String.Index>]]] = [:]
    for highlight in highlights {
      byValue[highlight.field, default: [:]][highlight.value] = highlight.ranges
    }
    var text = ""
    var marks: [Range<Int>] = []  // UTF-8 offsets in `text`, merged at the end
    func append(_ value: String, ranges: [Range<String.Index>]) {
      let length = text.utf8.count
      for range in ranges {
        let lower = length + value.utf8.distance(from: value.startIndex, to: range.lowerBound)
        marks.append(lower..<(lower + value.utf8[range].count))
      }
      text += value
    }
    guard let parts = model.displayParts else {
      if !model.schema.fields.isEmpty, let first = model.values(of: id, field: 0).first {
        append(first, ranges: byValue[0]?[0] ?? [])
      }
      return Self.marked(text, marks)
    }
    parts.walk(
      id, in: model, text: { append($0, ranges: []) },
      field: { field, values in
        for (index, value) in values.enumerated() {
          if index > 0 { append(", ", ranges: []) }
          append(value, ranges: byValue[field]?[index] ?? [])
        }
      },
      attribute: { append($0, ranges: []) })
    return Self.marked(text, marks)
  }

  /// An item's row in a list of results, showing why it matched.
  ///
  /// The row is the item's ``markedDisplay(of:for:scope:)`` and, when nothing in it is marked
  /// because the query matched only values the display does not show (an alternate name, a
  /// second value of the first field), " · " and the first such value, its matches marked, cut
  /// to about `snippetLength` characters around the first match with "…" where it was cut.
  ///
  /// So "москва" lists "Moscow (RU) · Москва", as fzf shows the line that matched.
  ///
  /// - Throws: ICU's errors, from folding the item's values.
  public func markedRow(
    of id: ItemID, for query: SearchQuery?, scope: Int = 0, snippetLength: Int = 40
  ) throws(ICUError) -> MarkedText {
    let display = try markedDisplay(of: id, for: query, scope: scope)
    // A display with a mark shows why already.
    guard let query, display.marks.isEmpty else { return display }
    let shownFields = displayedFields(of: id)
    let all = try highlights(of: id, for: query, scope: scope)
    let isShown = { (highlight: SearchResult.Highlight) -> Bool in
      model.displayParts == nil
        ? highlight.field == 0 && highlight.value == 0 : shownFields.contains(highlight.field)
    }
    guard let hidden = all.first(where: { !isShown($0) && !$0.ranges.isEmpty }) else {
      return display
    }
    let (piece, pieceMarks) = Self.snippet(of: hidden, length: max(snippetLength, 8))
    var text = display.text + " · "
    let base = text.utf8.count
    var marks = display.marks.map { mark in
      display.text.utf8.distance(
        from: display.text.startIndex, to: mark.lowerBound)..<display.text.utf8.distance(
          from: display.text.startIndex, to: mark.upperBound)
    }
    marks += pieceMarks.map { (base + $0.lowerBound)..<(base + $0.upperBound) }
    text += piece
    return Self.marked(text, marks)
  }

  /// A highlight's value cut to `length` characters around its first match (a quarter of
  /// the length before it), with "…" where it was cut, and its marks as UTF-8 ranges of the
  /// result.
  static func snippet(of highlight: SearchResult.Highlight, length: Int) -> (String, [Range<Int>]) {
    let value = highlight.text
    let count = value.count
    var lower = value.startIndex
    var upper = value.endIndex
    if count > length, let first = highlight.ranges.first {
      let matchStart = value.distance(from: value.startIndex, to: first.lowerBound)
      let start = max(0, min(matchStart - length / 4, count - length))
      lower = value.index(value.startIndex, offsetBy: start)
      upper = value.index(lower, offsetBy: min(length, count - start))
    }
    let prefix = lower > value.startIndex ? "…" : ""
    let suffix = upper < value.endIndex ? "…" : ""
    let utf8 = value.utf8
    let shift = prefix.utf8.count - utf8.distance(from: utf8.startIndex, to: lower)
    let marks = highlight.ranges.compactMap { range -> Range<Int>? in
      let from = max(range.lowerBound, lower)
      let to = min(range.upperBound, upper)
      guard from < to else { return nil }
      return
        (utf8.distance(from: utf8.startIndex, to: from) + shift)..<(utf8.distance(
          from: utf8.startIndex, to: to) + shift)
    }
    return (prefix + value[lower..<upper] + suffix, marks)
  }

  /// UTF-8 ranges as string ranges on whole characters of the row, merged where they overlap
  /// or touch.
  ///
  /// A match covers whole characters of its value, but the row joins values and literal text,
  /// and a character can form across a join: a value's last "한" and a skin-tone modifier that
  /// starts the next part are one character of the row, as are an "a" and a vowel sign after
  /// it. The match stands (the field-level search decided it on the value); its mark grows to
  /// the whole characters of the row it touches.
  private static func marked(_ text: String, _ marks: [Range<Int>]) -> MarkedText {
    let utf8 = text.utf8
    guard !marks.isEmpty else { return MarkedText(text: text) }
    // The UTF-8 offset where each character of the row starts, and the end.
    var starts: [Int] = []
    var offset = 0
    for character in text {
      starts.append(offset)
      offset += character.utf8.count
    }
    starts.append(offset)
    let snapped = marks.map { range -> Range<Int> in
      // The last start at or before the lower bound; the first boundary at or after the upper.
      var low = 0
      var high = starts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if starts[middle] <= range.lowerBound { low = middle } else { high = middle - 1 }
      }
      let lower = starts[low]
      low = 0
      high = starts.count - 1
      while low < high {
        let middle = (low + high) / 2
        if starts[middle] >= range.upperBound { high = middle } else { low = middle + 1 }
      }
      return lower..<max(lower, starts[low])
    }
    return MarkedText(
      text: text,
      marks: snapped.merged().map { range in
        utf8.index(
          utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
            utf8.startIndex, offsetBy: range.upperBound)
      })
  }
}
