import ArgumentParser
import SearchCore

/// `--typos`: typo tolerance for a query read as words, as `filter` and the typing benchmark
/// take it.
enum TypoOption {
  /// The help of the option.
  static let help = ArgumentHelp(
    "Read the query as words and let them have typos: default (one typo from 5 characters, "
      + "two from 9), off, or ONE,TWO (the lengths from which one and two typos are allowed).",
    valueName: "rule")

  /// The tolerance `text` asks for: "default", "off", or two lengths "5,9". `what` names the
  /// option or command in the error.
  static func tolerance(_ text: String, what: String = "--typos") throws(CommandError)
    -> TypoTolerance
  {
    switch text {
    case "default": return .default
    case "off": return .off
    default:
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 2, let one = Int(parts[0]), let two = Int(parts[1]) else {
        throw CommandError(
          "\(what) \(text): give default, off, or two lengths as ONE,TWO (such as 5,9)")
      }
      do { return try TypoTolerance(oneTypoFrom: one, twoTyposFrom: two) } catch {
        throw CommandError("\(what) \(text): \(error.description)")
      }
    }
  }
}
