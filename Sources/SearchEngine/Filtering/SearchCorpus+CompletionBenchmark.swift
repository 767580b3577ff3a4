extension SearchCorpus {
  /// Builds the completion index now rather than at the first lookup: what a benchmark
  /// times apart, and what a test calls so that changes keep the index up to date rather
  /// than leave it to be built.
  package func buildCompletions() { _ = completionIndex }

  /// Whether the completion index is built: a lookup then costs no build.
  ///
  /// Never waits for a build under way on another thread.
  package var completionsAreBuilt: Bool { completionCache.isBuilt }

  /// The number of candidates of the completion index (building it first).
  package var completionCandidateCount: Int { completionIndex.count }

  /// The bytes the completion index holds (building it first).
  package var completionMemoryBytes: Int { completionIndex.memoryBytes }

  /// The folded text of every candidate of the completion index (building it first): what a
  /// benchmark measures the cost of collation keys on.
  package var completionKeys: [String] {
    let completionIndex = completionIndex
    return CompletionIndex.withBuffers(index.fields) { buffers in
      (0..<completionIndex.count).map { handle in
        let start = Int(completionIndex.keyStart[handle])
        let field = Int(completionIndex.keyField[handle])
        return String(
          decoding: UnsafeBufferPointer(
            rebasing: buffers[field][start..<(start + Int(completionIndex.keyLength[handle]))]),
          as: UTF8.self)
      }
    }
  }
}

extension SearchCorpus {
  /// The completions of `text` in scope `scope` without the scope's rank (neither used nor
  /// built): what a set asked for once costs, the walk by weight and the scan after it.
  package func completionsWithoutRank(for text: String, scope: Int, limit: Int)
    -> [SearchQuery.Completion]
  {
    completions(for: text, admitted: scopeMembers[scope], limit: limit, keepsRank: false)
  }

  /// Builds the rank of scope `scope`'s items apart from the cache (for a benchmark to time)
  /// and returns the bytes it holds; 0 for a scope of every item, which needs none.
  package func buildCompletionRank(scope: Int) -> Int {
    guard let members = scopeMembers[scope] else { return 0 }
    return AdmittedRank(index: completionIndex, admitted: members).memoryBytes
  }
}
