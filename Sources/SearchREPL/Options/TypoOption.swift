import ArgumentParser
import SearchCore
import SearchEngine

/// `--typos`: typo tolerance for a query read as words, as `filter` and the typing benchmark
/// take it.
enum TypoOption {
  /// The help of the option.
  static let help = ArgumentHelp(
    "Read the query as words and let them have typos: default (one typo from 5 characters, "
      + "two from 9), off, or ONE,TWO (the lengths from which one and two typos are allowed).",
    valueName: "rule")

  /// The tolerance `text` asks for: "default", "off", or two lengths "5,9".
  ///
  /// `what` names the option or command in the error.
  static func tolerance(_ text: String, what: String = "--typos") throws(CommandError)
    -> TypoTolerance
  {
    switch TypoRuleText.tolerance(text, what: what) {
    case .success(let tolerance): return tolerance
    case .failure(let error): throw CommandError(error.description)
    }
  }
}
