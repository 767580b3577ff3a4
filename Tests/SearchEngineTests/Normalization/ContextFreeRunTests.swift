import Foundation
import TestSupport
import Testing

@testable import SearchEngine

/// Under ``Folding/latin``, a run of ``ContextFreeLetters`` folds letter by letter, without
/// ICU's transliteration of the run as a whole: the folded bytes, the scalar boundaries inside
/// folded characters and the map back to the original must be exactly those of the whole
/// run's way.
@Suite struct ContextFreeRunTests {
  static let foldings: [Folding] = [[.case, .diacritics, .compatibility, .latin], [.latin]]

  /// Every ordered pair of the letters below the ideographs (Cyrillic, Armenian, Hebrew, Arabic,
  /// Georgian, Katakana), within each block of 256, and each letter between its two neighbours (for the
  /// ideographs, those of the main block), folds alike both ways.
  @Test(arguments: foldings)
  func lettersFoldAsInWholeRuns(_ folding: Folding) throws {
    try #require(ContextFreeLetters.appliesToRunningICU)
    let normalizer = try Normalizer(folding: folding)
    let letters = ContextFreeLetters.ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init)
    let alphabets = letters.filter { $0.value < 0x3400 }
    var texts: [String] = []
    for block in Dictionary(grouping: alphabets, by: { $0.value >> 8 }).values {
      for a in block {
        for b in block { texts.append(String(a) + String(b)) }
      }
    }
    let triples = alphabets + letters.filter { (0x4E00...0x9FFF).contains($0.value) }
    for k in triples.indices.dropFirst().dropLast() {
      texts.append(String(triples[k - 1]) + String(triples[k]) + String(triples[k + 1]))
    }
    let mismatches = try Self.mismatches(texts, normalizer)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  }

  /// The ideographs that Han-Latin reads before another are not in the list: 重 is "zhong"
  /// alone and "chong" before 庆.
  @Test func ideographsWithContextAreLeftOut() throws {
    let folder = try Normalizer(folding: [.case, .diacritics, .latin]).makeFolder()
    #expect(try folder.fold("重") == "zhong")
    #expect(try folder.fold("重庆") == "chongqing")
    #expect(try folder.fold("沈阳") == "shenyang")
    #expect(try folder.fold("北京") == "beijing")
    #expect(try folder.fold("Երևան Ուրարտու տուն") == "erevan owrartu tun")
  }

  /// The committed cities sample (alternate names in many scripts, mixed with Latin,
  /// punctuation and spaces) folds alike both ways, and the letter-by-letter way is used.
  @Test(arguments: foldings)
  func citiesFoldAsWithWholeRuns(_ folding: Folding) throws {
    let path = Fixtures.root + "/Corpus/cities/cities.tsv"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n").map { String($0) }
    let normalizer = try Normalizer(folding: folding)
    let mismatches = try Self.mismatches(lines, normalizer)
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
  }

  /// Runs of the listed letters fold without a cached whole-run entry; a run with a letter
  /// outside the list (Greek) still goes through ICU whole.
  @Test func contextFreeRunsSkipTheRunCache() throws {
    try #require(ContextFreeLetters.appliesToRunningICU)
    let folder = try Normalizer(folding: [.case, .diacritics, .latin]).makeFolder()
    #expect(try folder.fold("Москва Ереван") == "moskva erevan")
    #expect(try folder.fold("Тбилиси თბილისი القاهرة") == "tbilisi tbilisi alqahrt")
    #expect(try folder.fold("北京 上海 カナダ") == "beijing shanghai kanada")
    #expect(folder.runEntries.isEmpty)
    #expect(try folder.fold("Αθήνα") == "athena")
    #expect(folder.runEntries.count == 1)
  }

  /// The texts whose folded bytes, interior boundaries or map differ between the two ways,
  /// each with both results.
  private static func mismatches(_ texts: [String], _ normalizer: Normalizer) throws -> [String] {
    let fast = try normalizer.makeFolder()
    let whole = try normalizer.makeFolder()
    whole.foldsContextFreeRunsAlone = false
    var mismatches: [String] = []
    var a = FoldBuffer()
    var b = FoldBuffer()
    for text in texts {
      let bytes = Array(text.utf8)
      try bytes.withUnsafeBufferPointer { bytes in
        try fast.fold(bytes, into: &a, recordsMap: true)
        try whole.fold(bytes, into: &b, recordsMap: true)
      }
      if a.bytes != b.bytes || a.interior != b.interior || a.anchors != b.anchors {
        mismatches.append(
          "\(text): \(String(decoding: a.bytes, as: UTF8.self)) \(a.anchors) vs "
            + "\(String(decoding: b.bytes, as: UTF8.self)) \(b.anchors)")
      }
    }
    return mismatches
  }
}
