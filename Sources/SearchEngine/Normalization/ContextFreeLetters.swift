// The letters whose transliteration to Latin does not depend on their neighbours, so that a
// run of them folds, under `Folding.latin`, to its letters folded alone, end to end.

/// Letters of the scripts whose ICU rules to Latin read each letter alone: a run made only of
/// them folds to the folded forms of its letters, end to end, each mapped to its letter: what
/// transliterating the run as a whole gives (`Folder.makeRunEntry`), without asking ICU.
///
/// From the rules of ICU 72 (`utrans_toRules`): Cyrillic-Latin maps each letter by itself (its
/// one key of two scalars, и with a breve, is one character); Arabic-Latin reads context only
/// in a vowel sign before a long vowel (fatha before alef, damma before waw, kasra before yeh)
/// and in a separator between digits, none of them listed here; Armenian-Latin reads ու, ՈՒ
/// and ԵՒ as one letter, so ւ and Ւ are left out; Hebrew-Latin and Georgian-Latin map each
/// letter by itself; Katakana-Latin reads a letter before a small one (キャ is "kya"), ッ and
/// ン before the next letter and the iteration marks after the letter before, so those are
/// left out (with ー, which a whole run drops); Han-Latin maps each ideograph by itself except
/// 藏, 重, 沈 and 秘 before 文, 庆, 阳 and 鲁, which are left out (with the compatibility
/// ideographs, one of which becomes 沈). Only letters are listed: no marks, digits, tatweel
/// or presentation forms. A letter whose folded form is not printable ASCII (one the rules
/// leave as it is) goes the whole run's way too (see `Folder.Entry.foldsAloneInRuns`).
///
/// Another ICU's rules may read more context: the list applies only under the ICU it was read
/// from (``appliesToRunningICU``), and a test folds pairs of the letters and the cities
/// sample both ways.
enum ContextFreeLetters {
  /// Ascending, disjoint ranges of the letters.
  static let ranges: [ClosedRange<UInt32>] = [
    0x0400...0x0481,  // Cyrillic letters (not ҂, U+0482, nor the combining marks after it)
    0x048A...0x052F,  // Cyrillic letters, Cyrillic Supplement
    0x0531...0x0551,  // Armenian capital letters, but Ւ (U+0552)
    0x0553...0x0556,
    0x0560...0x0581,  // Armenian small letters, but ւ (U+0582)
    0x0583...0x0588,
    0x05D0...0x05EA,  // Hebrew letters
    0x05EF...0x05F2,  // Hebrew yod triangle and Yiddish ligatures
    0x0620...0x063F,  // Arabic letters before the tatweel
    0x0641...0x064A,  // Arabic letters after it (the vowel signs follow)
    0x066E...0x066F,  // Arabic dotless beh and qaf
    0x0671...0x06D3,  // Arabic letters for other languages (Persian, Urdu, ...)
    0x06D5...0x06D5,  // Arabic ae
    0x06EE...0x06EF,  // Arabic dal and reh with inverted v
    0x06FA...0x06FC,  // Arabic sheen, dad and ghain with dot below
    0x06FF...0x06FF,  // Arabic heh with inverted v
    0x10A0...0x10C5,  // Georgian capital letters (Asomtavruli)
    0x10D0...0x10FA,  // Georgian letters (Mkhedruli)
    0x10FD...0x10FF,  // Georgian letters (Mkhedruli)
    0x1C90...0x1CBA,  // Georgian capital letters (Mtavruli)
    0x1CBD...0x1CBF,  // Georgian capital letters (Mtavruli)
    0x2D00...0x2D25,  // Georgian small letters (Nuskhuri)
    0x30A2...0x30A2,  // Katakana ア: the small letters (ァ, ャ, ッ ...), ン, ー and the
    0x30A4...0x30A4,  // iteration marks are left out
    0x30A6...0x30A6,
    0x30A8...0x30A8,
    0x30AA...0x30C2,
    0x30C4...0x30E2,
    0x30E4...0x30E4,
    0x30E6...0x30E6,
    0x30E8...0x30ED,
    0x30EF...0x30F2,
    0x30F4...0x30F4,
    0x30F7...0x30FA,
    0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
    0x4E00...0x6C87,  // CJK Unified Ideographs, up to 沈 (U+6C88)
    0x6C89...0x79D7,  // up to 秘 (U+79D8)
    0x79D9...0x85CE,  // up to 藏 (U+85CF)
    0x85D0...0x91CC,  // up to 重 (U+91CD)
    0x91CE...0x9FFF,
    0x20000...0x2A6DF,  // CJK Unified Ideographs Extension B
    0x2A700...0x2EBEF,  // Extensions C to F
    0x30000...0x323AF,  // Extensions G and H
  ]

  /// The ICU version whose rules the list was read from.
  static let icuMajorVersion = "72"

  /// Whether the list applies to the ICU the package runs against.
  static let appliesToRunningICU =
    ICU.version.split(separator: ".").first.map(String.init)
    == icuMajorVersion

  /// Whether `value` is one of the letters.
  static func contains(_ value: UInt32) -> Bool {
    value >= 0x0400 && ScalarClasses.contains(value, in: ranges)
  }
}
