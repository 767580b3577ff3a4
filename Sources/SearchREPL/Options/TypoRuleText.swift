import SearchCore
import SearchEngine

/// A typo rule as the command line writes it: "default", "off", or the two lengths "5,9".
///
/// `--typos` and the REPL's `set typos` read it alike.
enum TypoRuleText {
  /// The tolerance `text` names, or a message that names `what` and says what to give.
  static func tolerance(_ text: String, what: String) -> Result<TypoTolerance, TypoRuleError> {
    switch text {
    case "default": return .success(.default)
    case "off": return .success(.off)
    default:
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      guard parts.count == 2, let one = Int(parts[0]), let two = Int(parts[1]) else {
        return .failure(
          TypoRuleError(
            description:
              "\(what) \(text): give default, off, or two lengths as ONE,TWO (such as 5,9)"))
      }
      do { return .success(try TypoTolerance(oneTypoFrom: one, twoTyposFrom: two)) } catch {
        return .failure(TypoRuleError(description: "\(what) \(text): \(error.description)"))
      }
    }
  }
}

/// A typo rule that names no tolerance, and what to give instead.
struct TypoRuleError: Error, CustomStringConvertible {
  var description: String
}
