import SearchCoreTesting
import Testing

/// `TypingSession` (SearchCoreTesting) types what the typing loops it replaced typed: for the
/// same seed, the same texts and scopes in the same order, so the seeded sessions of the stress
/// tests are the ones they always were.
///
/// The reference is the loop as it was written in SearchControllerStressTests and
/// PostgresControllerTests.
@Suite struct TypingSessionTests {
  static let words = ["Apple", "banana", "Cherry", "dåtum", "e", "fig", "grapefruit", "Hä"]

  /// The old loop: of `outOf` draws, 0 and 1 backspace, 2 starts over on a word's first five
  /// letters (lower case), 3 picks one of `scopes` scope buttons unless `scopes` is 0.
  static func reference(seed: UInt64, keys: Int, outOf: UInt64, scopes: UInt64) -> [String] {
    var random = SplitMix64(seed: seed)
    var typed: [Character] = []
    var target = Array("a")
    var scope = 0
    var seen: [String] = []
    for _ in 0..<keys {
      switch random.next() % outOf {
      case 0, 1: if !typed.isEmpty { typed.removeLast() }
      case 2:
        target = Array(words[Int(random.next() % UInt64(words.count))].lowercased().prefix(5))
        typed = []
      case 3 where scopes > 0: scope = Int(random.next() % scopes)
      default:
        if typed.count < target.count { typed.append(target[typed.count]) }
      }
      seen.append("\(String(typed))|\(scope)")
    }
    return seen
  }

  static func session(seed: UInt64, keys: Int, odds: TypingSession.Odds, scopes: Int)
    -> [String]
  {
    var random = SplitMix64(seed: seed)
    let targets = words.map { String($0.lowercased().prefix(5)) }
    var session = TypingSession(target: "a")
    var seen: [String] = []
    for _ in 0..<keys {
      session.pressRandomKey(odds, using: &random, targets: targets, scopes: scopes)
      seen.append("\(session.text)|\(session.scope)")
    }
    return seen
  }

  @Test(arguments: [0x5EA5C4, 1, 0xDEAD_BEEF] as [UInt64])
  func drawsWhatTheOldLoopsDrew(seed: UInt64) {
    #expect(
      Self.session(
        seed: seed, keys: 3_000, odds: TypingSession.Odds(backspace: 2, startOver: 1, outOf: 10),
        scopes: 1) == Self.reference(seed: seed, keys: 3_000, outOf: 10, scopes: 0))
    #expect(
      Self.session(
        seed: seed, keys: 3_000,
        odds: TypingSession.Odds(backspace: 2, startOver: 1, selectScope: 1, outOf: 12),
        scopes: 8) == Self.reference(seed: seed, keys: 3_000, outOf: 12, scopes: 8))
  }

  /// Keys drawn elsewhere: a backspace on an empty bar and typing past the target do nothing,
  /// a scope button selects what `newScope` says, a fresh start clears the text.
  @Test func pressingDrawnKeys() {
    let odds = TypingSession.Odds(backspace: 2, startOver: 1, selectScope: 1, outOf: 20)
    #expect(
      (0..<20).map { odds.key(for: $0) }
        == [.backspace, .backspace, .startOver, .selectScope]
        + Array(repeating: .typeNext, count: 16))
    var session = TypingSession(target: "ab")
    session.press(.backspace)
    for _ in 0..<3 { session.press(.typeNext) }
    #expect(session.text == "ab")
    session.press(.selectScope, newScope: { $0 + 3 })
    #expect(session.scope == 3 && session.text == "ab")
    session.press(.startOver, newTarget: { "xyz" })
    #expect(session.text == "" && session.target == Array("xyz"))
    session.press(.typeNext)
    session.press(.backspace)
    #expect(session.text == "")
  }
}
