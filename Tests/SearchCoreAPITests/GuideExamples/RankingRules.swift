// The RankingRules guide's swift block, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder, and drives this one).
import SearchEngine

/// A schema whose ranking puts the most populous of equally relevant places first.
func rankingRulesExample() -> SearchModel.Schema {
  let schema = SearchModel.Schema(
    fields: [.init(name: "name"), .init(name: "alternate names")],
    attributes: ["population"],
    ranking: Ranking.default.with(.attribute("population", .descending)))
  return schema
}
