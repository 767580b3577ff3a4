import Testing

@testable import SearchEngine

/// The scalars whose folded form the folder takes without ICU (``ScalarClasses/foldsToItself(_:)``)
/// are those the pipeline leaves alone, every one, under every folding but latin and in the
/// Turkish locale too.
struct FoldsToItselfTests {
  @Test(
    arguments: [Folding.default, [.case, .dotlessI], [.diacritics, .compatibility], .none]
      as [Folding])
  func thePipelineLeavesThemAlone(folding: Folding) throws {
    for locale in [nil, "tr"] as [String?] {
      let folder = try Normalizer(folding: folding, locale: locale).makeFolder()
      var checked = 0
      for value in UInt32(0x3400)...0xD7A3 where ScalarClasses.foldsToItself(value) {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let text = String(Character(scalar))
        let folded = try folder.foldCharacter(text)
        if Array(folded.utf8) != Array(text.utf8) {
          Issue.record("U+\(String(value, radix: 16, uppercase: true)) folds to \(folded)")
          return
        }
        checked += 1
      }
      #expect(checked == 6592 + 20992 + 11172)
    }
  }

  /// Scalars just outside the ranges (a CJK compatibility ideograph, a Hangul jamo) are not
  /// among them, and latin folding asks ICU for all of them.
  @Test func theirNeighboursAndLatinGoToICU() throws {
    #expect(!ScalarClasses.foldsToItself(0xF900))
    #expect(!ScalarClasses.foldsToItself(0x1100))
    #expect(!ScalarClasses.foldsToItself(0x4DC0))
    let latin = try Normalizer(folding: [.case, .latin])
    #expect(try latin.fold("東京") != "東京")
    #expect(try latin.fold("서울") != "서울")
    #expect(try Normalizer().fold("東京서울") == "東京서울")
  }
}

/// Under the default folding, every scalar of the Basic Multilingual Plane (but the
/// surrogates) folds alone as the pipeline folds it, those the folder takes without the
/// pipeline included.
struct DefaultFoldingShortcutTests {
  @Test func everyScalarFoldsAsThePipelineFoldsIt() throws {
    let folder = try Normalizer().makeFolder()
    let pipeline = try Normalizer().makeFolder()
    var checked = 0
    for value in UInt32(0x80)...0xFFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = String(Character(scalar))
      let expected = try pipeline.foldCharacter(text)
      let folded = try folder.fold(text)
      if Array(folded.utf8) != Array(expected.utf8) {
        Issue.record(
          "U+\(String(value, radix: 16, uppercase: true)) folds to \(folded), not \(expected)")
        return
      }
      checked += 1
    }
    #expect(checked == 0x10000 - 0x80 - 0x800)
  }
}
