import SearchCoreTesting
import SearchEngine

/// Random models and batches of changes for the batch and table-editing tests.
public enum EditFixtures {
  /// Names whose first letters the locales treat differently, and some that have no letter.
  public static let lettersLocalesSortApart = [
    "Nube", "Ñandú", "nada", "Oso", "Ärger", "Apfel", "azur", "Åsa", "Örebro", "ärlig", "Zebra",
    "Émile", "eagle", "42", "🙂", "", "ølen", "Ǻngel", "Bach", "bach", "Straße", "ßtraße", "Москва",
    "한국", "Yxa", "über", "Ödem", "Ñu", "Mano",
  ]
  /// The kinds (the attribute) of the table fixtures: cases and accents that sort apart.
  public static let kinds = ["x", "Y", "z", "é", "E", "", "Ö", "å"]

  /// Names across sections and locales: accents (composed and not), letters some locales
  /// sort apart, digits and symbols ("#"), empty text, scripts without case.
  public static let names =
    lettersLocalesSortApart + [
      "e\u{301}mile", "A\u{30A}sa", "9 Lives", "ábaco", "Ábaco", "Ñ", "zz", "日本", "Ǆemal",
      "Mano", "mano", "Apfel",
    ]

  /// A model of one field, "name", and one attribute, "kind".
  public static func model(_ rows: [(name: String?, kind: String)]) throws -> SearchModel {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: ["kind"]))
    for row in rows {
      try model.append(
        SearchModel.Record(fields: [row.name.map { [$0] } ?? []], attributes: [row.kind]))
    }
    return model
  }

  /// A model of names, all of kind "x".
  public static func model(names: [String]) throws -> SearchModel {
    try model(names.map { (name: $0, kind: "x") })
  }

  /// A record of the table fixtures' schema: a name (or none) and a kind.
  public static func record(using random: inout SplitMix64) -> SearchModel.Record {
    let name =
      Int.random(in: 0..<12, using: &random) == 0 ? nil : names.randomElement(using: &random)
    return SearchModel.Record(
      fields: [name.map { [$0] } ?? []],
      attributes: [kinds.randomElement(using: &random) ?? "x"])
  }

  /// A model of the table fixtures' schema with up to `limit` random items.
  public static func model(limit: Int, using random: inout SplitMix64) throws -> SearchModel {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: ["kind"]))
    for _ in 0..<Int.random(in: 0...limit, using: &random) {
      try model.append(record(using: &random))
    }
    return model
  }

  /// A valid batch for `model`: insertions (at random positions or the end), updates (new
  /// names, new kinds, the same content), removals, now and then of every item.
  public static func changes(
    for model: SearchModel, reorders: Bool = false, using random: inout SplitMix64
  )
    -> [SearchModel.Change]
  {
    var alive = model.ids
    var next = model.identityLimit
    if Int.random(in: 0..<20, using: &random) == 0 {
      return alive.shuffled(using: &random).map { .remove($0) }
    }
    let count = Int.random(
      in: 1...(Int.random(in: 0..<4, using: &random) == 0 ? 25 : 5), using: &random)
    var changes: [SearchModel.Change] = []
    for _ in 0..<count {
      let choice = Int.random(in: 0..<10, using: &random)
      if choice < 4 || alive.isEmpty {
        let position =
          Bool.random(using: &random) ? Int.random(in: 0...alive.count, using: &random) : nil
        changes.append(.insert(record(using: &random), at: position))
        alive.insert(ItemID(rawValue: Int32(next)), at: position ?? alive.count)
        next += 1
      } else if choice < 8 {
        let id = alive.randomElement(using: &random) ?? alive[0]
        var record = model.contains(id) ? model.record(of: id) : self.record(using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: record.fields = self.record(using: &random).fields
        case 1: record.attributes = self.record(using: &random).attributes
        case 2: break  // the same content
        default: record = self.record(using: &random)
        }
        changes.append(.update(id, with: record))
      } else if reorders && choice == 9 {
        // The order as the batch has left it, shuffled, or reversed, or the same.
        switch Int.random(in: 0..<3, using: &random) {
        case 0: alive.shuffle(using: &random)
        case 1: alive.reverse()
        default: break
        }
        changes.append(.reorder(alive))
      } else {
        let index = Int.random(in: 0..<alive.count, using: &random)
        changes.append(.remove(alive.remove(at: index)))
      }
    }
    return changes
  }
}
