import TestSupport
import Testing

@testable import SearchREPL

/// The REPL's command parser on its own.
@Suite(.tags(.plainSwift)) struct REPLCommandTests {
  private func parse(_ line: String) -> Result<REPLCommand?, REPLCommandError> {
    Result { () throws(REPLCommandError) in try REPLCommand.parse(line) }
  }

  @Test func blankLinesAndCommentsAreNothing() {
    #expect(parse("") == .success(nil))
    #expect(parse(" \t ") == .success(nil))
    #expect(parse("  # a comment") == .success(nil))
  }

  /// One separator after the command word belongs to the syntax; the rest of `type`'s
  /// argument is the text as written.
  @Test func typeKeepsItsTextAsWritten() {
    #expect(parse("type  new york") == .success(.type(" new york")))
    #expect(parse("\ttype sao paulo") == .success(.type("sao paulo")))
  }

  /// Spaces and tabs separate as scalars: a space before a combining mark is one character
  /// with it, yet indenting a line never changes what it means (found by
  /// Fuzz/Harnesses/commands: the indented line named the command " ֻ").
  @Test func indentationNeverChangesTheMeaning() {
    for line in ["\u{5BB}  D D", "type \u{301}a", "back \u{301}", "select 0.\u{301}1", "quit"] {
      #expect(parse(" \t " + line) == parse(line), "\(line.debugDescription)")
    }
    #expect(parse(" \u{5BB}x") == .failure(.unknown("\u{5BB}x", suggestion: nil)))
    #expect(parse("scope \u{301}Europe") == .success(.scope("\u{301}Europe")))
  }

  @Test func tokenCommandsParse() {
    #expect(parse("token add country=CH|DE") == .success(.token(.add("country=CH|DE"))))
    #expect(
      parse("token  add  population>=1000000 ") == .success(.token(.add("population>=1000000"))))
    #expect(parse("token remove 2") == .success(.token(.removeAt(2))))
    #expect(parse("token remove elevation?") == .success(.token(.remove("elevation?"))))
    #expect(parse("TOKEN List") == .success(.token(.list)))
    #expect(parse("token clear") == .success(.token(.clear)))
    #expect(parse("suggest") == .success(.suggest))
  }

  @Test func tokenCommandsSayTheirUsage() {
    #expect(
      parse("token")
        == .failure(.usage("token add CONDITION | remove CONDITION|INDEX | list | clear")))
    #expect(
      parse("token drop x")
        == .failure(.usage("token add CONDITION | remove CONDITION|INDEX | list | clear")))
    #expect(parse("token add") == .failure(.usage("token add CONDITION")))
    #expect(parse("token remove -1") == .failure(.usage("token remove CONDITION|INDEX")))
    #expect(parse("token list 1") == .failure(.usage("token list")))
    #expect(parse("suggest x") == .failure(.usage("suggest")))
  }
}
