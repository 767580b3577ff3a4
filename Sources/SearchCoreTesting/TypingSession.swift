/// A person typing into a search bar, one key at a time: toward a target text, with
/// backspaces, fresh starts on another target and presses of scope buttons, as a randomised
/// test of incremental search draws them.
///
/// The text only ever holds a prefix of the target, so each keystroke narrows, widens (a
/// backspace) or restarts (a fresh start) the query before it: the paths an incremental
/// search takes. Draw the keys from a seeded ``SplitMix64`` with
/// ``pressRandomKey(_:using:targets:scopes:)``, or have them drawn elsewhere (a property
/// test's drawn actions) and press them with ``press(_:newTarget:newScope:)``.
///
/// ```swift
/// var random = SplitMix64(seed: 0x5EA5C4)
/// var session = TypingSession(target: "a")
/// let odds = TypingSession.Odds(backspace: 2, startOver: 1, outOf: 10)
/// for _ in 0..<1_000 {
///   session.pressRandomKey(odds, using: &random, targets: words)
///   controller.setText(session.text)
/// }
/// ```
public struct TypingSession: Hashable, Sendable {
  /// What one key does.
  public enum Key: Hashable, Sendable {
    /// Deletes the last character, if there is one.
    case backspace
    /// Types the next character of the target, if one is left.
    case typeNext
    /// Clears the text and takes another target: the person starts over on another word.
    case startOver
    /// Presses a scope button; the text stays.
    case selectScope
  }

  /// How often each key comes: a draw from `0..<outOf` is a backspace below `backspace`,
  /// then a fresh start for the next `startOver` numbers, then a scope button for the next
  /// `selectScope`; every number left types the target's next character.
  public struct Odds: Hashable, Sendable {
    /// How many of the `outOf` draws are backspaces.
    public var backspace: Int
    /// How many draws, after the backspaces, start over on another target.
    public var startOver: Int
    /// How many draws, after those, press a scope button.
    public var selectScope: Int
    /// How many numbers a draw has.
    public var outOf: Int

    /// Odds of `backspace`, `startOver` and `selectScope` in `outOf`; the rest types.
    public init(backspace: Int = 2, startOver: Int = 0, selectScope: Int = 0, outOf: Int) {
      precondition(
        backspace >= 0 && startOver >= 0 && selectScope >= 0
          && backspace + startOver + selectScope <= outOf,
        "the odds add up to more than \(outOf)")
      self.backspace = backspace
      self.startOver = startOver
      self.selectScope = selectScope
      self.outOf = outOf
    }

    /// The key that `draw`, a number in `0..<outOf`, stands for.
    public func key(for draw: Int) -> Key {
      precondition((0..<outOf).contains(draw), "a draw of \(draw) is outside 0..<\(outOf)")
      if draw < backspace { return .backspace }
      if draw < backspace + startOver { return .startOver }
      if draw < backspace + startOver + selectScope { return .selectScope }
      return .typeNext
    }
  }

  /// The characters in the search bar.
  public private(set) var typed: [Character] = []
  /// What the person is typing toward; ``typed`` is always a prefix of it.
  public private(set) var target: [Character]
  /// The selected scope button.
  public private(set) var scope: Int

  /// The text in the search bar.
  public var text: String { String(typed) }

  /// A session with an empty bar, typing toward `target`, with `scope` selected.
  public init(target: some StringProtocol = "", scope: Int = 0) {
    self.target = Array(target)
    self.scope = scope
  }

  /// Presses `key`.
  ///
  /// A fresh start clears the text and types toward `newTarget()` from now on; a scope button
  /// selects `newScope(scope)`. Neither is called for another key.
  public mutating func press(
    _ key: Key, newTarget: () -> String = { "" }, newScope: (_ current: Int) -> Int = { $0 }
  ) {
    switch key {
    case .backspace:
      if !typed.isEmpty { typed.removeLast() }
    case .typeNext:
      if typed.count < target.count { typed.append(target[typed.count]) }
    case .startOver:
      target = Array(newTarget())
      typed = []
    case .selectScope:
      scope = newScope(scope)
    }
  }

  /// Draws a key from `random` with `odds` and presses it; returns the key.
  ///
  /// Each key takes one number from `random` (`random.next() % outOf`); a fresh start takes
  /// one more for its target (`targets[random.next() % targets.count]`), and a scope button
  /// one more for its scope (`random.next() % scopes`). So the same seed gives the same
  /// session.
  ///
  /// - Precondition: `targets` is not empty when the odds can start over.
  @discardableResult
  public mutating func pressRandomKey(
    _ odds: Odds, using random: inout some RandomNumberGenerator, targets: [String] = [],
    scopes: Int = 1
  ) -> Key {
    let key = odds.key(for: Int(random.next() % UInt64(odds.outOf)))
    press(
      key, newTarget: { targets[Int(random.next() % UInt64(targets.count))] },
      newScope: { _ in Int(random.next() % UInt64(scopes)) })
    return key
  }
}
