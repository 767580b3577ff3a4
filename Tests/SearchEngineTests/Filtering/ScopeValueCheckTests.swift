import Testing

@testable import SearchEngine

/// A scope whose values no item has was silently an empty list; now building the corpus says
/// so, with the values there are.
@Suite struct ScopeValueCheckTests {
  private func corpus(scope: ScopeBar.Scope, groups: [String]) throws -> SearchCorpus {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: ["group"],
        scopeBar: ScopeBar([scope])))
    for (index, group) in groups.enumerated() {
      try model.append(SearchModel.Record(fields: [["contact \(index)"]], attributes: [group]))
    }
    return try SearchCorpus(model: model, normalizer: Normalizer())
  }

  @Test func aMisspeltValueIsAnErrorWithTheRightOne() throws {
    let work = ScopeBar.Scope(title: "Work", attribute: "group", values: ["Work"])
    #expect(
      throws: SearchCorpus.Error.scopeMatchesNothing(
        "Work", attribute: "group", values: ["Work"], available: ["family", "work"])
    ) { try corpus(scope: work, groups: ["work", "family", "work"]) }
    do {
      _ = try corpus(scope: work, groups: ["work", "family"])
    } catch {
      #expect(
        "\(error)"
          == "scope \"Work\" matches no item: no item has group \"Work\"; did you mean \"work\"?")
    }
    let typo = ScopeBar.Scope(title: "Friends", attribute: "group", values: ["frinds"])
    do {
      _ = try corpus(scope: typo, groups: ["work", "family"])
      Issue.record("no error for a value no item has")
    } catch {
      #expect(
        "\(error)" == "scope \"Friends\" matches no item: no item has group \"frinds\"; "
          + "the values are \"family\", \"work\"")
    }
  }

  @Test func oneValueThatItemsHaveIsEnough() throws {
    // Planned values may wait for their items, as long as the scope admits something now.
    let scope = ScopeBar.Scope(title: "Home", attribute: "group", values: ["family", "friends"])
    let built = try corpus(scope: scope, groups: ["work", "family"])
    #expect(built.members(ofScope: 1).count == 1)
    // An empty model has nothing to check yet.
    _ = try corpus(
      scope: ScopeBar.Scope(title: "Any", attribute: "group", values: ["x"]), groups: [])
  }
}
