import Testing

@testable import SearchEngine

@Suite struct ICUTests {
  @Test func versionIsReported() {
    let parts = ICU.version.split(separator: ".")
    #expect(parts.count >= 2)
    #expect(Int(parts[0]).map { $0 >= 60 } == true)
  }

  @Test func normalizerForms() throws {
    let text = Array("é".utf16)
    #expect(try ICU.Normalizer.nfd.get().normalize(text) == [0x65, 0x301])
    #expect(try ICU.Normalizer.nfc.get().normalize([0x65, 0x301]) == [0xE9])
    #expect(try ICU.Normalizer.nfkc.get().normalize(Array("ﬁ".utf16)) == Array("fi".utf16))
    #expect(try ICU.Normalizer.nfkd.get().normalize(Array("①".utf16)) == Array("1".utf16))
    let casefolded = try ICU.Normalizer.nfkcCasefold.get().normalize(Array("ＡＢ\u{AD}".utf16))
    #expect(casefolded == Array("ab".utf16))
  }

  @Test func caseFoldingWithAndWithoutTurkicRules() throws {
    #expect(try ICU.foldCase(Array("İI".utf16), turkic: true) == Array("iı".utf16))
    #expect(try ICU.foldCase(Array("İI".utf16), turkic: false) == Array("i\u{307}i".utf16))
    #expect(try ICU.foldCase(Array("ß".utf16), turkic: false) == Array("ss".utf16))
  }

  @Test func transliteratorsOpenByIDAndCopy() throws {
    let transliterator = try ICU.Transliterator(id: "Any-Latin; Latin-ASCII")
    let copy = try transliterator.copy()
    #expect(try copy.transliterate(Array("Москва".utf16)) == Array("Moskva".utf16))
    #expect(try transliterator.transliterate(Array("Ærø".utf16)) == Array("AEro".utf16))
  }

  @Test func badTransliteratorIDIsATypedError() {
    #expect {
      _ = try ICU.Transliterator(id: "No-Such-Transform")
    } throws: { error in
      guard let error = error as? ICUError else { return false }
      return error.name.hasPrefix("U_") && error.code > 0
        && error.description.contains("No-Such-Transform")
    }
  }

  @Test func graphemeBoundaries() throws {
    let text = Array("e\u{301}👍🏽🇫🇷".utf16)
    let (offsets, _) = try ICU.boundaries(.init(0), in: text, locale: "")
    // é (2 units), 👍🏽 (4 units), 🇫🇷 (4 units).
    #expect(offsets == [0, 2, 6, 10])
  }

  @Test func wordBoundariesFlagWords() throws {
    let text = Array("New York, 2024".utf16)
    let (offsets, isWord) = try ICU.boundaries(.init(1), in: text, locale: "en")
    #expect(offsets == [0, 3, 4, 8, 9, 10, 14])
    #expect(isWord == [true, false, true, false, false, true, false])
  }

  @Test func alphabeticIndexBucketsAndLookups() throws {
    let spanish = try ICU.AlphabeticIndex(locale: "es")
    // CLDR's Spanish index is A to Z with Ñ after N; ICU adds a bucket before and after.
    let letters = "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ".map(String.init)
    #expect(spanish.buckets.first?.kind == .underflow)
    #expect(spanish.buckets.last?.kind == .overflow)
    #expect(spanish.buckets.dropFirst().dropLast().map(\.label) == letters)
    #expect(spanish.buckets.dropFirst().dropLast().allSatisfy { $0.kind == .letter })
    #expect(spanish.buckets[try spanish.bucketIndex(of: "ñandú")].label == "Ñ")
    #expect(spanish.buckets[try spanish.bucketIndex(of: "nube")].label == "N")
    #expect(try spanish.bucketIndex(of: "42") == 0)
    #expect(try spanish.bucketIndex(of: "") == 0)
    #expect(try spanish.bucketIndex(of: "Москва") == spanish.buckets.count - 1)
    // Japanese files Latin before kana; with English's letters added, an inflow bucket
    // separates Z from あ.
    let japanese = try ICU.AlphabeticIndex(locale: "ja", extraLabelsLocale: "en")
    let kinds = japanese.buckets.map(\.kind)
    let z = try #require(japanese.buckets.firstIndex { $0.label == "Z" })
    #expect(kinds[z + 1] == .inflow && japanese.buckets[z + 2].label == "あ")
    #expect(japanese.buckets[try japanese.bucketIndex(of: "カタカナ")].label == "か")
  }

  @Test func collatorOrdersByLocale() throws {
    let spanish = try ICU.Collator(locale: "es")
    // Spanish sorts ñ as its own letter after n.
    #expect(spanish.compare("ñandú", "nube") == 1)
    #expect(spanish.sortKey("ñandú").lexicographicallyPrecedes(spanish.sortKey("nube")) == false)
    let swedish = try ICU.Collator(locale: "sv")
    #expect(swedish.compare("zebra", "åsna") == -1)
    let german = try ICU.Collator(locale: "de")
    #expect(german.compare("Äpfel", "Birne") == -1)
    let copy = try german.copy()
    copy.setStrength(0)
    #expect(copy.compare("Äpfel", "apfel") == 0)
    #expect(german.compare("Äpfel", "apfel") != 0)
  }
}
