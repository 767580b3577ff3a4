import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Index titles and section titles, with expectations from CLDR's index characters and
/// collation tailorings (which ICU's alphabetic index follows).
@Suite(.tags(.concurrent)) struct TableCollationTests {
  static let latin = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)

  @Test func englishAndRootIndexIsAToZThenOther() throws {
    for locale in ["", "root", "en"] {
      #expect(
        try SectionedTable.Collation(locale: locale).indexTitles == Self.latin + ["#"], "\(locale)")
    }
  }

  @Test func spanishIndexHasEnyeAfterN() throws {
    let titles = try SectionedTable.Collation(locale: "es").indexTitles
    #expect(titles == Array(Self.latin[...13]) + ["Ñ"] + Array(Self.latin[14...]) + ["#"])
  }

  @Test func swedishIndexEndsWithRingAndUmlauts() throws {
    let titles = try SectionedTable.Collation(locale: "sv").indexTitles
    #expect(titles == Self.latin + ["Å", "Ä", "Ö", "#"])
  }

  /// German sorts "Ä" as "A" with a secondary difference: it is no letter of the index.
  @Test func germanIndexHasNoUmlauts() throws {
    let titles = try SectionedTable.Collation(locale: "de").indexTitles
    #expect(titles == Self.latin + ["#"])
  }

  @Test func czechIndexHasCHAfterH() throws {
    let titles = try SectionedTable.Collation(locale: "cs").indexTitles
    let expected = "A B C Č D E F G H CH I J K L M N O P Q R Ř S Š T U V W X Y Z Ž #"
    #expect(titles == expected.split(separator: " ").map(String.init))
  }

  /// CLDR's Japanese index is the ten kana rows; Latin, which Japanese sorts before kana,
  /// gets A to Z added so that Latin names do not all land in "#".
  @Test func japaneseIndexHasKanaRowsAndLatin() throws {
    let titles = try SectionedTable.Collation(locale: "ja").indexTitles
    let rows = ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"]
    #expect(titles == Self.latin + rows + ["#"])
  }

  /// Chinese collation sorts Han characters by pinyin, and its index is A to Z.
  @Test func chineseIndexIsPinyinLetters() throws {
    #expect(try SectionedTable.Collation(locale: "zh").indexTitles == Self.latin + ["#"])
  }

  /// Russian sorts Cyrillic first; its index is А to Я (without Ё, Ъ, Ь, which are not
  /// index letters), then A to Z added for Latin names.
  @Test func russianIndexIsCyrillicThenLatin() throws {
    let titles = try SectionedTable.Collation(locale: "ru").indexTitles
    #expect(titles.first == "А" && titles.dropLast().suffix(26) == Self.latin[...])
    #expect(titles.contains("Я") && !titles.contains("Ъ") && titles.last == "#")
  }

  @Test func titlesOfTheReportedTexts() throws {
    let english = try SectionedTable.Collation(locale: "en")
    // Full-width letters differ from ASCII ones only at the tertiary level.
    #expect(english.sectionTitle(for: "Ｋｅｎｊｉ") == "K")
    #expect(english.sectionTitle(for: "Kenji") == "K")
    #expect(english.sectionTitle(for: "42") == "#")
    // Scripts that the English index has no letters for.
    #expect(english.sectionTitle(for: "東京") == "#")
    #expect(english.sectionTitle(for: "Москва") == "#")
    #expect(english.sectionTitle(for: "한국") == "#")
    // CLDR's Swedish tailors ü as a variant of y.
    let swedish = try SectionedTable.Collation(locale: "sv")
    #expect(swedish.sectionTitle(for: "über") == "Y")
    #expect(swedish.sectionTitle(for: "Über") == "Y")
    #expect(try SectionedTable.Collation(locale: "de").sectionTitle(for: "Ärger") == "A")
    #expect(try SectionedTable.Collation(locale: "es").sectionTitle(for: "Ñandú") == "Ñ")
    // 北 is běi, 東 dōng, 上 shàng.
    let chinese = try SectionedTable.Collation(locale: "zh")
    #expect(chinese.sectionTitle(for: "北京") == "B")
    #expect(chinese.sectionTitle(for: "東京") == "D")
    #expect(chinese.sectionTitle(for: "上海") == "S")
    // Voiced kana and katakana sort with their plain hiragana at primary strength.
    let japanese = try SectionedTable.Collation(locale: "ja")
    #expect(japanese.sectionTitle(for: "さくら") == "さ")
    #expect(japanese.sectionTitle(for: "ざくろ") == "さ")
    #expect(japanese.sectionTitle(for: "カタカナ") == "か")
    #expect(japanese.sectionTitle(for: "Ｋｅｎｊｉ") == "K")
    let russian = try SectionedTable.Collation(locale: "ru")
    #expect(russian.sectionTitle(for: "Москва") == "М")
    #expect(russian.sectionTitle(for: "Kenji") == "K")
  }

  /// A title can be two characters, and two texts with the same first character can have
  /// different titles: nothing may be remembered per first character.
  @Test func czechCHIsTitledByMoreThanItsFirstLetter() throws {
    let czech = try SectionedTable.Collation(locale: "cs")
    #expect(czech.sectionTitle(for: "chata") == "CH")
    #expect(czech.sectionTitle(for: "cesta") == "C")
    #expect(czech.sectionTitle(for: "Chrudim") == "CH")
    #expect(czech.sectionTitle(for: "c") == "C")
    #expect(czech.sectionTitle(for: "Čech") == "Č")
    #expect(czech.sectionTitle(for: "hrad") == "H")
  }

  @Test func sectionTitlesAreIndexTitles() throws {
    for locale in TableFixtures.locales + ["cs", "ja", "zh", "ru"] {
      let collation = try SectionedTable.Collation(locale: locale)
      let titles = Set(collation.indexTitles)
      #expect(titles.count == collation.indexTitles.count, "\(locale): distinct")
      #expect(collation.indexTitles.last == SectionedTable.Collation.otherTitle, "\(locale)")
      #expect(collation.orderedSectionTitles(collation.indexTitles) == collation.indexTitles)
      for word in TableFixtures.words + ["Ｋｅｎｊｉ", "東京", "chata", "さくら"] {
        #expect(titles.contains(collation.sectionTitle(for: word)), "\(locale) \(word)")
      }
    }
  }

  @Test func orderedTitlesFollowTheIndex() throws {
    let english = try SectionedTable.Collation(locale: "en")
    #expect(english.orderedSectionTitles(["#", "B", "A", "B"]) == ["A", "B", "#"])
    // "CH" is one letter, after "H", though its first character is a "C".
    let czech = try SectionedTable.Collation(locale: "cs")
    #expect(
      czech.orderedSectionTitles(["CH", "I", "#", "H", "Č", "C"])
        == ["C", "Č", "H", "CH", "I", "#"])
    // Japanese: Latin, then kana, then "#".
    let japanese = try SectionedTable.Collation(locale: "ja")
    #expect(japanese.orderedSectionTitles(["#", "か", "K", "あ"]) == ["K", "あ", "か", "#"])
    // A title that is no index title goes just after the one it is filed under, and before
    // "#" when that is where it is filed.
    let german = try SectionedTable.Collation(locale: "de")
    #expect(
      german.orderedSectionTitles(["B", "#", "Äpfel", "42", "A"])
        == ["A", "Äpfel", "B", "42", "#"])
  }

  /// The index is shared between copies of a collation and used without a lock.
  @Test func titlesFromManyThreadsAgree() async throws {
    let collation = try SectionedTable.Collation(locale: "cs")
    let words = TableFixtures.words + ["chata", "cesta", "Čech", "hrad"]
    let expected = words.map(collation.sectionTitle(for:))
    let results = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<4 {
        group.addTask { words.map(collation.sectionTitle(for:)) }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 4 && results.allSatisfy { $0 == expected })
  }
}
