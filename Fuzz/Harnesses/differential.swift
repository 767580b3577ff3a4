// fuzz-sources: Sources/SearchCoreTesting/ManualSearchScheduler.swift
//
// The filter against a naive oracle: a small random corpus in many scripts, and a random
// session of keystrokes, backspaces, scope changes and model changes. On every step the
// incremental filter (narrowing, cached results, full scans), a fresh full scan and a search
// controller's results table all give what the oracle gives, and the controller's updates,
// applied to the rows that were on screen, give the rows on screen now.
//
// The oracle shares only the normaliser with the engine (folding has its own harness): it
// parses the query by fzf's rules on its own, folds each value and each term, and tests
// containment byte by byte on the folded text's character boundaries as Swift's `String`
// finds them, with `^`, `$`, `!`, `|` and `'` applied as fzf does. A words query may tolerate
// typos (off, the default, or one typo from 3 characters and two from 5, so that the short
// words of the pieces have them): the oracle then finds the words of each folded value
// itself and measures each query word against them with a full table of the optimal string
// alignment distance, and the controller must list the items by their typo counts, fewest
// first, and tell each count.

/// Pieces of text the corpus and the typing are made of: ASCII with the query's operators,
/// Latin with composed and decomposed accents, ligatures and the Turkish i, Greek with final
/// sigma, Cyrillic, CJK with half-width forms and voicing marks, Hangul jamo, Indic conjuncts,
/// lone combining marks, emoji with modifiers and joiners, and invisible characters.
private let pieces: [String] = [
  "new", "york", "New York", "ab", "a", "b", "ba", "abc", "I", "i", "x", " ", "  ", "\t",
  "^", "$", "!", "|", "'", "\\", "-", "2007",
  "é", "e\u{301}", "É", "Straße", "STRASSE", "ß", "ﬁ", "ǅ", "İ", "ı", "Ł", "ø", "Å", "æ", "Œ",
  "Αθήνα", "αθηνα", "ς", "Σ", "ΐ", "ά",
  "Москва", "москва", "Ё", "е", "й",
  "東京", "京", "ｶﾞ", "ガ", "か\u{3099}", "が", "Ａｂ", "ｱ", "한", "\u{1112}", "\u{1161}",
  "क्ष", "\u{94D}", "\u{301}", "\u{308}", "\u{20DD}", "\u{323}",
  "👍", "👍🏽", "🏽", "🇫🇷", "🇫", "👨‍👩‍👧", "❤️", "\u{FE0F}",
  "\u{AD}", "\u{200B}", "\u{200D}", "\u{A0}", "\u{3000}", "\r\n", "\r", "\n",
]

/// What a query term's operators leave to type.
private let operators: [String] = [" ", " ", "^", "$", "!", "|", "'", "\\", " | "]

private let kinds = ["a", "b", "c"]
private let schema = SearchModel.Schema(
  fields: [
    SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "alt"),
    SearchModel.Schema.Field(name: "note", isSearched: false),
  ],
  attributes: ["kind"],
  scopeBar: ScopeBar([
    ScopeBar.Scope(title: "A", attribute: "kind", values: ["a"]),
    ScopeBar.Scope(title: "B or C", attribute: "kind", values: ["b", "c"]),
    ScopeBar.Scope(title: "Names", fields: ["name"]),
    ScopeBar.Scope(title: "A by other names", attribute: "kind", values: ["a"], fields: ["alt"]),
  ]))
/// For each scope: the kinds it admits (nil: all) and the fields it searches.
private let scopeRules: [(kinds: Set<String>?, fields: [Int])] = [
  (nil, [0, 1]), (["a"], [0, 1]), (["b", "c"], [0, 1]), (nil, [0]), (["a"], [1]),
]
private let locales: [String?] = [nil, "tr"]
/// The typo tolerances of a words query.
private let typoTolerances: [TypoTolerance] = [
  .off, .default, (try? TypoTolerance(oneTypoFrom: 3, twoTyposFrom: 5)) ?? .default,
]

/// The normalisers made so far, by options and locale: making one opens ICU's services, which
/// costs more than a whole session.
@MainActor private var normalizers: [String: Normalizer] = [:]

@MainActor private func normalizer(folding: Folding, locale: String?) -> Normalizer? {
  let key = "\(folding.rawValue) \(locale ?? "")"
  if let made = normalizers[key] { return made }
  let made = try? Normalizer(folding: folding, locale: locale)
  normalizers[key] = made
  return made
}

/// One input: the folding options and locale, the query syntax, the items, then the session.
func fuzzDifferential(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  // Transliteration to Latin in one input of eight: a folder meets each script's
  // transliterator anew, which costs more than the rest of a session (see the closing note).
  let options = input.byte()
  var folding = Folding(rawValue: options & 0x1F).subtracting(.latin)
  if options & 0xE0 == 0xE0 { folding.insert(.latin) }
  let locale = locales[input.below(locales.count)]
  let syntax = [SearchQuery.Syntax.extended, .extended, .words, .literal][input.below(4)]
  let typos = syntax == .words ? typoTolerances[input.below(typoTolerances.count)] : .off
  let minimumLength = input.below(3)
  // Immediate searches; background searches (run when the session says, by a manual
  // scheduler); background searches after a quiet interval.
  let mode = input.below(3)
  return MainActor.assumeIsolated {
    guard let normalizer = normalizer(folding: folding, locale: locale) else {
      require(false, "Normalizer(folding: \(folding), locale: \(locale ?? "root")) failed")
      return 0
    }
    var session = Session(
      input: input, normalizer: normalizer, syntax: syntax, typos: typos,
      minimumLength: minimumLength, scheduler: mode == 0 ? nil : ManualSearchScheduler(),
      quietInterval: mode == 2)
    return session.run()
  }
}

/// The model as the oracle keeps it, and the session that drives the engine beside it.
private struct Session {
  var input: FuzzInput
  let oracle: Oracle
  let syntax: SearchQuery.Syntax
  /// The typo tolerance of a words query; off in the other syntaxes.
  let typos: TypoTolerance
  let minimumLength: Int
  /// The scheduler of background searches; nil when searches run inside each call.
  let scheduler: ManualSearchScheduler?
  let quietInterval: Bool
  var items: [(id: ItemID, record: SearchModel.Record)] = []
  var nextID: Int32 = 0
  var text = ""
  var scope = 0

  init(
    input: FuzzInput, normalizer: Normalizer, syntax: SearchQuery.Syntax, typos: TypoTolerance,
    minimumLength: Int, scheduler: ManualSearchScheduler?, quietInterval: Bool
  ) {
    self.input = input
    self.oracle = Oracle(normalizer: normalizer)
    self.syntax = syntax
    self.typos = typos
    self.minimumLength = minimumLength
    self.scheduler = scheduler
    self.quietInterval = quietInterval
  }

  /// Whether a background search or a quiet interval is still to run.
  @MainActor var isPending: Bool {
    guard let scheduler else { return false }
    return scheduler.pendingSearches > 0 || scheduler.pendingTimers > 0
  }

  mutating func piece() -> String { pieces[input.below(pieces.count)] }

  mutating func value() -> String { (0...input.below(3)).map { _ in piece() }.joined() }

  mutating func record(kind: String? = nil) -> SearchModel.Record {
    let alternates = (0..<input.below(3)).map { _ in value() }
    return SearchModel.Record(
      fields: [[value()], alternates, [value()]],
      attributes: [kind ?? kinds[input.below(kinds.count)]])
  }

  /// What a keystroke types: a character of an item (so that queries find something), an
  /// operator, or a piece.
  mutating func keystroke() -> String {
    switch input.below(4) {
    case 0, 1:
      guard !items.isEmpty else { return piece() }
      let record = items[input.below(items.count)].record
      let values = record.fields[0] + record.fields[1]
      let characters = Array(values[input.below(values.count)])
      guard !characters.isEmpty else { return piece() }
      let start = input.below(characters.count)
      let length = 1 + input.below(3)
      return String(characters[start..<min(start + length, characters.count)])
    case 2: return operators[input.below(operators.count)]
    default: return piece()
    }
  }

  @MainActor mutating func run() -> Int32 {
    // Every kind is there at first, so that every scope admits an item.
    for index in 0..<(3 + input.below(8)) {
      items.append((ItemID(rawValue: nextID), record(kind: index < 3 ? kinds[index] : nil)))
      nextID += 1
    }
    var model = SearchModel(schema: schema)
    for item in items {
      do { try model.append(item.record) } catch {
        require(false, "appending \(item.record) failed: \(error)")
      }
    }
    guard let start = try? SearchCorpus(model: model, normalizer: oracle.normalizer) else {
      require(false, "indexing \(items.map(\.record)) failed")
      return 0
    }
    var corpus = start
    var filter = IncrementalFilter(depth: 1 + input.below(IncrementalFilter.defaultDepth))
    let configuration = SearchConfiguration(
      mode: scheduler == nil ? .immediate : .background, minimumLength: minimumLength,
      coalescingInterval: quietInterval ? .milliseconds(100) : nil, querySyntax: syntax,
      typos: syntax == .words ? typos : nil)
    let made: SearchController?
    if let scheduler {
      made = try? SearchController(
        corpus: corpus, configuration: configuration, scheduler: scheduler)
    } else {
      made = try? SearchController(corpus: corpus, configuration: configuration)
    }
    guard let controller = made else {
      require(false, "the controller cannot be made")
      return 0
    }
    let screen = Screen(controller)
    let token = controller.observe { event in
      if case .update(let update) = event { screen.apply(update) }
      // A reload is of the newest request: a stale search is dropped, never shown.
      if case .reload(_, let generation, _) = event, generation != controller.generation {
        screen.failure =
          screen.failure ?? "reload of #\(generation) while #\(controller.generation) is newest"
      }
    }
    defer { token.cancel() }
    controller.begin()

    var steps = 0
    while !input.isAtEnd && steps < 48 {
      steps += 1
      var step = ""
      switch input.below(scheduler == nil ? 16 : 19) {
      case 0...7:
        let typed = keystroke()
        text += typed
        step = "type \(typed.debugDescription)"
        controller.setText(text)
      case 8, 9:
        if !text.isEmpty { text.removeLast() }
        step = "backspace"
        controller.setText(text)
      case 10:
        text = ""
        step = "clear"
        controller.setText(text)
      case 11:
        scope = input.below(scopeRules.count)
        step = "scope \(scope)"
        do { try controller.selectScope(scope) } catch {
          require(false, "scope \(scope) refused: \(error)")
        }
      case 12:
        let new = record()
        let position = input.below(items.count + 1)
        step = "insert at \(position): \(new)"
        let id = ItemID(rawValue: nextID)
        nextID += 1
        items.insert((id, new), at: position)
        let inCorpus = try? corpus.insert(new, at: position)
        let inController = try? controller.insert(new, at: position)
        require(
          inCorpus == id && inController == id,
          "\(step) gave \(inCorpus.map(\.description) ?? "an error") and \(inController.map(\.description) ?? "an error"), not \(id)"
        )
      case 13:
        guard !items.isEmpty else { continue }
        let id = items.remove(at: input.below(items.count)).id
        step = "remove \(id)"
        let removed = (try? corpus.remove(id)) != nil && (try? controller.remove(id)) != nil
        require(removed, "\(step) failed")
      case 14:
        guard !items.isEmpty else { continue }
        let position = input.below(items.count)
        let new = record()
        items[position].record = new
        step = "update \(items[position].id): \(new)"
        let updated =
          (try? corpus.update(items[position].id, with: new)) != nil
          && (try? controller.update(items[position].id, with: new)) != nil
        require(updated, "\(step) failed")
      case 16, 17:
        step = "a background search ends"
        scheduler?.runNextSearch()
      case 18:
        let elapsed = 50 * input.below(4)
        step = "\(elapsed) ms pass"
        scheduler?.advance(by: .milliseconds(elapsed))
      default:
        let typed = (0...input.below(3)).map { _ in keystroke() }.joined()
        text += typed
        step = "paste \(typed.debugDescription)"
        controller.setText(text)
      }
      check(after: step, filter: &filter, corpus: corpus, controller: controller, screen: screen)
    }
    // Everything under way ends: the results are the oracle's.
    if let scheduler, isPending {
      for _ in 0..<100 where isPending {
        scheduler.advance(by: .seconds(1))
        scheduler.runAllSearches()
      }
      require(!isPending, "the background work does not end")
      check(
        after: "the end", filter: &filter, corpus: corpus, controller: controller, screen: screen)
    }
    return 0
  }

  @MainActor func check(
    after step: String, filter: inout IncrementalFilter, corpus: SearchCorpus,
    controller: SearchController, screen: Screen
  ) {
    let context = {
      "after \(step): text \(text.debugDescription) (\(Array(text.unicodeScalars))), \(syntax), "
        + (syntax == .words ? "typos \(typos), " : "")
        + "minimum length \(minimumLength), "
        + (scheduler == nil ? "" : quietInterval ? "background after 100 ms, " : "background, ")
        + "scope \(scope), \(oracle.normalizer.folding), items \(items.map { "\($0.id) \($0.record)" })"
    }
    require(
      corpus.model.ids == items.map(\.id), "the model's order \(corpus.model.ids), \(context())")
    // Each item's typo count; nil for an item that does not match.
    let counts = items.map {
      oracle.typos(text, syntax: syntax, tolerance: typos, item: $0.record, scope: scope)
    }
    let found = zip(items, counts).compactMap { item, count in count.map { (item.id, $0) } }
    let expected = found.map(\.0)
    // The controller's order: the fewest typos first, the model's order within a count.
    let listed = found.enumerated()
      .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map(\.element.0)
    guard
      let query = try? SearchQuery(
        text, syntax: syntax, typos: typos, normalizer: oracle.normalizer)
    else {
      require(false, "the query cannot be made, \(context())")
      return
    }
    var fresh = IncrementalFilter()
    let full = fresh.search(query, scope: scope, in: corpus)?.items
    require(
      full == expected, "a full scan finds \(full ?? []), the oracle \(expected), \(context())")
    let plan = filter.plan(query, scope: scope, corpus: corpus)
    let result = filter.search(query, scope: scope, in: corpus)
    require(
      result?.items == expected,
      "the incremental filter (\(plan)) finds \(result?.items ?? []), the oracle \(expected), \(context())"
    )

    let visible = controller.table(controller.visibleTable).sections.map(\.items)
    require(
      screen.rows == visible,
      "the updates make \(screen.rows), the screen shows \(visible), \(context())")
    require(screen.failure == nil, "\(screen.failure ?? ""), \(context())")
    // While a background search is under way, the table shows an earlier answer.
    guard !isPending else { return }
    let state = controller.resultsState
    let shown = controller.table(.results).sections.flatMap(\.items)
    // The characters that count toward the minimum length: without white space at either end.
    let length = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).count
    if length > 0 && length < minimumLength {
      require(
        state == .belowThreshold(missing: minimumLength - length) && shown.isEmpty,
        "the controller shows \(state) \(shown) below the minimum length \(minimumLength), \(context())"
      )
    } else if length == 0 && scope == 0 {
      // Text of white space alone is empty text: dimmed, no search.
      require(state == .dimmed, "the state is \(state), not dimmed, \(context())")
    } else {
      require(
        state == (expected.isEmpty ? .noResults : .rows(expected.count)) && shown == listed,
        "the controller shows \(state) \(shown), the oracle \(listed), \(context())")
      for (id, count) in found {
        let told = controller.typos(of: id)
        require(
          told == count,
          "the controller tells \(told) typos for \(id), the oracle \(count), \(context())")
      }
    }
  }
}

/// The rows a front shows, kept only by applying each update's changes as UIKit applies a
/// batch: deletions and move sources at old paths, then insertions and move destinations at
/// new paths in ascending order.
@MainActor private final class Screen {
  var rows: [[ItemID]]
  var failure: String?
  private unowned let controller: SearchController

  init(_ controller: SearchController) {
    self.controller = controller
    rows = controller.table(controller.visibleTable).sections.map(\.items)
  }

  func apply(_ update: SearchController.Update) {
    let changes = update.changes
    let new = controller.table(update.table)
    let old = rows
    func item(at path: TableIndexPath) -> ItemID? {
      guard old.indices.contains(path.section), old[path.section].indices.contains(path.row)
      else { return nil }
      return old[path.section][path.row]
    }
    var removed: [Int: Set<Int>] = [:]
    for path in changes.deletedRows + changes.movedRows.map(\.from) {
      guard item(at: path) != nil, removed[path.section, default: []].insert(path.row).inserted
      else {
        failure = failure ?? "\(update.cause): \(path) is not a row of the old table, or twice"
        return
      }
    }
    for (section, paths) in removed {
      rows[section] = rows[section].enumerated().filter { !paths.contains($0.offset) }.map(
        \.element)
    }
    for section in changes.deletedSections.sorted(by: >) where rows.indices.contains(section) {
      rows.remove(at: section)
    }
    for section in changes.insertedSections.sorted()
    where section <= rows.count && new.sections.indices.contains(section) {
      rows.insert(new.sections[section].items, at: section)
    }
    let insertions =
      changes.insertedRows.map { ($0, new.item(at: $0)) }
      + changes.movedRows.map { ($0.to, item(at: $0.from)) }
    for (path, item) in insertions.sorted(by: { $0.0 < $1.0 }) {
      guard let item, rows.indices.contains(path.section), path.row <= rows[path.section].count
      else {
        failure = failure ?? "\(update.cause): cannot insert at \(path)"
        return
      }
      rows[path.section].insert(item, at: path.row)
    }
  }
}

/// The naive search: fzf's parse, then containment on the folded text's character boundaries.
private final class Oracle {
  let normalizer: Normalizer
  private var folded: [String: (String, Value)] = [:]

  init(normalizer: Normalizer) { self.normalizer = normalizer }

  /// A folded value: its bytes, its character boundaries, its white space at either end.
  struct Value {
    var bytes: [UInt8]
    var boundaries: Set<Int>
    var leading: Int
    var trailing: Int
  }

  enum Kind { case exact, prefix, suffix, equal, fuzzy }

  struct Term {
    var kind: Kind
    var isInverse: Bool
    var value: Value
    /// The folded characters, for a fuzzy term.
    var characters: [[UInt8]]
    var startsWithSpace: Bool
    var endsWithSpace: Bool
    /// The term's text as typed (operators taken off, escaped spaces as spaces).
    var scalars: [Unicode.Scalar]
  }

  func fold(_ text: String) -> (String, Value) {
    if let value = folded[text] { return value }
    let string = (try? normalizer.fold(text)) ?? ""
    let scalars = string.unicodeScalars
    let leading = scalars.prefix { $0.properties.isWhitespace }.reduce(0) { $0 + $1.utf8.count }
    let trailing = scalars.reversed().prefix { $0.properties.isWhitespace }
      .reduce(0) { $0 + $1.utf8.count }
    let value = Value(
      bytes: Array(string.utf8), boundaries: characterOffsets(of: string), leading: leading,
      trailing: trailing)
    folded[text] = (string, value)
    return (string, value)
  }

  func term(_ kind: Kind, inverse: Bool, _ scalars: some Sequence<Unicode.Scalar>) -> Term? {
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    let (string, value) = fold(text)
    guard !string.isEmpty else { return nil }
    return Term(
      kind: kind, isInverse: inverse, value: value, characters: string.map { Array($0.utf8) },
      startsWithSpace: string.unicodeScalars.first?.properties.isWhitespace ?? false,
      endsWithSpace: string.unicodeScalars.last?.properties.isWhitespace ?? false,
      scalars: Array(text.unicodeScalars))
  }

  /// Under latin, a term whose folded text has a space also matches its text without the
  /// spaces typed (你好 folds to "nihao" and users type "ni hao"): this joined form, when it
  /// folds to something else, not empty.
  ///
  /// Nil otherwise.
  func joinedForm(of term: Term) -> Term? {
    guard normalizer.folding.contains(.latin), term.value.bytes.contains(0x20),
      let joined = self.term(term.kind, inverse: term.isInverse, term.scalars.filter { $0 != " " }),
      joined.value.bytes != term.value.bytes
    else { return nil }
    return joined
  }

  /// The forms of each term of a set that count: a positive term is found in either form;
  /// an inverse term must lack both, but only the first three inverse terms with a joined form
  /// get it (the query splits a set in two for each, up to eight sets); later ones keep their
  /// spaced form alone.
  func forms(of set: [Term]) -> [[Term]] {
    var inverseWithJoined = 0
    return set.map { term in
      guard let joined = joinedForm(of: term) else { return [term] }
      if term.isInverse {
        guard inverseWithJoined < 3 else { return [term] }
        inverseWithJoined += 1
      }
      return [term, joined]
    }
  }

  /// The term sets of `text` in `syntax`.
  func parse(_ text: String, syntax: SearchQuery.Syntax) -> [[Term]] {
    switch syntax {
    case .words:
      return text.split(whereSeparator: \.isWhitespace)
        .compactMap { term(.exact, inverse: false, $0.unicodeScalars) }.map { [$0] }
    case .literal:
      func isBlank(_ character: Character) -> Bool {
        character.isWhitespace
          || ((try? normalizer.fold(String(character))) ?? "").allSatisfy(\.isWhitespace)
      }
      var piece = Substring(text)
      while let first = piece.first, isBlank(first) { piece.removeFirst() }
      while let last = piece.last, isBlank(last) { piece.removeLast() }
      return term(.exact, inverse: false, piece.unicodeScalars).map { [[$0]] } ?? []
    case .extended:
      return parseExtended(text)
    }
  }

  /// fzf 0.38's `parseTerms` in exact mode, on scalars as fzf works on bytes.
  private func parseExtended(_ text: String) -> [[Term]] {
    // "\ " is a space inside a term: a tab until the split, then a space.
    var scalars: [Unicode.Scalar] = []
    var rest = Array(text.unicodeScalars)[...]
    while let first = rest.first {
      if first == "\\", rest.dropFirst().first == " " {
        scalars.append("\t")
        rest = rest.dropFirst(2)
      } else {
        scalars.append(first)
        rest = rest.dropFirst()
      }
    }
    var sets: [[Term]] = []
    var set: [Term] = []
    var switchSet = false
    var afterBar = false
    for token in scalars.split(separator: " ") {
      var text = token.map { $0 == "\t" ? " " : $0 }[...]
      if !set.isEmpty && !afterBar && text.elementsEqual(["|"]) {
        switchSet = false
        afterBar = true
        continue
      }
      afterBar = false
      var kind = Kind.exact
      var inverse = false
      if text.first == "!" {
        inverse = true
        text = text.dropFirst()
      }
      if !text.elementsEqual(["$"]) && text.last == "$" {
        kind = .suffix
        text = text.dropLast()
      }
      if text.first == "'" {
        kind = .fuzzy
        text = text.dropFirst()
      } else if text.first == "^" {
        kind = kind == .suffix ? .equal : .prefix
        text = text.dropFirst()
      }
      guard let term = term(kind, inverse: inverse, text) else { continue }
      if switchSet {
        sets.append(set)
        set = []
      }
      set.append(term)
      switchSet = true
    }
    if !set.isEmpty { sets.append(set) }
    return sets
  }

  func matches(_ text: String, syntax: SearchQuery.Syntax, item: SearchModel.Record, scope: Int)
    -> Bool
  {
    let rule = scopeRules[scope]
    if let kinds = rule.kinds, !kinds.contains(item.attributes[0]) { return false }
    let values = rule.fields.flatMap { item.fields[$0] }.map { fold($0).1 }
    return parse(text, syntax: syntax).allSatisfy { set in
      forms(of: set).contains { forms in
        let found = forms.contains { form in values.contains { matches(form, $0) } }
        return forms[0].isInverse ? !found : found
      }
    }
  }

  /// How many typos `item` needs to match `text` in `scope` under `tolerance`, or nil when it
  /// does not match.
  ///
  /// Without typos (another syntax, or the tolerance off) an item that matches needs none. With
  /// typos, each word of a words query costs 0 when one of its forms occurs exactly; else the
  /// fewest edits between a form with a budget and a word of a searched value (a prefix of one for
  /// the last word when the text does not end in white space); the item matches when every word
  /// does, and needs the sum.
  func typos(
    _ text: String, syntax: SearchQuery.Syntax, tolerance: TypoTolerance, item: SearchModel.Record,
    scope: Int
  ) -> Int? {
    guard syntax == .words, tolerance.isOn else {
      return matches(text, syntax: syntax, item: item, scope: scope) ? 0 : nil
    }
    let rule = scopeRules[scope]
    if let kinds = rule.kinds, !kinds.contains(item.attributes[0]) { return nil }
    let values = rule.fields.flatMap { item.fields[$0] }.map { fold($0) }
    let words = values.flatMap { Self.words(of: $0.0) }
    let pieces = text.split(whereSeparator: \.isWhitespace)
    let endsInWord = !(text.last?.isWhitespace ?? true)
    var total = 0
    for (index, piece) in pieces.enumerated() {
      guard let term = term(.exact, inverse: false, piece.unicodeScalars) else { continue }
      let forms = forms(of: [term])[0]
      if forms.contains(where: { form in values.contains { matches(form, $0.1) } }) { continue }
      let isPrefix = endsInWord && index == pieces.count - 1
      let fewest = forms.compactMap { form -> Int? in
        let string = String(decoding: form.value.bytes, as: UTF8.self)
        let budget = Self.isNumber(string) ? 0 : tolerance.budget(forLength: string.count)
        guard budget > 0 else { return nil }
        let query = string.map { Array($0.unicodeScalars) }
        let distance = words.map { Self.distance(query, $0, prefix: isPrefix) }.min()
        return distance.flatMap { $0 <= budget ? $0 : nil }
      }.min()
      guard let fewest else { return nil }
      total += fewest
    }
    return total
  }

  /// The words of folded text: maximal runs of characters whose first scalar is alphabetic or
  /// numeric, each character as its scalars.
  static func words(of text: String) -> [[[Unicode.Scalar]]] {
    var words: [[[Unicode.Scalar]]] = []
    var word: [[Unicode.Scalar]] = []
    for character in text {
      let scalars = Array(character.unicodeScalars)
      if let first = scalars.first,
        first.properties.isAlphabetic || first.properties.numericType != nil
      {
        word.append(scalars)
      } else if !word.isEmpty {
        words.append(word)
        word = []
      }
    }
    if !word.isEmpty { words.append(word) }
    return words
  }

  /// Whether folded text is a decimal number: a sign, digits, a point and digits, with a digit
  /// somewhere; such a word never has a typo.
  static func isNumber(_ text: String) -> Bool {
    var rest = Substring(text)
    if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
    let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let digits = parts.joined()
    return parts.count <= 2 && !digits.isEmpty
      && digits.unicodeScalars.allSatisfy { $0.value >= 0x30 && $0.value <= 0x39 }
  }

  /// The optimal string alignment distance between `query` and `word` (an adjacent
  /// transposition is one edit), from the whole table; with `prefix`, the least distance to a
  /// prefix of `word`.
  static func distance(
    _ query: [[Unicode.Scalar]], _ word: [[Unicode.Scalar]], prefix: Bool
  ) -> Int {
    let (m, n) = (query.count, word.count)
    var table = [[Int]](repeating: [Int](repeating: 0, count: n + 1), count: m + 1)
    for i in 0...m { table[i][0] = i }
    for j in 0...n { table[0][j] = j }
    for i in 0...m where i > 0 {
      for j in 0...n where j > 0 {
        let cost = query[i - 1] == word[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && query[i - 1] == word[j - 2] && query[i - 2] == word[j - 1] {
          value = min(value, table[i - 2][j - 2] + 1)
        }
        table[i][j] = value
      }
    }
    return prefix ? (table[m].min() ?? m) : table[m][n]
  }

  private func matches(_ term: Term, _ value: Value) -> Bool {
    let bytes = value.bytes
    func found(_ needle: [UInt8], at start: Int) -> Bool {
      start >= 0 && start + needle.count <= bytes.count
        && bytes[start..<start + needle.count].elementsEqual(needle)
        && value.boundaries.contains(start) && value.boundaries.contains(start + needle.count)
    }
    let needle = term.value.bytes
    let lower = term.startsWithSpace ? 0 : value.leading
    let upper = max(lower, bytes.count - (term.endsWithSpace ? 0 : value.trailing))
    switch term.kind {
    case .exact: return bytes.indices.contains { found(needle, at: $0) }
    case .prefix: return found(needle, at: lower)
    case .suffix:
      return found(
        needle, at: bytes.count - (term.endsWithSpace ? 0 : value.trailing) - needle.count)
    case .equal: return upper - lower == needle.count && found(needle, at: lower)
    case .fuzzy:
      var position = 0
      for character in term.characters {
        guard
          let start = (position..<max(position, bytes.count)).first(where: {
            found(character, at: $0)
          })
        else { return false }
        position = start + character.count
      }
      return true
    }
  }
}
