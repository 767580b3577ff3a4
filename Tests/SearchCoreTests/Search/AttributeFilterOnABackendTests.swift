import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// A controller with a backend refuses tokens with a clear error rather than answer without
/// them.
@MainActor
@Suite(.tags(.concurrent)) struct AttributeFilterOnABackendTests {
  @Test func tokensOnABackendAreRefusedWithAdvice() async throws {
    var model = SearchModel(
      schema: SearchModel.Schema(fields: [.init(name: "name")], attributes: ["tag"]))
    for (name, tag) in [("Kasia", "t1"), ("Mika", ""), ("Ola", "t2"), ("Kari", "")] {
      try model.append(SearchModel.Record(fields: [[name]], attributes: [tag]))
    }
    let corpus = try SearchCorpus(model: model, normalizer: Normalizer())
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background),
      backend: MemorySearchBackend(corpus: corpus))
    var errors: [String] = []
    let token = controller.observe { event in
      if case .error(let message) = event { errors.append(message) }
    }
    controller.begin()
    controller.setText("ka")
    await controller.waitUntilIdle()
    #expect(errors.isEmpty)
    let shown = controller.results?.items
    #expect(shown?.count == 3, "Kasia, Mika and Kari")
    controller.setFilter(AttributeFilter([.present(attribute: "tag")]))
    await controller.waitUntilIdle()
    withExtendedLifetime(token) {}
    #expect(errors.count == 1)
    #expect(errors.first?.contains("takes no tokens") == true, "\(errors)")
    #expect(controller.results?.items == shown, "the rows from before stay")
  }
}
