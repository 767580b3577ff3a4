import SearchCore
import SearchEngine

/// The SGR attributes of a run of text on the screen.
struct TextStyle: OptionSet, Hashable, Sendable {
  let rawValue: Int

  static let bold = TextStyle(rawValue: 1 << 0)
  static let dim = TextStyle(rawValue: 1 << 1)
  static let underline = TextStyle(rawValue: 1 << 2)
  static let inverse = TextStyle(rawValue: 1 << 3)

  /// The SGR parameters that turn the style on ("1;4"); empty for plain text.
  var parameters: String {
    var codes: [String] = []
    if contains(.bold) { codes.append("1") }
    if contains(.dim) { codes.append("2") }
    if contains(.underline) { codes.append("4") }
    if contains(.inverse) { codes.append("7") }
    return codes.joined(separator: ";")
  }
}

/// One line of the screen being built: styled text that never passes `width` columns.
///
/// Text that does not fit is cut at a character (a wide character that would straddle the
/// edge is left out whole), so a line never wraps. Control characters (a tab or a line break
/// inside a value, an escape) are shown as spaces, so data cannot move the cursor.
struct StyledLine: Sendable {
  /// The columns the line may take.
  let width: Int
  /// The text with its SGR sequences; every styled run ends with a reset.
  private(set) var text = ""
  /// The columns the text takes.
  private(set) var columns = 0

  init(width: Int) { self.width = max(0, width) }

  /// The columns still free.
  var remaining: Int { width - columns }

  /// Appends as much of `piece` as fits.
  mutating func append(_ piece: some StringProtocol, _ style: TextStyle = []) {
    guard remaining > 0, !piece.isEmpty else { return }
    let shown = Self.printable(piece)
    let (fitting, used) = ColumnWidth.prefix(of: shown[...], fitting: remaining)
    guard !fitting.isEmpty else { return }
    if style.isEmpty {
      text += fitting
    } else {
      text += "\u{1B}[\(style.parameters)m" + fitting + "\u{1B}[0m"
    }
    columns += used
  }

  /// Appends another line whole when it fits in the columns left; else fills them with
  /// spaces (styled text is not cut after it is made).
  mutating func append(_ line: StyledLine) {
    if line.columns <= remaining {
      text += line.text
      columns += line.columns
    } else {
      pad()
    }
  }

  /// Fills the rest of the line with spaces in `style` (an inverse row spans the screen).
  mutating func pad(_ style: TextStyle = []) {
    guard remaining > 0 else { return }
    append(String(repeating: " ", count: remaining), style)
  }

  /// The text with control characters (C0, DEL, C1) as spaces.
  private static func printable(_ piece: some StringProtocol) -> String {
    guard
      piece.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return String(piece) }
    var result = ""
    for character in piece {
      let isControl = character.unicodeScalars.first?.properties.generalCategory == .control
      result.append(isControl ? " " : character)
    }
    return result
  }
}

/// How a screen of `rows` lines is shared: the search bar, the tokens (when the field has
/// any), the scope bar (when the data set has scopes), the status line, the table, and the
/// key help at the bottom.
///
/// A screen too small for everything keeps the top lines first.
struct LiveLayout: Equatable, Sendable {
  /// Lines of the table.
  let tableHeight: Int
  /// Whether the scope bar has a line.
  let showsScopeBar: Bool
  /// Whether the tokens have a line, under the search bar.
  let showsTokens: Bool
  /// Whether the completions of the text have a line, under the tokens.
  let showsCompletions: Bool
  /// Whether the key help has the last line.
  let showsHelp: Bool

  init(rows: Int, hasScopes: Bool, hasTokens: Bool = false, hasCompletions: Bool = false) {
    let top = 2 + (hasScopes ? 1 : 0) + (hasTokens ? 1 : 0) + (hasCompletions ? 1 : 0)
    showsTokens = hasTokens
    showsCompletions = hasCompletions
    // The help line only when the table keeps at least two lines with it.
    showsHelp = rows - top - 1 >= 2
    showsScopeBar = hasScopes
    tableHeight = max(0, rows - top - (showsHelp ? 1 : 0))
  }
}

/// Turns what the live view shows into lines of a character grid, and lines into one write.
///
/// Pure: every function takes what it draws and the width; nothing here reads the terminal
/// or the controller.
enum LiveScreen {
  static let barLabel = "Search: "

  /// The search bar: the label, then the text or the dimmed placeholder, with the cursor as
  /// an inverse cell: on the character at `cursor` (a character offset), or after the text
  /// when it is at the end (the default).
  ///
  /// A text too long for the line keeps the cursor in view, dropping characters from the start.
  static func searchBar(text: String, placeholder: String, width: Int, cursor: Int? = nil)
    -> StyledLine
  {
    var line = StyledLine(width: width)
    line.append(barLabel, .bold)
    if text.isEmpty {
      line.append(" ", .inverse)
      line.append(placeholder, .dim)
      return line
    }
    let at = min(max(cursor ?? text.count, 0), text.count)
    let split = text.index(text.startIndex, offsetBy: at)
    let after = text[split...]
    line.append(ColumnWidth.suffix(of: text[..<split], fitting: max(0, line.remaining - 1)))
    if let first = after.first {
      line.append(String(first), .inverse)
      line.append(after.dropFirst())
    } else {
      line.append(" ", .inverse)
    }
    return line
  }

  /// The tokens in the field, under the search bar: each condition in brackets, in the order
  /// they were added (Backspace on an empty bar removes the last).
  ///
  /// Tokens that do not fit are cut at the right edge.
  static func tokens(_ conditions: [String], width: Int) -> StyledLine {
    var line = StyledLine(width: width)
    line.append("Tokens: ", .bold)
    for (index, condition) in conditions.enumerated() {
      if index > 0 { line.append(" ") }
      line.append("[\(condition)]", .underline)
    }
    return line
  }

  /// The completions of the text, best first, each with the typed part in bold and how many
  /// items it finds: "Tab: [San] Francisco 12 · [San]tiago 9"; Tab takes the first.
  static func completions(_ completions: [SearchQuery.Completion], width: Int) -> StyledLine {
    var line = StyledLine(width: width)
    line.append("Tab: ", .dim)
    for (index, completion) in completions.enumerated() {
      if index > 0 { line.append(" · ", .dim) }
      for run in completion.marked.runs { line.append(String(run.text), run.isMarked ? .bold : []) }
      line.append(" \(grouped(completion.count))", .dim)
    }
    return line
  }

  /// The scope bar's titles with their counts ("Europe 310"), when the scopes are counted; a
  /// scope without a count (it restricts the fields searched) keeps its bare title.
  static func scopeTitles(_ titles: [String], counts: [Int?]?) -> [String] {
    guard let counts else { return titles }
    return titles.enumerated().map { index, title in
      guard counts.indices.contains(index), let count = counts[index] else { return title }
      return "\(title) \(grouped(count))"
    }
  }

  /// The scope bar: each title between spaces, the selected one in inverse video.
  ///
  /// Titles before it are left out when it would not be in view otherwise, and "‹" says so; when
  /// titles after it do not fit, the line ends with "›" at the right edge.
  static func scopeBar(titles: [String], selected: Int, width: Int) -> StyledLine {
    let cells = titles.map { " \($0) " }
    let marker = 2
    /// The columns of cells `range`, one space between them, with the markers they need.
    func span(_ range: ClosedRange<Int>) -> Int {
      cells[range].reduce(range.count - 1) { $0 + ColumnWidth.columns(of: $1) }
        + (range.lowerBound > 0 ? marker : 0) + (range.upperBound < cells.count - 1 ? marker : 0)
    }
    var first = 0
    if cells.indices.contains(selected) {
      while first < selected, span(first...selected) > width { first += 1 }
    }
    let cutOnTheRight = !cells.isEmpty && span(first...(cells.count - 1)) > width
    var titlesLine = StyledLine(width: width - (cutOnTheRight ? marker : 0))
    if first > 0 { titlesLine.append("‹ ", .dim) }
    for index in cells.indices.dropFirst(first) {
      if index > first { titlesLine.append(" ") }
      titlesLine.append(cells[index], index == selected ? [.inverse, .bold] : [])
    }
    guard cutOnTheRight else { return titlesLine }
    titlesLine.pad()
    var line = StyledLine(width: width)
    line.append(titlesLine)
    line.append(" ›", .dim)
    return line
  }

  /// The status line: what the table holds on the left, "searching…" on the right.
  static func status(_ text: String, busy: Bool, width: Int) -> StyledLine {
    var line = StyledLine(width: width)
    line.append(text, .dim)
    guard busy else { return line }
    let note = "searching…"
    let gap = line.remaining - ColumnWidth.columns(of: note)
    line.append(gap > 0 ? String(repeating: " ", count: gap) : " ")
    line.append(note, .bold)
    return line
  }

  /// A section header: `── Title ──`.
  static func sectionHeader(_ title: String, width: Int) -> StyledLine {
    var line = StyledLine(width: width)
    line.append("── \(title) ──", [.bold, .dim])
    return line
  }

  /// A table row: its text after one space, the marked runs in bold and underlined; the
  /// selected row in inverse video across the whole line; rows of a dimmed table dim.
  static func row(_ text: MarkedText, selected: Bool, dimmed: Bool, width: Int) -> StyledLine {
    var base: TextStyle = selected ? .inverse : []
    if dimmed && !selected { base.insert(.dim) }
    var line = StyledLine(width: width)
    line.append(" ", base)
    for run in text.runs {
      line.append(run.text, run.isMarked ? base.union([.bold, .underline]) : base)
    }
    if selected { line.pad(base) }
    return line
  }

  /// An entry of an item's detail, "  name: value", wrapped between words into lines of
  /// `width` columns (a long value is never cut at the screen's edge): the label bold, what a
  /// query matched in the value bold and underlined.
  static func detailEntry(name: String, value: MarkedText, width: Int) -> [StyledLine] {
    let label = "  \(name): "
    let text = label + value.text
    let utf8 = text.utf8
    let valueUTF8 = value.text.utf8
    func index(ofValueIndex valueIndex: String.Index) -> String.Index {
      utf8.index(
        utf8.startIndex,
        offsetBy: label.utf8.count + valueUTF8.distance(from: valueUTF8.startIndex, to: valueIndex))
    }
    // The text cut into styled pieces: the label, then the value's runs.
    let labelEnd = utf8.index(utf8.startIndex, offsetBy: label.utf8.count)
    var pieces: [(range: Range<String.Index>, style: TextStyle)] = [
      (text.startIndex..<labelEnd, .bold)
    ]
    var position = labelEnd
    for mark in value.marks {
      let lower = index(ofValueIndex: mark.lowerBound)
      let upper = index(ofValueIndex: mark.upperBound)
      if position < lower { pieces.append((position..<lower, [])) }
      pieces.append((lower..<upper, [.bold, .underline]))
      position = upper
    }
    if position < text.endIndex { pieces.append((position..<text.endIndex, [])) }
    return REPLOutput.wrapping(text, width: width).map { indent, range in
      var line = StyledLine(width: width)
      line.append(String(repeating: " ", count: indent))
      for piece in pieces {
        let lower = max(piece.range.lowerBound, range.lowerBound)
        let upper = min(piece.range.upperBound, range.upperBound)
        if lower < upper { line.append(text[lower..<upper], piece.style) }
      }
      return line
    }
  }

  /// A line with `text` centred, dim (the table's "No Results").
  static func centred(_ text: String, width: Int) -> StyledLine {
    var line = StyledLine(width: width)
    let indent = max(0, (width - ColumnWidth.columns(of: text)) / 2)
    line.append(String(repeating: " ", count: indent))
    line.append(text, .dim)
    return line
  }

  /// A key's help: what to press and what it does; `priority` says which help goes last
  /// when the line is too narrow (the lowest first).
  struct HelpItem: Sendable {
    var text: String
    var priority: Int
  }

  /// The key help, left out item by item (lowest priority first) until it fits.
  static func help(_ items: [HelpItem], width: Int) -> StyledLine {
    let separator = " · "
    var kept = items
    func length(_ items: [HelpItem]) -> Int {
      ColumnWidth.columns(of: items.map(\.text).joined(separator: separator))
    }
    while kept.count > 1, length(kept) > width,
      let lowest = kept.indices.min(by: { kept[$0].priority < kept[$1].priority })
    {
      kept.remove(at: lowest)
    }
    var line = StyledLine(width: width)
    line.append(kept.map(\.text).joined(separator: separator), .dim)
    return line
  }

  /// A frame as one write: the cursor home, each of the `rows` lines followed by
  /// erase-to-end-of-line (missing lines are empty), and the rest of the screen cleared.
  ///
  /// A line that fills the width gets no erase: the cursor then waits on the last column,
  /// and an erase there would take that column's character with it. No line break follows
  /// the last line, so the screen never scrolls.
  static func frame(_ lines: [StyledLine], columns: Int, rows: Int) -> String {
    var output = "\u{1B}[0m\u{1B}[H"
    var lastRemaining = 1
    for index in 0..<max(0, rows) {
      let line = index < lines.count ? lines[index] : StyledLine(width: columns)
      if index > 0 { output += "\r\n" }
      output += line.text
      if line.remaining > 0 { output += "\u{1B}[K" }
      lastRemaining = line.remaining
    }
    if lastRemaining > 0 { output += "\u{1B}[J" }
    return output
  }
}
