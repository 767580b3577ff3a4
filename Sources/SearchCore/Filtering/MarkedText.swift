/// A row's text with the parts a query matched marked, for drawing highlights: the item as
/// ``Model/display(_:)`` shows it, and the ranges of that text that come from matched
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
  public func markedDisplay(of id: ItemID, for query: Query?, scope: Int = 0) throws(ICUError)
    -> MarkedText
  {
    var byValue: [Int: [Int: [Range<String.Index>]]] = [:]
    for highlight in try query.map({ query throws(ICUError) in
      try highlights(of: id, for: query, scope: scope)
    }) ?? [] {
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

  /// UTF-8 ranges as string ranges, merged where they overlap or touch.
  private static func marked(_ text: String, _ marks: [Range<Int>]) -> MarkedText {
    let merged = merged(marks)
    let utf8 = text.utf8
    return MarkedText(
      text: text,
      marks: merged.map { range in
        utf8.index(
          utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
            utf8.startIndex, offsetBy: range.upperBound)
      })
  }
}
