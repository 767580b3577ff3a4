// Transliteration with context, under `Folding.latin`: a run of one script's characters is
// transliterated as a whole, so that "ευ" is "eu", "コー" is "ko" and 你好 is "nihao", and its
// map back to the run's characters is found by transliterating the run's prefixes.

extension Folder {
  /// The folded form of a run of one script's characters, with its map back to them.
  struct RunEntry {
    /// The folded run.
    var bytes: [UInt8]
    /// Scalar boundaries inside folded characters, as offsets of `bytes`.
    var interior: [Int]
    /// Where each segment of `bytes` starts and where the original characters it comes from
    /// start (UTF-8 offsets in the run), ascending in both; empty when the run folds to
    /// nothing.
    ///
    /// A segment maps to the characters up to the next segment's (or the run's end).
    var segments: [(folded: Int, original: Int)]
    /// Offset of the last folded character, for the join test.
    var lastCharacterStart: Int
    var mayJoinPrevious: Bool
    var mayJoinNext: Bool
  }

  /// The most characters one run holds: the prefixes make a run's first folding quadratic in
  /// its length, and a text without spaces (Chinese, Thai) is one run.
  ///
  /// A longer run is transliterated in pieces of this many characters.
  static let runLimit = 32
  /// The most runs a folder keeps folded (see ``runEntries``).
  static let runCacheLimit = 8192

  /// The end of the run that starts at `start`, with the offsets where its characters start
  /// (from the run's start) left in ``runCharacterStarts``; nil when the character at `start`
  /// starts no run of two characters or more.
  ///
  /// A run starts at a character whose first scalar is of a script other than Latin, Common
  /// and Inherited (and known to Unicode), and goes on over characters of the same script and
  /// over Common or Inherited letters and marks that the script uses (their
  /// Script_Extensions name it: the prolonged sound mark ー of Hiragana and Katakana). It
  /// stops at ASCII, white space, punctuation and other scripts.
  func runEnd(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> Int? {
    let first = Self.decode(base, at: start, count: n).value
    guard first >= 0x370 else { return nil }  // Latin, IPA, spacing modifiers and marks
    let script = ICU.script(of: first)
    guard
      script > ICU.Script.inherited && script != ICU.Script.latin
        && script != ICU.Script.unknown
    else { return nil }
    // Into a buffer the folder keeps: a run's offsets cost no allocation.
    runCharacterStarts.removeAll(keepingCapacity: true)
    runCharacterStarts.append(0)
    var end = clusterEnd(base, from: start, count: n)
    while end < n && runCharacterStarts.count < Self.runLimit {
      let value = Self.decode(base, at: end, count: n).value
      guard Self.belongs(value, to: script) else { break }
      runCharacterStarts.append(end - start)
      end = clusterEnd(base, from: end, count: n)
    }
    return runCharacterStarts.count >= 2 ? end : nil
  }

  private static func belongs(_ value: UInt32, to script: Int32) -> Bool {
    guard value >= 0x80, let scalar = Unicode.Scalar(value) else { return false }
    let own = ICU.script(of: value)
    if own == script { return true }
    guard own == ICU.Script.common || own == ICU.Script.inherited,
      ICU.hasScript(value, script)
    else { return false }
    switch scalar.properties.generalCategory {
    case .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark, .enclosingMark:
      return true
    default:
      return false
    }
  }

  /// Folds a run: its transliteration as a whole, without the spaces the transliteration puts
  /// between syllables (Han: "ni hao") and without prolonged sound marks, then each
  /// character of that folded alone.
  ///
  /// The map: the first k characters of the run determine as many bytes of the folded run as
  /// their own folded form has in common with it (cut at a character boundary, and never more
  /// than the first k + 1 characters determine). Each stretch of bytes between two such cuts
  /// comes from the characters between them. A character that moves no cut forward is
  /// grouped with the characters after it (its letter depends on them: Greek "γ" before "κ"
  /// is "n"), or, when it is a Common or Inherited character, with those before it (ー
  /// lengthens the vowel before it, which Latin-ASCII then drops).
  ///
  /// When the characters folded alone, end to end, are already the folded run (no letter
  /// needed its context), each character maps to its own folded form, and no prefix is
  /// transliterated.
  func makeRunEntry(_ run: [UInt8], characterStarts: [Int]) throws(ICUError) -> RunEntry {
    let whole = try foldRunText(run[...])
    let count = characterStarts.count
    var cuts = [Int](repeating: 0, count: count + 1)
    cuts[count] = whole.bytes.count
    // Most runs need no context (Cyrillic, Arabic, Han syllables): their characters folded
    // alone, end to end, are the folded run, and each maps to its own piece.
    let alone = try foldedCharacters(run, characterStarts: characterStarts)
    var separable = alone.joined().elementsEqual(whole.bytes)
    if separable {
      for k in 1..<count {
        cuts[k] = cuts[k - 1] + alone[k - 1].count
        let cut = cuts[k]
        if cut < whole.bytes.count
          && (whole.bytes[cut] & 0xC0 == 0x80 || whole.interior.containsSorted(cut))
        {
          separable = false  // characters that join once side by side
        }
      }
    }
    for k in 1..<count where !separable {
      let prefix = try foldRunText(run[..<characterStarts[k]])
      var common = 0
      let limit = min(prefix.bytes.count, whole.bytes.count)
      while common < limit && prefix.bytes[common] == whole.bytes[common] { common += 1 }
      // Back to a character boundary of the whole.
      while common > 0 && common < whole.bytes.count
        && (whole.bytes[common] & 0xC0 == 0x80 || whole.interior.containsSorted(common))
      {
        common -= 1
      }
      cuts[k] = common
    }
    for k in stride(from: count - 1, through: 1, by: -1) { cuts[k] = min(cuts[k], cuts[k + 1]) }

    var segments: [(folded: Int, original: Int)] = []
    var groupStart = 0
    for k in 1...count {
      if cuts[k] > cuts[k - 1] {
        segments.append((cuts[k - 1], characterStarts[groupStart]))
        groupStart = k
      } else if groupStart == k - 1 && !segments.isEmpty
        && Self.isCommonOrInherited(run, at: characterStarts[k - 1])
      {
        groupStart = k  // joins the segment before it
      }
    }

    let folded = String(decoding: whole.bytes, as: UTF8.self)
    var lastCharacterStart = 0
    var offset = 0
    for character in folded {
      lastCharacterStart = offset
      offset += character.utf8.count
    }
    let scalars = folded.unicodeScalars
    return RunEntry(
      bytes: whole.bytes, interior: whole.interior, segments: segments,
      lastCharacterStart: lastCharacterStart,
      mayJoinPrevious: scalars.first.map(ScalarClasses.mayJoinPrevious) ?? false,
      mayJoinNext: scalars.last.map(ScalarClasses.mayJoinNext) ?? false)
  }

  private static func isCommonOrInherited(_ run: [UInt8], at offset: Int) -> Bool {
    let script = run.withUnsafeBufferPointer { bytes in
      bytes.baseAddress.map { ICU.script(of: decode($0, at: offset, count: bytes.count).value) }
    }
    return script == ICU.Script.common || script == ICU.Script.inherited
  }

  /// The folded form of run text: NFC, transliterated whole, spaces taken out, then each
  /// character folded alone.
  private func foldRunText(_ text: ArraySlice<UInt8>) throws(ICUError) -> (
    bytes: [UInt8], interior: [Int]
  ) {
    guard let transliterator else { return ([], []) }
    let units = Array(String(decoding: text, as: UTF8.self).utf16)
    var latin = try transliterator.transliterate(try ICU.Normalizer.nfc.get().normalize(units))
    // Spaces between syllables go, and so does a prolonged sound mark ー (or half-width ｰ)
    // that ICU left: it lengthens the vowel before it, which Latin-ASCII writes short anyway
    // ("kōhī" is "kohi"), but ICU's Any-Latin reads it after some vowels only (ラーメン
    // "raーmen", コーヒー "kohi").
    latin.removeAll { $0 == 0x20 || $0 == 0x30FC || $0 == 0xFF70 }
    var transliterated = String(decoding: latin, as: UTF16.self)
    var failure: ICUError?
    transliterated.withUTF8 { bytes in
      do throws(ICUError) {
        try fold(bytes, into: &runScratch, recordsMap: false, allowsRuns: false)
      } catch { failure = error }
    }
    if let failure { throw failure }
    return (runScratch.bytes, runScratch.interior)
  }
}
