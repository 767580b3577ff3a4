import ArgumentParser
import SearchCore
import SearchEngine

/// `--syntax` and `--typos`: how `repl` and `live` read the search text, and the label of a
/// row found with typos.
struct SyntaxOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "How the search text is read: extended (fzf's operators, the default), words (a search "
        + "field's words, no operators; words of 5 characters or more may have typos, see "
        + "--typos) or literal (the whole text, as typed).",
      valueName: "syntax"))
  var syntax: SearchQuery.Syntax = .extended

  @Option(
    help: ArgumentHelp(
      "With --syntax words: the typos a word may have: default (one from 5 characters, two "
        + "from 9), off, or ONE,TWO (the lengths from which one and two typos are allowed). "
        + "Rows found with typos come after the exact ones and say so. Without it: default in "
        + "memory, off with --backend (a server matches words exactly only).",
      valueName: "rule"))
  var typos: String?

  func validate() throws { _ = try tolerance() }

  /// Refuses typos with a search server at start, as `filter` does: a server matches words
  /// exactly only.
  func check(backend: String?) throws {
    if backend != nil, let typos, try tolerance()?.isOn == true {
      throw ValidationError(
        "--typos \(typos) with --backend: a search server matches words exactly only; leave"
          + " --typos out or give --typos off")
    }
  }

  /// The tolerance `--typos` asks for; nil when it is not given.
  func tolerance() throws(CommandError) -> TypoTolerance? {
    guard let typos else { return nil }
    return try TypoOption.tolerance(typos)
  }

  /// A configuration that reads the text as asked: the syntax and, for words, the typos
  /// (left to where the search runs unless given).
  func configure(_ configuration: inout SearchConfiguration) throws(CommandError) {
    configuration.querySyntax = syntax
    configuration.statedTypos = try tolerance()
  }

  /// What a row of the results says after its text when it was found with typos: "" for an
  /// exact match.
  static func typoLabel(_ typos: Int) -> String {
    switch typos {
    case 0: ""
    case 1: "  (1 typo)"
    default: "  (\(typos) typos)"
    }
  }

  /// A row's marked text with its typo label after it; the marks keep their characters.
  static func labelled(_ marked: MarkedText, typos: Int) -> MarkedText {
    let label = typoLabel(typos)
    guard !label.isEmpty else { return marked }
    let text = marked.text + label
    let utf8 = marked.text.utf8
    let marks = marked.marks.map { range in
      let lower = utf8.distance(from: utf8.startIndex, to: range.lowerBound)
      let upper = utf8.distance(from: utf8.startIndex, to: range.upperBound)
      let start = text.utf8.index(text.startIndex, offsetBy: lower)
      return start..<text.utf8.index(start, offsetBy: upper - lower)
    }
    return MarkedText(text: text, marks: marks)
  }
}

extension SearchQuery.Syntax: ExpressibleByArgument {}
