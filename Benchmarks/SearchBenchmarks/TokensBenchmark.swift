import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

/// `SearchBenchmarks --suite tokens`: scope counts and tokens on the path an app takes, ``ItemSearch``
/// over the data set's cities as the app's own values (name, alternate names, country,
/// continent as scopes, population), background searches, each keystroke and token change
/// waited for until its update is on screen.
///
/// Two searches over the same cities are typed keystroke by keystroke in turn (which one goes
/// first alternates), so that both meet the same machine: one counts every scope's results
/// with each search (``ItemSearch/scopeCounts``, what a scope bar shows), the baseline does
/// not. Every query of the data set's list is typed character by character, the first letter
/// too, in scope "All" and then in a continent, the field cleared before each. After each
/// query, a token is added to the counting search and removed again (a country, a population
/// range), also with the field cleared, where a token alone filters every city; these token
/// changes are set against the same search's keystrokes. Every update is checked: the two
/// searches show the same rows, and the selected scope's count is the number of rows.
@MainActor
struct TokensBenchmark {
  let options: Bench

  struct City: Identifiable, Sendable {
    var id: Int
    var name: String
    var alternates: [String]
    var country: String
    var continent: String
    var population: Int
  }

  enum CityToken: Hashable, Identifiable, Sendable {
    case country(String)
    case population(Int, Int)
    var id: Self { self }
  }

  static let continents = ["Africa", "Americas", "Asia", "Europe", "Oceania"]

  struct Times {
    var counted: [Double] = []
    var plain: [Double] = []
    var countedScoped: [Double] = []
    var plainScoped: [Double] = []
    var tokenChanges: [Double] = []
    var tokenChangesEmptyText: [Double] = []
  }

  func run() async throws {
    let path = try options.resolvedCorpusPath()
    let source = try DataSource.load(input: nil, corpus: path)
    let cities = try Self.cities(of: source.model)
    let queries = try options.queryLines(corpusPath: path)
    let countries = Self.topCountries(cities, count: 40)
    let tokens = ItemTokens<City, CityToken>(
      countries.map(CityToken.country) + [
        .population(0, 1_000), .population(100_000, 1_000_000), .population(1_000_000, .max),
      ],
      title: { token in
        switch token {
        case .country(let code): code
        case .population(let low, let high): "population \(low)–\(high)"
        }
      },
      filter: { token in
        switch token {
        case .country(let code): .equals(\.country, code)
        case .population(let low, let high): .range(\.population, low...high)
        }
      })
    var start = ContinuousClock.now
    let counted = try await Self.search(cities, tokens: tokens)
    let buildMS = (ContinuousClock.now - start).milliseconds
    let plain = try await Self.search(cities, tokens: tokens)
    plain.controller.configuration.countsScopes = false
    counted.isActive = true
    plain.isActive = true

    var times = Times()
    var mismatches: [String] = []
    func type(_ text: String, scope: String?, countedFirst: Bool) async {
      for which in countedFirst ? [true, false] : [false, true] {
        let search = which ? counted : plain
        start = .now
        search.text = text
        await search.settled()
        let elapsed = (ContinuousClock.now - start).milliseconds
        switch (which, scope == nil) {
        case (true, true): times.counted.append(elapsed)
        case (false, true): times.plain.append(elapsed)
        case (true, false): times.countedScoped.append(elapsed)
        case (false, false): times.plainScoped.append(elapsed)
        }
      }
      check("\"\(text)\"")
    }
    func check(_ context: String) {
      let rows = counted.rows.count
      if counted.tokens == plain.tokens && counted.text == plain.text
        && counted.scope == plain.scope && counted.rows.map(\.id) != plain.rows.map(\.id)
      {
        mismatches.append(
          "\(context): the two searches differ: \(counted.rows.count) rows (\(String(describing: counted.controller.results?.path)), text \"\(counted.text)\", scope \(counted.scope ?? "All")) against \(plain.rows.count) (\(String(describing: plain.controller.results?.path)), text \"\(plain.text)\", scope \(plain.scope ?? "All"))"
        )
      }
      if !counted.text.isEmpty || !counted.tokens.isEmpty || counted.scope != nil,
        counted.count(in: counted.scope) != rows
      {
        mismatches.append(
          "\(context): count \(String(describing: counted.count(in: counted.scope))) for \(rows) rows"
        )
      }
    }
    func changeTokens(_ new: [CityToken], emptyText: Bool) async {
      start = .now
      counted.tokens = new
      await counted.settled()
      let elapsed = (ContinuousClock.now - start).milliseconds
      if emptyText {
        times.tokenChangesEmptyText.append(elapsed)
      } else {
        times.tokenChanges.append(elapsed)
      }
      check("tokens \(new)")
    }
    for (number, query) in queries.enumerated() {
      for scope in [nil, Self.continents[number % Self.continents.count]] {
        counted.scope = scope
        plain.scope = scope
        for end in query.indices {
          await type(
            String(query[...end]), scope: scope,
            countedFirst: (number + end.utf16Offset(in: query)) % 2 == 0)
        }
        if scope == nil {
          let token =
            number % 2 == 0
            ? CityToken.country(counted.rows.first?.country ?? countries[number % countries.count])
            : .population(100_000, 1_000_000)
          await changeTokens([token], emptyText: false)
          await changeTokens([], emptyText: false)
        }
        await type("", scope: scope, countedFirst: number % 2 == 0)
      }
      let token = CityToken.country(countries[number % countries.count])
      counted.scope = nil
      plain.scope = nil
      await counted.settled()
      await plain.settled()
      await changeTokens([token], emptyText: true)
      await changeTokens([], emptyText: true)
    }
    report(times, cities: cities.count, buildMS: buildMS, mismatches: mismatches)
    guard mismatches.isEmpty else {
      throw CommandError("\(mismatches.count) updates were wrong, first: \(mismatches[0])")
    }
  }

  private func report(_ times: Times, cities: Int, buildMS: Double, mismatches: [String]) {
    let allCounted = times.counted + times.countedScoped
    let allPlain = times.plain + times.plainScoped
    let added = percentile(allCounted, 0.99) / max(percentile(allPlain, 0.99), 1e-9) - 1
    let addedUnscoped =
      percentile(times.counted, 0.99) / max(percentile(times.plain, 0.99), 1e-9) - 1
    let tokenP99 = percentile(times.tokenChanges + times.tokenChangesEmptyText, 0.99)
    let tokenRatio = tokenP99 / max(percentile(allCounted, 0.99), 1e-9)
    if options.json {
      var json = JSONObject()
      json.add("items", cities)
      json.add("build_ms", buildMS)
      json.add("keystrokes", allCounted.count)
      for (name, values) in [
        ("keystroke_counted", allCounted), ("keystroke_plain", allPlain),
        ("keystroke_counted_all", times.counted), ("keystroke_plain_all", times.plain),
        ("keystroke_counted_scoped", times.countedScoped),
        ("keystroke_plain_scoped", times.plainScoped),
        ("token_change", times.tokenChanges + times.tokenChangesEmptyText),
        ("token_change_typed", times.tokenChanges),
        ("token_change_empty_text", times.tokenChangesEmptyText),
      ] {
        json.add(name + "_p50_ms", percentile(values, 0.5))
        json.add(name + "_p99_ms", percentile(values, 0.99))
        json.add(name + "_max_ms", values.max() ?? 0)
      }
      json.add("scope_counts_added_p99", added)
      json.add("scope_counts_added_p99_all", addedUnscoped)
      json.add("token_change_over_keystroke_p99", tokenRatio)
      json.add("mismatches", mismatches.count)
      json.add("rss_mb", ResidentMemory.peakMegabytes())
      print(json.json)
      return
    }
    print(
      "\(cities) cities in ItemSearch (name, alternate names; continents as scopes; tokens by"
        + " country and population), background searches; built in \(Self.format(buildMS)) ms.")
    print("Each keystroke and token change timed until its update is on screen (ms):")
    func line(_ name: String, _ values: [Double]) {
      print(
        "  " + name.padding(toLength: 46, withPad: " ", startingAt: 0)
          + String(
            format: "p50 %7.2f   p99 %7.2f   max %7.2f   (%d)", percentile(values, 0.5),
            percentile(values, 0.99), values.max() ?? 0, values.count))
    }
    line("keystrokes, scopes counted", allCounted)
    line("keystrokes, baseline (scopes not counted)", allPlain)
    line("  in All, counted", times.counted)
    line("  in All, baseline", times.plain)
    line("  in a continent, counted", times.countedScoped)
    line("  in a continent, baseline", times.plainScoped)
    line("token added or removed, after a query", times.tokenChanges)
    line("token added or removed, field cleared", times.tokenChangesEmptyText)
    print(
      String(
        format:
          "scope counts add %+.1f %% to the keystroke p99 (counted p99 / baseline p99 − 1, same"
          + " keystrokes interleaved; target ≤ +10 %%); in All alone %+.1f %%",
        added * 100, addedUnscoped * 100))
    print(
      String(
        format:
          "token change p99 / keystroke p99 (the counting search, same run): %.2f (target ≤ 1)",
        tokenRatio))
    print(
      "wrong updates: \(mismatches.count); peak memory \(Int(ResidentMemory.peakMegabytes())) MB")
  }

  static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  private static func search(_ cities: [City], tokens: ItemTokens<City, CityToken>) async throws
    -> ItemSearch<City, String, CityToken>
  {
    try await ItemSearch(
      cities, searching: \.name, \.alternates,
      scopes: ItemScopes(continents, title: { $0 }) { city, continent in
        city.continent == continent
      },
      tokens: tokens,
      configuration: .init(search: SearchConfiguration(mode: .background)))
  }

  /// The data set's items as the app's values: the first field is the name, the second the
  /// alternate names; the attributes `country`, `continent` and `population`.
  private static func cities(of model: SearchModel) throws -> [City] {
    let schema = model.schema
    guard let country = schema.attributeIndex(named: "country"),
      let continent = schema.attributeIndex(named: "continent"),
      let population = schema.attributeIndex(named: "population"), schema.fields.count >= 2
    else {
      throw CommandError(
        "the tokens suite needs a data set of cities: two fields (name, alternate names) and the"
          + " attributes country, continent and population, as cities500's manifest has")
    }
    return model.ids.enumerated().map { index, id in
      City(
        id: index, name: model.values(of: id, field: 0).first ?? "",
        alternates: model.values(of: id, field: 1), country: model.attribute(country, of: id),
        continent: model.attribute(continent, of: id),
        population: Int(model.attribute(population, of: id)) ?? 0)
    }
  }

  /// The countries with the most cities.
  private static func topCountries(_ cities: [City], count: Int) -> [String] {
    var counts: [String: Int] = [:]
    for city in cities { counts[city.country, default: 0] += 1 }
    return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(count).map(\.key)
  }
}
