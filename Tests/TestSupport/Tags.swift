import Testing

/// The tags by which `.ci/run` chooses what each sanitizer's pass runs (`.ci/tagged-suites`
/// lists a tag's suites; SanitizerTagTests in StructureTests checks them).
extension Tag {
  /// Code under test that runs on several threads: the thread sanitizer's pass runs these.
  @Tag public static var concurrent: Self
  /// Logic over Swift values only, with no unsafe pointer and no C: the address sanitizer's
  /// pass skips these.
  @Tag public static var plainSwift: Self
  /// Runs the executable inside tmux, where a sanitizer's report would reach no log: the
  /// address sanitizer's pass skips these.
  @Tag public static var tmux: Self
  /// Hundreds of child processes over paths other suites cover in a few: the address
  /// sanitizer's pass, where each process costs three to ten times more, skips these.
  @Tag public static var manyProcesses: Self
}
