import Testing

extension Tag {
  /// A suite whose code runs on several threads: `.ci/run`'s thread sanitizer pass runs the
  /// suites with this tag (ConcurrencyTagTests in SearchCoreTests says which need it).
  @Tag static var concurrent: Self
}
