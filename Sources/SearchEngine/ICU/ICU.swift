// The one Swift file that imports CICU. Everything ICU-shaped stops here: callers see Swift
// strings, UTF-16 arrays and `ICUError`.
import CICU

/// A failure reported by ICU, with ICU's own error name.
public struct ICUError: Error, Hashable, Sendable, CustomStringConvertible {
  /// ICU's status code (a `UErrorCode` value greater than zero).
  public var code: Int32
  /// ICU's name for the code, such as `U_ILLEGAL_ARGUMENT_ERROR`.
  public var name: String
  /// What the engine was doing, such as `opening transliterator "Any-Latin"`.
  public var operation: String

  init(code: Int32, operation: String) {
    self.code = code
    self.name = String(cString: cicu_error_name(code))
    self.operation = operation
  }

  /// The error as one line of text.
  public var description: String { "ICU error \(name) while \(operation)" }
}

/// Thin, typed access to the ICU services behind CICU.
package enum ICU {
  /// The version of the ICU library the package runs against, such as "72.1".
  package static var version: String {
    var buffer = [CChar](repeating: 0, count: 32)
    let count = buffer.count
    buffer.withUnsafeMutableBufferPointer { cicu_version($0.baseAddress, count) }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Throws when `status` reports a failure (warnings, below zero, are not failures).
  package static func check(_ status: Int32, _ operation: @autoclosure () -> String)
    throws(ICUError)
  {
    if status > 0 { throw ICUError(code: status, operation: operation()) }
  }

  /// Runs a C function that writes into a buffer and reports the length it needs, growing the
  /// buffer once when the first guess was too small.
  package static func withGrowingBuffer<Element: BinaryInteger>(
    of _: Element.Type, guess: Int, _ operation: @autoclosure () -> String,
    _ body: (UnsafeMutablePointer<Element>, Int32, inout Int32) -> Int32
  ) throws(ICUError) -> [Element] {
    var capacity = max(guess, 8)
    for _ in 0..<2 {
      var status: Int32 = 0
      var length: Int32 = 0
      let buffer = [Element](unsafeUninitializedCapacity: capacity) { storage, count in
        guard let base = storage.baseAddress else { return }
        length = body(base, Int32(capacity), &status)
        count = status == CICU_BUFFER_OVERFLOW_ERROR ? 0 : min(Int(max(length, 0)), capacity)
      }
      if status == CICU_BUFFER_OVERFLOW_ERROR {
        capacity = Int(length) + 1
        continue
      }
      try check(status, operation())
      return buffer
    }
    throw ICUError(code: CICU_BUFFER_OVERFLOW_ERROR, operation: operation())
  }

  /// One of ICU's shared Normalizer2 instances.
  package struct Normalizer: @unchecked Sendable {
    // ICU documents Normalizer2 instances as immutable and safe to share between threads.
    package let pointer: UnsafeRawPointer
    package let name: String

    package static let nfc = load(CICU_NFC, "NFC")
    package static let nfd = load(CICU_NFD, "NFD")
    package static let nfkc = load(CICU_NFKC, "NFKC")
    package static let nfkd = load(CICU_NFKD, "NFKD")
    package static let nfkcCasefold = load(CICU_NFKC_CASEFOLD, "NFKC_Casefold")

    private static func load(_ form: cicu_normalization_form, _ name: String) -> Result<
      Normalizer, ICUError
    > {
      var status: Int32 = 0
      let pointer = cicu_normalizer(form, &status)
      if status > 0 { return .failure(ICUError(code: status, operation: "loading \(name)")) }
      guard let pointer else {
        return .failure(ICUError(code: 1, operation: "loading \(name)"))
      }
      return .success(Normalizer(pointer: pointer, name: name))
    }

    /// The normalized form of `text`.
    package func normalize(_ text: [UInt16]) throws(ICUError) -> [UInt16] {
      try text.withUnsafeBufferPointer { source throws(ICUError) in
        try ICU.withGrowingBuffer(of: UInt16.self, guess: text.count + 8, "normalizing to \(name)")
        { dest, capacity, status in
          cicu_normalize(pointer, source.baseAddress, Int32(source.count), dest, capacity, &status)
        }
      }
    }
  }

  /// Script codes (UScriptCode) the folder tells apart.
  package enum Script {
    package static let common: Int32 = 0
    package static let inherited: Int32 = 1
    package static let latin: Int32 = 25
    package static let unknown: Int32 = 103
  }

  /// The Script property of a scalar as a UScriptCode (``Script``), -1 if ICU fails.
  package static func script(of value: UInt32) -> Int32 {
    cicu_script(Int32(bitPattern: value))
  }

  /// Whether `script` is among the Script_Extensions of a scalar.
  package static func hasScript(_ value: UInt32, _ script: Int32) -> Bool {
    cicu_has_script(Int32(bitPattern: value), script) != 0
  }

  /// Whether a scalar is Extended_Pictographic (the emoji of the grapheme-cluster rule GB11).
  static func isExtendedPictographic(_ value: UInt32) -> Bool {
    cicu_is_extended_pictographic(Int32(bitPattern: value)) != 0
  }

  /// The East_Asian_Width property of a scalar as a UEastAsianWidth (3: fullwidth, 5: wide).
  static func eastAsianWidth(of value: UInt32) -> Int32 {
    cicu_east_asian_width(Int32(bitPattern: value))
  }

  /// Whether ICU has data for the language of `locale`, which must hold no NUL.
  static func isAvailable(locale: String) -> Bool {
    cicu_locale_is_available(locale) != 0
  }

  /// Full case folding, with the Turkic mappings when `turkic` is set.
  package static func foldCase(_ text: [UInt16], turkic: Bool) throws(ICUError) -> [UInt16] {
    try text.withUnsafeBufferPointer { source throws(ICUError) in
      try withGrowingBuffer(of: UInt16.self, guess: text.count + 8, "folding case") {
        dest, capacity, status in
        cicu_fold_case(
          source.baseAddress, Int32(source.count), dest, capacity, turkic ? 1 : 0, &status)
      }
    }
  }

  /// Boundaries of grapheme clusters or words, as UTF-16 offsets including 0 and the end.
  package static func boundaries(
    _ kind: cicu_break_kind, in text: [UInt16], locale: String
  ) throws(ICUError) -> (offsets: [Int], isWord: [Bool]) {
    var capacity = text.count + 2
    for _ in 0..<2 {
      var offsets = [Int32](repeating: 0, count: capacity)
      var flags = [UInt8](repeating: 0, count: capacity)
      var status: Int32 = 0
      let count = text.withUnsafeBufferPointer { source in
        cicu_boundaries(
          kind, locale, source.baseAddress, Int32(source.count), &offsets, &flags,
          Int32(capacity), &status)
      }
      if status == CICU_BUFFER_OVERFLOW_ERROR {
        capacity = Int(count)
        continue
      }
      try check(status, "finding \(kind == CICU_BREAK_WORD ? "word" : "character") boundaries")
      let used = Int(count)
      return (offsets.prefix(used).map(Int.init), flags.prefix(used).map { $0 != 0 })
    }
    throw ICUError(code: CICU_BUFFER_OVERFLOW_ERROR, operation: "finding boundaries")
  }

  /// An ICU transliterator.
  ///
  /// Not safe to use from two threads at once: each folder owns its own copy while it lives, and
  /// gives it back to its normaliser when it goes (sendable so that it can move between them; it is
  /// never shared).
  package final class Transliterator: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    /// The ID it was opened with, such as "Any-Latin; Latin-ASCII".
    package let id: String

    package init(id: String) throws(ICUError) {
      let units = Array(id.utf16)
      var status: Int32 = 0
      let handle = units.withUnsafeBufferPointer {
        cicu_transliterator_open($0.baseAddress, Int32($0.count), &status)
      }
      try ICU.check(status, "opening transliterator \"\(id)\"")
      guard let handle else {
        throw ICUError(code: 1, operation: "opening transliterator \"\(id)\"")
      }
      self.handle = handle
      self.id = id
    }

    private init(handle: UnsafeMutableRawPointer, id: String) {
      self.handle = handle
      self.id = id
    }

    deinit { cicu_transliterator_close(handle) }

    /// An independent copy, for use on another thread.
    package func copy() throws(ICUError) -> Transliterator {
      var status: Int32 = 0
      let clone = cicu_transliterator_clone(handle, &status)
      try ICU.check(status, "cloning transliterator \"\(id)\"")
      guard let clone else { throw ICUError(code: 1, operation: "cloning transliterator") }
      return Transliterator(handle: clone, id: id)
    }

    /// The transliteration of `text`.
    package func transliterate(_ text: [UInt16]) throws(ICUError) -> [UInt16] {
      var capacity = text.count * 4 + 16
      for _ in 0..<3 {
        var buffer = text + [UInt16](repeating: 0, count: capacity - text.count)
        var status: Int32 = 0
        let length = cicu_transliterate(
          handle, &buffer, Int32(text.count), Int32(capacity), &status)
        if status == CICU_BUFFER_OVERFLOW_ERROR {
          capacity = max(capacity * 2, Int(length) + 1)
          continue
        }
        try ICU.check(status, "transliterating with \"\(id)\"")
        return Array(buffer.prefix(Int(length)))
      }
      throw ICUError(code: CICU_BUFFER_OVERFLOW_ERROR, operation: "transliterating with \"\(id)\"")
    }
  }

  /// ICU's alphabetic index of a locale, immutable (`AlphabeticIndex::ImmutableIndex`): its
  /// buckets in order, each with a label such as "A", "Ñ", "CH" or "か", and the bucket a text
  /// is filed under.
  ///
  /// Unlike a collator it needs no copy per thread: ICU documents the immutable index as safe
  /// to use from several threads at once, and nothing here changes it after it is built.
  package final class AlphabeticIndex: @unchecked Sendable {
    /// Where a bucket stands among the letters.
    package enum LabelKind: Hashable, Sendable {
      /// A letter of the index.
      case letter
      /// Before the first letter: digits, punctuation, symbols, the empty text.
      case underflow
      /// Between the letters of two scripts, for the scripts in between.
      case inflow
      /// After the last letter: scripts that the index has no letters for.
      case overflow
    }

    /// A bucket of the index.
    package struct Bucket: Hashable, Sendable {
      /// ICU's label: the letter, or "…" for the other kinds.
      package var label: String
      /// Whether it is a letter, or which of the others.
      package var kind: LabelKind
    }

    private let handle: UnsafeMutableRawPointer
    /// The locale it was opened for.
    package let locale: String
    /// The buckets in the index's order.
    package let buckets: [Bucket]

    /// Opens the index of `locale`, with the letters of `extraLabelsLocale`'s index added when
    /// it is given (as "en" adds A to Z to the Japanese index).
    package init(locale: String, extraLabelsLocale: String? = nil) throws(ICUError) {
      let operation = "opening the alphabetic index for \"\(locale)\""
      var status: Int32 = 0
      let opened: UnsafeMutableRawPointer?
      if let extraLabelsLocale {
        opened = cicu_alphabetic_index_open(locale, extraLabelsLocale, &status)
      } else {
        opened = cicu_alphabetic_index_open(locale, nil, &status)
      }
      try ICU.check(status, operation)
      guard let handle = opened else { throw ICUError(code: 1, operation: operation) }
      let buckets: [Bucket]
      do throws(ICUError) {
        buckets = try Self.readBuckets(handle, operation)
      } catch {
        // deinit does not run for an object that never finished initializing.
        cicu_alphabetic_index_close(handle)
        throw error
      }
      self.handle = handle
      self.locale = locale
      self.buckets = buckets
    }

    deinit { cicu_alphabetic_index_close(handle) }

    private static func readBuckets(
      _ handle: UnsafeMutableRawPointer, _ operation: String
    ) throws(ICUError) -> [Bucket] {
      var buckets: [Bucket] = []
      for bucket in 0..<cicu_alphabetic_index_bucket_count(handle) {
        var type: Int32 = 0
        let label = try ICU.withGrowingBuffer(of: UInt16.self, guess: 8, operation) {
          dest, capacity, status in
          cicu_alphabetic_index_bucket_label(handle, bucket, dest, capacity, &type, &status)
        }
        let kind: LabelKind
        switch cicu_index_label_type(rawValue: UInt32(bitPattern: type)) {
        case CICU_INDEX_LABEL_UNDERFLOW: kind = .underflow
        case CICU_INDEX_LABEL_INFLOW: kind = .inflow
        case CICU_INDEX_LABEL_OVERFLOW: kind = .overflow
        default: kind = .letter
        }
        buckets.append(Bucket(label: String(decoding: label, as: UTF16.self), kind: kind))
      }
      return buckets
    }

    /// The index in ``buckets`` of the bucket `text` is filed under.
    package func bucketIndex(of text: String) throws(ICUError) -> Int {
      var status: Int32 = 0
      let units = Array(text.utf16)
      let bucket = units.withUnsafeBufferPointer { source in
        cicu_alphabetic_index_bucket_of(handle, source.baseAddress, Int32(source.count), &status)
      }
      try ICU.check(status, "finding the index bucket of a text for \"\(locale)\"")
      guard buckets.indices.contains(Int(bucket)) else {
        throw ICUError(
          code: CICU_INDEX_OUTOFBOUNDS_ERROR,
          operation: "finding the index bucket of a text for \"\(locale)\"")
      }
      return Int(bucket)
    }
  }

  /// An ICU collator for one locale.
  ///
  /// Not safe to share between threads: copy it for each.
  package final class Collator {
    private let handle: UnsafeMutableRawPointer
    /// The locale it was opened for.
    package let locale: String

    package init(locale: String) throws(ICUError) {
      var status: Int32 = 0
      let handle = cicu_collator_open(locale, &status)
      try ICU.check(status, "opening a collator for \"\(locale)\"")
      guard let handle else { throw ICUError(code: 1, operation: "opening a collator") }
      self.handle = handle
      self.locale = locale
    }

    private init(handle: UnsafeMutableRawPointer, locale: String) {
      self.handle = handle
      self.locale = locale
    }

    deinit { cicu_collator_close(handle) }

    /// An independent copy, for use on another thread.
    package func copy() throws(ICUError) -> Collator {
      var status: Int32 = 0
      let clone = cicu_collator_clone(handle, &status)
      try ICU.check(status, "cloning the collator for \"\(locale)\"")
      guard let clone else { throw ICUError(code: 1, operation: "cloning a collator") }
      return Collator(handle: clone, locale: locale)
    }

    /// Sets the comparison strength: 0 primary (base letters), 1 secondary (accents),
    /// 2 tertiary (case).
    package func setStrength(_ strength: Int) {
      cicu_collator_set_strength(handle, Int32(strength))
    }

    /// The sort key of `text`: byte-wise comparison of keys orders as the collator does.
    package func sortKey(_ text: String) -> [UInt8] {
      let units = Array(text.utf16)
      return units.withUnsafeBufferPointer { source in
        var capacity = units.count * 4 + 16
        while true {
          var key = [UInt8](repeating: 0, count: capacity)
          let length = Int(
            cicu_collator_sort_key(
              handle, source.baseAddress, Int32(source.count), &key, Int32(capacity)))
          if length <= capacity { return Array(key.prefix(max(length - 1, 0))) }
          capacity = length
        }
      }
    }

    /// Compares two strings under the collator's rules.
    package func compare(_ a: String, _ b: String) -> Int {
      let x = Array(a.utf16)
      let y = Array(b.utf16)
      return Int(cicu_collator_compare(handle, x, Int32(x.count), y, Int32(y.count)))
    }
  }
}
