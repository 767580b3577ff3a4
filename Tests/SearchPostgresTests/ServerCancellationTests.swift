#if PostgreSQL
  import Testing

  @testable import SearchEngine
  @testable import SearchPostgres

  /// A statement the server stopped (its time limit, or a cancel) is told apart from one it
  /// refused, in both of the forms PostgreSQL reports it in: the exact count then gives up
  /// within its budget instead of failing the page, and a search reports a timeout.
  @Suite struct ServerCancellationTests {
    @Test func aCancelIsToldApartFromARefusal() {
      let stopped = SearchBackendError.serverStoppedTheStatement
      #expect(stopped("57014", "canceling statement due to statement timeout"))
      #expect(stopped("57014", nil))
      // A cancel that reaches the regular-expression library where the server cannot raise it.
      #expect(stopped("2201B", "invalid regular expression: operation cancelled"))
      // A regular expression that is wrong is a refusal, not a cancel.
      #expect(!stopped("2201B", "invalid regular expression: parentheses () not balanced"))
      #expect(!stopped("2201B", nil))
      #expect(!stopped("42P01", "relation \"pages\" does not exist"))
      #expect(!stopped(nil, nil))
    }
  }
#endif
