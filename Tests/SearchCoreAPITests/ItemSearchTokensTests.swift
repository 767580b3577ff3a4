import PropertyBased
import SearchCore
import SearchCoreTesting
import TestSupport
import Testing

/// Tokens, suggested tokens and scope counts through `ItemSearch`, against an oracle written
/// here from the items alone: plain Swift filters over the values, no engine.
@MainActor
@Suite(.tags(.concurrent)) struct ItemSearchTokensTests {
  struct Place: Identifiable, Hashable, Sendable {
    enum Region: String, CaseIterable, Hashable, Sendable { case north, south, east }
    var id: Int
    var name: String
    var region: Region
    var country: String
    var population: Int
    var elevation: Int?
  }

  enum PlaceToken: Hashable, Identifiable, Sendable {
    case country(String)
    case big
    case small
    case populationBetween(Int, Int)
    case hasElevation
    case region(Place.Region)
    var id: Self { self }
  }

  static let countries = ["Chile", "Norway", "Kenya", "Ördu"]

  /// The offered tokens: every kind, so that every key path a token tests is read.
  static let tokens = ItemTokens<Place, PlaceToken>(
    countries.map(PlaceToken.country) + [.big, .small, .hasElevation, .populationBetween(0, 0)]
      + Place.Region.allCases.map(PlaceToken.region),
    title: { token in
      switch token {
      case .country(let country): country
      case .big: "Big city"
      case .small: "Small town"
      case .populationBetween(let low, let high): "Between \(low) and \(high)"
      case .hasElevation: "Has an elevation"
      case .region(let region): "Region " + region.rawValue
      }
    },
    filter: { token in
      switch token {
      case .country(let country): .equals(\.country, country)
      case .big: .range(\.population, 100_000...)
      case .small: .range(\.population, ...5_000)
      case .populationBetween(let low, let high): .range(\.population, low...high)
      case .hasElevation: .isPresent(\.elevation)
      case .region(let region): .equals(\.region, region)
      }
    })

  /// The oracle's reading of a token.
  static func admits(_ place: Place, _ token: PlaceToken) -> Bool {
    switch token {
    case .country(let country): place.country == country
    case .big: place.population >= 100_000
    case .small: place.population <= 5_000
    case .populationBetween(let low, let high): (low...high).contains(place.population)
    case .hasElevation: place.elevation != nil
    case .region(let region): place.region == region
    }
  }

  static let syllables = ["ka", "lo", "mi", "ne", "ra", "su", "to", "vi", "an", "el"]

  static func places(count: Int, random: inout SplitMix64) -> [Place] {
    (0..<count).map { index in
      let name = (0..<Int.random(in: 2...4, using: &random)).map { _ in
        syllables.randomElement(using: &random) ?? "ka"
      }.joined()
      return Place(
        id: index, name: name.prefix(1).uppercased() + name.dropFirst(),
        region: Place.Region.allCases.randomElement(using: &random) ?? .north,
        country: countries.randomElement(using: &random) ?? "Chile",
        population: [0, 800, 5_000, 5_001, 40_000, 100_000, 2_500_000].randomElement(
          using: &random) ?? 0,
        elevation: Bool.random(using: &random) ? Int.random(in: -10...3_000, using: &random) : nil)
    }
  }

  /// What the rows must be: the text's words (ASCII, so lowercasing is the folding) all in
  /// the name, the scope, every token.
  static func expected(
    _ places: [Place], text: String, scope: Place.Region?, tokens: [PlaceToken]
  ) -> [Int] {
    let words = text.lowercased().split(separator: " ")
    return places.filter { place in
      (scope.map { place.region == $0 } ?? true)
        && tokens.allSatisfy { admits(place, $0) }
        && words.allSatisfy { place.name.lowercased().contains($0) }
    }.map(\.id)
  }

  func makeSearch(_ places: [Place], mode: SearchConfiguration.Mode) async throws -> ItemSearch<
    Place, Place.Region, PlaceToken
  > {
    try await ItemSearch(
      places, searching: \.name, scopes: .cases(\.region), tokens: Self.tokens,
      // The oracle matches exactly; typo tolerance has tests of its own.
      configuration: .init(search: SearchConfiguration(mode: mode, typos: .off)))
  }

  /// Checks the rows and every scope's count against the oracle.
  func check(
    _ search: ItemSearch<Place, Place.Region, PlaceToken>, _ places: [Place],
    _ context: String
  ) {
    let text = search.text
    let rows = search.rows.map(\.id)
    let searching =
      search.isActive
      && !(text.allSatisfy(\.isWhitespace) && search.scope == nil && search.tokens.isEmpty)
    let expected =
      searching
      ? Self.expected(places, text: text, scope: search.scope, tokens: search.tokens)
      : places.map(\.id)
    #expect(rows == expected, "\(context): rows")
    let counts = search.scopeCounts
    #expect(counts?.count == 4, "\(context): a count per scope")
    for (index, scope) in ([nil] + Place.Region.allCases.map { Optional($0) }).enumerated() {
      let want =
        searching
        ? Self.expected(places, text: text, scope: scope, tokens: search.tokens).count
        : places.filter { scope == nil || $0.region == scope }.count
      #expect(counts?[index] == want, "\(context): count of scope \(index)")
      #expect(
        search.count(in: scope) == want, "\(context): count(in:) \(String(describing: scope))")
    }
  }

  @Test(arguments: [SearchConfiguration.Mode.immediate, .background])
  func tokensScopeAndTextEqualTheOracle(mode: SearchConfiguration.Mode) async throws {
    // The places, and the steps of a session over them: each step a draw of its own, so that
    // shrinking a failure drops steps without changing the others.
    let lists = Gen.int(in: 0...1_000_000)
    let sessions = Gen.int(in: 0...Int(Int32.max)).array(of: 1...30)
    await propertyCheck(count: 12, input: lists, sessions) { seed, steps in
      var random = SplitMix64(seed: seed)
      let places = Self.places(count: 300, random: &random)
      let search = try await makeSearch(places, mode: mode)
      search.isActive = true
      for (step, draw) in steps.enumerated() {
        var random = SplitMix64(seed: draw)
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
          // Type a character of a syllable, or erase one.
          if Bool.random(using: &random) || search.text.isEmpty {
            let syllable = Self.syllables.randomElement(using: &random) ?? "ka"
            search.text += String(syllable.prefix(Int.random(in: 1...2, using: &random)))
          } else {
            search.text.removeLast()
          }
        case 2:
          let scopes: [Place.Region?] = [nil] + Place.Region.allCases
          search.scope = scopes.randomElement(using: &random) ?? nil
        case 3:
          let offered = Self.tokens.tokens.filter {
            if case .populationBetween = $0 { return false }
            return true
          }
          if let token = offered.randomElement(using: &random), !search.tokens.contains(token) {
            search.tokens.append(token)
          }
        case 4:
          if !search.tokens.isEmpty {
            search.tokens.remove(at: Int.random(in: 0..<search.tokens.count, using: &random))
          } else {
            let low = Int.random(in: 0...50_000, using: &random)
            search.tokens = [
              .populationBetween(low, low + Int.random(in: 0...3_000_000, using: &random))
            ]
          }
        default:
          search.text = ""
        }
        await search.settled()
        check(
          search, places,
          "seed \(seed) step \(step) text \"\(search.text)\" tokens \(search.tokens)")
      }
    }
  }

  @Test func tokensFollowChangesOfTheItems() async throws {
    var random = SplitMix64(seed: 7)
    var places = Self.places(count: 400, random: &random)
    let search = try await makeSearch(places, mode: .background)
    search.isActive = true
    search.text = "a"
    search.tokens = [.country("Kenya"), .hasElevation]
    search.scope = .south
    await search.settled()
    check(search, places, "before")
    var next = places.count
    for round in 0..<8 {
      var changes: [ItemChange<Place>] = []
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
          var new = Self.places(count: 1, random: &random)[0]
          new.id = next
          next += 1
          places.append(new)
          changes.append(.insert(new))
        case 1:
          guard !places.isEmpty else { continue }
          let index = Int.random(in: 0..<places.count, using: &random)
          var changed = Self.places(count: 1, random: &random)[0]
          changed.id = places[index].id
          places[index] = changed
          changes.append(.update(changed))
        default:
          guard !places.isEmpty else { continue }
          let index = Int.random(in: 0..<places.count, using: &random)
          changes.append(.remove(places[index].id))
          places.remove(at: index)
        }
      }
      // One item changed twice in a batch is one change: keep the batch simple.
      var seen: Set<Int> = []
      let unique = changes.filter {
        switch $0 {
        case .insert(let place, _), .update(let place): seen.insert(place.id).inserted
        case .remove(let id): seen.insert(id).inserted
        }
      }
      guard unique.count == changes.count else { return }
      try await search.apply(changes)
      await search.settled()
      check(search, places, "after batch \(round)")
    }
  }

  @Test func aTokenAddedNarrowsTheResultsOnScreenAndARemovedOneIsAnsweredAgain() async throws {
    var random = SplitMix64(seed: 3)
    let places = Self.places(count: 500, random: &random)
    let search = try await makeSearch(places, mode: .immediate)
    search.isActive = true
    search.text = "ra"
    #expect(search.controller.results?.path == .fullScan)
    search.tokens = [.big]
    #expect(search.controller.results?.path == .narrowed(from: "ra"))
    search.tokens = [.big, .country("Chile")]
    #expect(search.controller.results?.path == .narrowed(from: "ra"))
    search.tokens = [.big]
    #expect(search.controller.results?.path == .cached)
    check(search, places, "after removing a token")
  }

  /// Cancel clears the field, tokens with the text, as a search field's cancel button does;
  /// the scope stays selected, as a scope bar's button does, so the next begin shows the
  /// scope's rows under an empty field.
  @Test func cancelClearsTheTokensAndKeepsTheScope() async throws {
    var random = SplitMix64(seed: 4)
    let places = Self.places(count: 300, random: &random)
    let search = try await makeSearch(places, mode: .immediate)
    search.isActive = true
    search.scope = .south
    search.tokens = [.big]
    search.text = "ra"
    check(search, places, "searching")
    search.isActive = false
    #expect(search.tokens.isEmpty && search.text.isEmpty)
    #expect(search.scope == .south)
    check(search, places, "after cancel")
    search.isActive = true
    check(search, places, "begun again")
    #expect(search.rows.map(\.id) == places.filter { $0.region == .south }.map(\.id))
  }

  @Test func suggestedTokensMatchAWordOfTheTitleAsTheItemsAreFolded() async throws {
    var random = SplitMix64(seed: 1)
    let search = try await makeSearch(Self.places(count: 10, random: &random), mode: .immediate)
    search.text = "sma"
    #expect(search.suggestedTokens == [.small])
    search.text = "ÖR"  // folded: "or", the start of "Ördu"
    #expect(search.suggestedTokens == [.country("Ördu")])
    search.text = "ci"  // "Big city": a word of the title
    #expect(search.suggestedTokens == [.big])
    search.tokens = [.big]
    #expect(search.suggestedTokens == [], "a token in the field is not suggested again")
    search.text = ""
    #expect(search.suggestedTokens == Self.tokens.tokens.filter { $0 != .big })
    #expect(search.title(of: .hasElevation) == "Has an elevation")
  }

  @Test func updatesCarryTheScopeCounts() async throws {
    var random = SplitMix64(seed: 11)
    let places = Self.places(count: 200, random: &random)
    let search = try await makeSearch(places, mode: .background)
    var counts: [[Int?]?] = []
    let token = search.observe { counts.append($0.scopeCounts) }
    search.isActive = true
    search.text = "ka"
    await search.settled()
    search.tokens = [.small]
    await search.settled()
    withExtendedLifetime(token) {}
    let all = Self.expected(places, text: "ka", scope: nil, tokens: [.small]).count
    #expect(counts.last??.first == all)
    #expect(counts.last ?? nil == search.scopeCounts)
  }

  @Test func completionsFollowTheTextTheScopeAndTheTokens() async throws {
    var random = SplitMix64(seed: 21)
    var places = Self.places(count: 300, random: &random)
    // Two-word names too: a value is a completion, and so is each of its words.
    for index in places.indices where index % 3 == 0 {
      places[index].name += " " + (places[(index * 7) % places.count].name)
    }
    let search = try await ItemSearch(
      places, searching: \.name, scopes: .cases(\.region), tokens: Self.tokens,
      configuration: .init(search: SearchConfiguration(mode: .background, completionLimit: 5)))
    search.isActive = true
    // The index is built in the background after the first search: type until it answers.
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(60)
    while search.completions.isEmpty && clock.now < deadline {
      search.text = ""
      await search.settled()
      search.text = "ka"
      await search.settled()
      try await Task.sleep(for: .milliseconds(20))
    }
    let cases: [(String, Place.Region?, [PlaceToken])] = [
      ("ka", nil, []), ("k", .north, []), ("mi", nil, [.big]), ("ra", .east, [.hasElevation]),
      ("lo", nil, [.country("Chile"), .small]), ("kalo ", nil, []), ("zz", nil, []),
    ]
    for (text, scope, tokens) in cases {
      search.scope = scope
      search.tokens = tokens
      search.text = text
      await search.settled()
      let expected = Self.completions(of: text, in: places, scope: scope, tokens: tokens, limit: 5)
      let context = "\"\(text)\" in \(String(describing: scope)) with \(tokens)"
      #expect(
        search.completions.map { [$0.text.lowercased(), String($0.count)] }
          == expected.map { [$0.key, String($0.count)] }, "\(context)")
      for completion in search.completions {
        let marked = completion.marked.runs.filter(\.isMarked).map(\.text).joined()
        #expect(marked.lowercased() == text.trimmingCharacters(), "\(context): \(completion.text)")
      }
    }
  }

  /// The oracle of completions: every whole name and every word of a name (ASCII, so
  /// lowercasing is the folding) of the admitted places, counted by the places holding it,
  /// most first, then in byte order; those that start with the text.
  static func completions(
    of text: String, in places: [Place], scope: Place.Region?, tokens: [PlaceToken], limit: Int
  ) -> [(key: String, count: Int)] {
    let typed = text.trimmingCharacters()
    guard !typed.isEmpty else { return [] }
    var counts: [String: Int] = [:]
    for place in places
    where (scope.map { place.region == $0 } ?? true) && tokens.allSatisfy({ admits(place, $0) }) {
      let name = place.name.lowercased()
      let keys = Set([name] + name.split(separator: " ").map(String.init))
      for key in keys { counts[key, default: 0] += 1 }
    }
    return counts.filter { $0.key.hasPrefix(typed) }
      .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
      .prefix(limit).map { ($0.key, $0.value) }
  }
}

extension String {
  /// The text without spaces at either end.
  fileprivate func trimmingCharacters() -> String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
