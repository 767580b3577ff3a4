import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Small models and random tables for the data-source tests.
enum TableFixtures {
  /// The sections as titles and display texts, for readable expectations.
  static func shown(_ table: SectionedTable, _ model: SearchModel) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for section in table.sections {
      result[section.title ?? "-"] = section.items.map { model.display($0) }
    }
    return result
  }

  /// Names whose first letters the locales treat differently, and some that have no letter.
  static let words = EditFixtures.lettersLocalesSortApart
  static let kinds = EditFixtures.kinds
  static let locales = ["", "es", "sv", "de", "en"]
}

@Suite(.tags(.plainSwift)) struct SectionedTableTests {
  @Test func spanishPutsEnyeAfterN() throws {
    let model = try EditFixtures.model(names: ["Ñandú", "Oso", "Nube", "Mano", "nada"])
    let spanish = try SectionedTable.Collation(locale: "es")
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: spanish)
    #expect(table.sections.map(\.title) == ["M", "N", "Ñ", "O"])
    #expect(table.sectionIndexTitles == spanish.indexTitles)
    #expect(TableFixtures.shown(table, model)["N"] == ["nada", "Nube"])
    #expect(TableFixtures.shown(table, model)["Ñ"] == ["Ñandú"])
    let plain = try SectionedTable(
      items: model.ids, model: model, rowOrder: .collation, collation: spanish)
    #expect(
      plain.sections.map { $0.items.map(model.display) } == [
        ["Mano", "nada", "Nube", "Ñandú", "Oso"]
      ])
    // Under the root rules Ñ is an N with a tilde, and sorts among the N words.
    let root = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: try SectionedTable.Collation(locale: ""))
    #expect(root.sections.map(\.title) == ["M", "N", "O"])
    #expect(TableFixtures.shown(root, model)["N"] == ["nada", "Ñandú", "Nube"])
  }

  @Test func swedishPutsRingAndUmlautsAfterZ() throws {
    let model = try EditFixtures.model(names: ["Örebro", "Zebra", "Åsa", "ärlig", "Anna", "Émile"])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: try SectionedTable.Collation(locale: "sv"))
    #expect(table.sections.map(\.title) == ["A", "E", "Z", "Å", "Ä", "Ö"])
    #expect(TableFixtures.shown(table, model)["E"] == ["Émile"])
    #expect(TableFixtures.shown(table, model)["Ä"] == ["ärlig"])
  }

  @Test func germanSortsUmlautWithItsBaseLetter() throws {
    let model = try EditFixtures.model(names: ["Bach", "Azur", "Ärger", "Apfel"])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: try SectionedTable.Collation(locale: "de"))
    #expect(table.sections.map(\.title) == ["A", "B"])
    #expect(TableFixtures.shown(table, model)["A"] == ["Apfel", "Ärger", "Azur"])
    #expect(table.sectionIndexTitles?.contains("Ä") == false)
  }

  @Test func titlesOfSingleTexts() throws {
    let english = try SectionedTable.Collation(locale: "en")
    #expect(english.sectionTitle(for: "Émile") == "E")
    #expect(english.sectionTitle(for: "émile") == "E")
    #expect(english.sectionTitle(for: "42") == "#")
    #expect(english.sectionTitle(for: "") == "#")
    #expect(english.sectionTitle(for: "🙂 smile") == "#")
    let swedish = try SectionedTable.Collation(locale: "sv")
    #expect(swedish.sectionTitle(for: "åsa") == "Å")
    #expect(swedish.sectionTitle(for: "Émile") == "E")
    #expect(try SectionedTable.Collation(locale: "es").sectionTitle(for: "ñu") == "Ñ")
    #expect(try SectionedTable.Collation(locale: "de").sectionTitle(for: "Ärger") == "A")
    #expect(english.orderedSectionTitles(["#", "B", "A", "B"]) == ["A", "B", "#"])
    // Only the marks the locale ignores go: Swedish Ǻ is Å with an acute.
    #expect(swedish.sectionTitle(for: "Ǻngel") == "Å")
    #expect(english.sectionTitle(for: "e\u{301}mile") == "E")
    #expect(english.sectionTitle(for: "ßtraße") == "S")
  }

  @Test func textsWithoutALetterComeLast() throws {
    let model = try EditFixtures.model([
      (name: "42", kind: "x"), (name: "berg", kind: "x"), (name: "🙂", kind: "x"),
      (name: nil, kind: "x"), (name: "Alpha", kind: "x"),
    ])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      collation: try SectionedTable.Collation(locale: "en"))
    #expect(table.sections.map(\.title) == ["A", "B", "#"])
    #expect(TableFixtures.shown(table, model)["#"] == ["42", "🙂", ""])
    #expect(table.section(forSectionIndexTitle: "#", at: 26) == 2)
    #expect(table.section(forSectionIndexTitle: "B", at: 1) == 1)
  }

  /// CLDR's Swedish sorts ü as a kind of y, so "über" is filed under Y, before "Yxa".
  @Test func swedishFilesUWithUmlautUnderY() throws {
    let model = try EditFixtures.model(names: ["Yxa", "über", "Zebra", "Uppsala"])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: try SectionedTable.Collation(locale: "sv"))
    #expect(
      TableFixtures.shown(table, model) == [
        "U": ["Uppsala"], "Y": ["über", "Yxa"], "Z": ["Zebra"],
      ])
    #expect(table.sections.map(\.title) == ["U", "Y", "Z"])
  }

  /// Full-width letters are the same letters: one section, not "K" and "Ｋ".
  @Test func fullWidthLettersShareTheSection() throws {
    let model = try EditFixtures.model(names: ["Ｋｅｎｊｉ", "Kato", "Mori"])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      collation: try SectionedTable.Collation(locale: "en"))
    #expect(TableFixtures.shown(table, model) == ["K": ["Ｋｅｎｊｉ", "Kato"], "M": ["Mori"]])
  }

  /// Czech "ch" is a letter after "h": "chata" and "cesta" start alike but part, and the CH
  /// section comes after H, as the index orders it.
  @Test func czechCHSectionComesAfterH() throws {
    let model = try EditFixtures.model(names: [
      "chata", "cesta", "hrad", "Čech", "Ida", "Chrudim", "celek",
    ])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: try SectionedTable.Collation(locale: "cs"))
    #expect(table.sections.map(\.title) == ["C", "Č", "H", "CH", "I"])
    #expect(TableFixtures.shown(table, model)["C"] == ["celek", "cesta"])
    #expect(TableFixtures.shown(table, model)["CH"] == ["chata", "Chrudim"])
  }

  /// Kanji names have no reading to file by: they share "#", instead of a section each.
  @Test func japaneseSectionsAreKanaRows() throws {
    let model = try EditFixtures.model(names: ["さくら", "東京", "かめ", "Kenji", "あめ", "大阪"])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      collation: try SectionedTable.Collation(locale: "ja"))
    #expect(table.sections.map(\.title) == ["K", "あ", "か", "さ", "#"])
    #expect(TableFixtures.shown(table, model)["#"] == ["東京", "大阪"])
  }

  /// Chinese files Han characters under the first letter of their pinyin.
  @Test func chineseSectionsArePinyinLetters() throws {
    let model = try EditFixtures.model(names: ["北京", "上海", "Berlin", "東京"])
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      collation: try SectionedTable.Collation(locale: "zh"))
    #expect(table.sections.map(\.title) == ["B", "D", "S"])
    #expect(TableFixtures.shown(table, model)["B"] == ["北京", "Berlin"])
  }

  /// The index shows every letter; a letter without rows jumps to the next one with rows,
  /// and a letter after the last one with rows to the last section.
  @Test func indexShowsEveryLetterAndJumpsForward() throws {
    let model = try EditFixtures.model(names: ["Cleo", "Anna", "42", "Axel"])
    let english = try SectionedTable.Collation(locale: "en")
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      collation: english)
    #expect(table.sections.map(\.title) == ["A", "C", "#"])
    #expect(table.sectionIndexTitles == TableCollationTests.latin + ["#"])
    let titles = table.sectionIndexTitles ?? []
    func jump(_ title: String) -> Int {
      table.section(forSectionIndexTitle: title, at: titles.firstIndex(of: title) ?? 0)
    }
    #expect(jump("A") == 0)
    #expect(jump("B") == 1)
    #expect(jump("C") == 1)
    #expect(jump("D") == 2)
    #expect(jump("Z") == 2)
    #expect(jump("#") == 2)
    // Without a "#" section, letters after the last section go to the last section.
    let letters = try SectionedTable(
      items: Array(model.ids.prefix(2)), model: model, sectioning: .firstLetter(field: "name"),
      collation: english)
    #expect(letters.sections.map(\.title) == ["A", "C"])
    #expect(letters.section(forSectionIndexTitle: "M", at: 12) == 1)
    #expect(letters.section(forSectionIndexTitle: "#", at: 26) == 1)
    // Swedish Å comes after Z: from Z it jumps to the Å section, not back to A.
    let swedishModel = try EditFixtures.model(names: ["Anna", "Åsa", "Örjan"])
    let swedish = try SectionedTable(
      items: swedishModel.ids, model: swedishModel, sectioning: .firstLetter(field: "name"),
      collation: try SectionedTable.Collation(locale: "sv"))
    let swedishTitles = swedish.sectionIndexTitles ?? []
    #expect(swedishTitles.suffix(4) == ["Å", "Ä", "Ö", "#"])
    #expect(swedish.section(forSectionIndexTitle: "Z", at: 25) == 1)
    #expect(swedish.section(forSectionIndexTitle: "Ä", at: 27) == 2)
    // An empty table has one section, which every title jumps to.
    let empty = try SectionedTable(
      items: [], model: model, sectioning: .firstLetter(field: "name"), collation: english)
    #expect(empty.sectionIndexTitles == english.indexTitles)
    #expect(empty.section(forSectionIndexTitle: "Q", at: 16) == 0)
  }

  @Test func attributeSections() throws {
    let model = try EditFixtures.model([
      (name: "carrot", kind: "vegetable"), (name: "apple", kind: "Fruit"),
      (name: "leek", kind: "vegetable"), (name: "Banana", kind: "Fruit"),
      (name: "almond", kind: "nut"),
    ])
    let collation = try SectionedTable.Collation(locale: "en")
    let table = try SectionedTable(
      items: model.ids, model: model, sectioning: .attribute("kind"), collation: collation)
    #expect(table.sectionIndexTitles == ["Fruit", "nut", "vegetable"])
    #expect(
      TableFixtures.shown(table, model) == [
        "Fruit": ["apple", "Banana"], "nut": ["almond"], "vegetable": ["carrot", "leek"],
      ])
    #expect(table.titleForHeader(inSection: 2) == "vegetable")
    #expect(table.section(forSectionIndexTitle: "nut", at: 1) == 1)
    let sorted = try SectionedTable(
      items: model.ids.reversed(), model: model, sectioning: .attribute("kind"),
      rowOrder: .collation, collation: collation)
    #expect(TableFixtures.shown(sorted, model)["vegetable"] == ["carrot", "leek"])
  }

  @Test func givenOrderIsKeptInsideSections() throws {
    let model = try EditFixtures.model(names: ["Bob", "anna", "Abel", "Bea", "ann", "Cleo"])
    let ranked = [4, 0, 5, 2, 3, 1].map { model.ids[$0] }
    let table = try SectionedTable(
      items: ranked, model: model, sectioning: .firstLetter(field: "name"),
      collation: try SectionedTable.Collation(locale: ""))
    #expect(table.sections.map(\.title) == ["A", "B", "C"])
    #expect(
      TableFixtures.shown(table, model) == [
        "A": ["ann", "Abel", "anna"], "B": ["Bob", "Bea"], "C": ["Cleo"],
      ])
    let plain = try SectionedTable(items: ranked, model: model, collation: table.collation)
    #expect(plain.sections == [SectionedTable.Section(title: nil, items: ranked)])
  }

  @Test func plainAndEmptyTables() throws {
    let model = try EditFixtures.model(names: ["a", "b"])
    let collation = try SectionedTable.Collation(locale: "")
    let plain = try SectionedTable(
      items: model.ids, model: model, collation: collation, canEditRows: false,
      footer: { "\($0.items.count) rows" })
    #expect(plain.numberOfSections == 1)
    #expect(plain.sectionIndexTitles == nil)
    #expect(plain.titleForHeader(inSection: 0) == nil)
    #expect(plain.titleForFooter(inSection: 0) == "2 rows")
    #expect(plain.titleForFooter(inSection: 1) == nil)
    #expect(!plain.canEditRow(at: TableIndexPath(section: 0, row: 0)))
    for sectioning in [
      SectionedTable.Sectioning.none, .attribute("kind"), .firstLetter(field: "name"),
    ] {
      let empty = try SectionedTable(
        items: [], model: model, sectioning: sectioning, collation: collation)
      #expect(empty.numberOfSections == 1)
      #expect(empty.numberOfRows(inSection: 0) == 0)
      #expect(empty.numberOfRows == 0)
      #expect(empty.item(at: TableIndexPath(section: 0, row: 0)) == nil)
      #expect(empty.indexPath(of: model.ids[0]) == nil)
      #expect(empty.titleForFooter(inSection: 0) == nil)
    }
    let editable = try SectionedTable(items: model.ids, model: model, collation: collation)
    #expect(editable.canEditRow(at: TableIndexPath(section: 0, row: 1)))
    #expect(!editable.canEditRow(at: TableIndexPath(section: 0, row: 2)))
  }

  @Test func unknownNamesAndItemsAreErrors() throws {
    let model = try EditFixtures.model(names: ["a"])
    let collation = try SectionedTable.Collation(locale: "")
    #expect(throws: SectionedTable.Error.unknownAttribute("colour", available: ["kind"])) {
      try SectionedTable(
        items: model.ids, model: model, sectioning: .attribute("colour"), collation: collation)
    }
    let error = #expect(throws: SectionedTable.Error.self) {
      try SectionedTable(
        items: model.ids, model: model, sectioning: .firstLetter(field: "title"),
        collation: collation)
    }
    #expect(error?.description == "no field \"title\" to section by; the fields are \"name\"")
    #expect(
      SectionedTable.Error.unknownAttribute("colour", available: []).description
        == "no attribute \"colour\" to section by; the schema has no attributes")
    #expect(throws: SectionedTable.Error.unknownItem(ItemID(rawValue: 7))) {
      try SectionedTable(items: [ItemID(rawValue: 7)], model: model, collation: collation)
    }
    #expect(throws: SectionedTable.Error.duplicateItem(model.ids[0])) {
      try SectionedTable(items: model.ids + model.ids, model: model, collation: collation)
    }
  }

  /// Every row of every table: the index path of the item at a path is that path, and the
  /// table holds exactly the items it was given, in the promised orders.
  @Test func indexPathsRoundTrip() async throws {
    let collations = try TableFixtures.locales.map { try SectionedTable.Collation(locale: $0) }
    await propertyCheck(count: TestBudget.cases(150), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      let rows = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        (
          name: Int.random(in: 0..<10, using: &random) == 0
            ? nil : TableFixtures.words.randomElement(using: &random),
          kind: TableFixtures.kinds.randomElement(using: &random) ?? ""
        )
      }
      let model = try EditFixtures.model(rows)
      let items = Array(
        model.ids.shuffled(using: &random).prefix(Int.random(in: 0...40, using: &random)))
      let sectioning =
        [SectionedTable.Sectioning.none, .attribute("kind"), .firstLetter(field: "name")]
        .randomElement(using: &random) ?? .none
      let order = Bool.random(using: &random) ? SectionedTable.RowOrder.given : .collation
      let collation = collations.randomElement(using: &random) ?? collations[0]
      let table = try SectionedTable(
        items: items, model: model, sectioning: sectioning, rowOrder: order, collation: collation)
      let label = "seed \(seed) \(sectioning) \(order) \"\(collation.locale)\""

      #expect(table.numberOfSections >= 1, "\(label)")
      #expect(table.numberOfRows == items.count, "\(label)")
      #expect(Set(table.sections.flatMap(\.items)) == Set(items), "\(label)")
      let position = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1, $0) })
      for section in 0..<table.numberOfSections {
        #expect(table.numberOfRows(inSection: section) == table.sections[section].items.count)
        for row in 0..<table.numberOfRows(inSection: section) {
          let path = TableIndexPath(section: section, row: row)
          let item = try #require(table.item(at: path))
          #expect(table.indexPath(of: item) == path, "\(label)")
        }
        let sectionItems = table.sections[section].items
        for (a, b) in zip(sectionItems, sectionItems.dropFirst()) {
          let (pa, pb) = (position[a] ?? 0, position[b] ?? 0)
          if order == .given {
            #expect(pa < pb, "\(label)")
          } else {
            let text: (ItemID) -> String = { id in
              if case .firstLetter = sectioning {
                return model.values(of: id, field: 0).first ?? ""
              }
              return model.display(id)
            }
            let ka = collation.sortKey(text(a))
            let kb = collation.sortKey(text(b))
            // Equal keys in the order of identities, whatever order the items were given in.
            #expect(ka.lexicographicallyPrecedes(kb) || (ka == kb && a < b), "\(label)")
          }
        }
      }
      for id in model.ids where position[id] == nil {
        #expect(table.indexPath(of: id) == nil, "\(label)")
      }
      switch sectioning {
      case .none:
        #expect(table.sectionIndexTitles == nil)
        #expect(table.sections.count == 1 && table.sections[0].title == nil)
      case .firstLetter:
        for section in table.sections {
          for id in section.items {
            let text = model.values(of: id, field: 0).first ?? ""
            #expect(section.title == collation.sectionTitle(for: text), "\(label)")
          }
        }
        let titles = table.sections.compactMap(\.title)
        #expect(collation.orderedSectionTitles(titles) == titles, "\(label)")
        #expect(table.sectionIndexTitles == collation.indexTitles, "\(label)")
        // Every index title jumps to its section, or to the first section after it.
        let index = collation.indexTitles
        for (position, title) in index.enumerated() {
          let section = table.section(forSectionIndexTitle: title, at: position)
          let expected =
            titles.firstIndex { (index.firstIndex(of: $0) ?? 0) >= position }
            ?? table.sections.count - 1
          #expect(section == expected, "\(label) \(title)")
        }
      case .attribute:
        for section in table.sections {
          #expect(section.items.allSatisfy { model.attribute(0, of: $0) == section.title })
        }
        let keys = (table.sectionIndexTitles ?? []).map(collation.sortKey)
        for (a, b) in zip(keys, keys.dropFirst()) { #expect(!b.lexicographicallyPrecedes(a)) }
      }
      if case .attribute = sectioning {
        for (index, title) in (table.sectionIndexTitles ?? []).enumerated() {
          #expect(table.section(forSectionIndexTitle: title, at: index) == index)
        }
      }
    }
  }

  @Test func largeSwedishTable() throws {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: ["kind"]))
    var random = SplitMix64(seed: 42)
    let letters = Array("abcdefghijklmnopqrstuvwxyzñåäöé")
    for _ in 0..<60_000 {
      let name = String((0..<8).map { _ in letters.randomElement(using: &random) ?? "a" })
      try model.append(SearchModel.Record(fields: [[name]], attributes: [String(name.prefix(1))]))
    }
    let built = try SectionedTable(
      items: model.ids, model: model, sectioning: .firstLetter(field: "name"),
      rowOrder: .collation, collation: try SectionedTable.Collation(locale: "sv"))
    #expect(built.numberOfRows == 60_000)
    #expect(built.sections.map(\.title).suffix(3) == ["Å", "Ä", "Ö"])
    #expect(built.sections.count == 29)  // A to Z (é under E, ñ under N), Å, Ä, Ö
  }
}
