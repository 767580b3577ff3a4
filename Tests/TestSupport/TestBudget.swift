import Foundation

/// How much a randomised test draws: its full count in a plain run, a tenth under a sanitizer.
///
/// `.ci/run` sets SANITIZER for its sanitizer passes, which follow a plain pass that drew the
/// full counts. There each case costs three to ten times more, and what the sanitizers look for
/// (a bad read or write, a race) lies on the code paths the first cases already take; the
/// remaining cases would only repeat those paths with other data.
public enum TestBudget {
  /// Whether this process runs under a sanitizer pass of `.ci/run`.
  public static let underSanitizer = ProcessInfo.processInfo.environment["SANITIZER"] != nil

  /// The number of cases to draw for a test that draws `plain` in a plain run.
  public static func cases(_ plain: Int) -> Int {
    underSanitizer ? max(plain / 10, min(plain, 5)) : plain
  }

  /// The step through a fixed list of cases for a test that takes every `plain`-th case in a
  /// plain run (1 for all of them): ten times longer under a sanitizer.
  public static func step(_ plain: Int) -> Int {
    underSanitizer ? plain * 10 : plain
  }
}
