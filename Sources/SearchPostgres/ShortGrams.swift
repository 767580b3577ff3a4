#if PostgreSQL

  import SearchEngine
  /// The one- and two-scalar runs of folded text, and their postings for the rare ones.
  ///
  /// A term of one or two characters has no trigram, so `pg_trgm` cannot narrow it, and one
  /// that matches few rows costs a scan of every row. The short-gram table lists, for every
  /// such gram found in at most ``rareLimit`` rows when the data set was loaded, every row
  /// that holds it in a searched field: a complete list, kept so by every change (a row
  /// that gains a listed gram is added, one that loses it removed). A gram not listed (too
  /// common, or new since the load) is simply not narrowed this way; the answer is the same.
  enum ShortGrams {
    /// A gram is listed when at most this many rows hold it at load time: few enough that
    /// reading its rows by identity is cheaper than a scan, many enough to reach the grams
    /// a first page cannot find early in model order.
    static let rareLimit = 4_000

    /// A gram packed in 42 bits: its first scalar, then its second (or all ones for a gram
    /// of one scalar, which no scalar value reaches).
    typealias Key = UInt64

    private static let single: UInt64 = 0x1F_FFFF

    /// The distinct grams of some folded columns: their runs of one and two scalars that hold
    /// no separator.
    static func keys(of columns: [String?]) -> Set<Key> {
      var keys = Set<Key>()
      for case let column? in columns {
        var previous: UInt64?
        for scalar in column.unicodeScalars {
          guard scalar != ServerText.separator else {
            previous = nil
            continue
          }
          let value = UInt64(scalar.value)
          keys.insert(value << 21 | single)
          if let previous { keys.insert(previous << 21 | value) }
          previous = value
        }
      }
      return keys
    }

    /// The gram of a key, as text.
    static func text(of key: Key) -> String {
      var scalars = String.UnicodeScalarView()
      if let first = Unicode.Scalar(UInt32(key >> 21)) { scalars.append(first) }
      if key & single != single, let second = Unicode.Scalar(UInt32(key & single)) {
        scalars.append(second)
      }
      return String(scalars)
    }

    /// The gram a term's folded text needs, when it is one or two scalars without a
    /// separator once its anchors are set aside; nil otherwise.
    static func gram(ofCore text: String) -> String? {
      let scalars = text.unicodeScalars.filter { $0 != ServerText.separator }
      guard (1...2).contains(scalars.count) else { return nil }
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars)
      return String(view)
    }

    /// Postings gathered while a data set loads: chunk by chunk, rows and their grams in,
    /// the rare grams' rows out.
    ///
    /// A gram that passes ``rareLimit`` rows is dropped for good, so what is kept never exceeds the
    /// limit per gram.
    struct Collector {
      private var postings: [Key: [Int32]] = [:]
      private var common = Set<Key>()

      /// Adds a chunk's postings (each gram's rows in that chunk).
      mutating func add(_ chunk: [Key: [Int32]]) {
        for (key, ids) in chunk where !common.contains(key) {
          let count = (postings[key]?.count ?? 0) + ids.count
          if count > ShortGrams.rareLimit {
            postings[key] = nil
            common.insert(key)
          } else {
            postings[key, default: []] += ids
          }
        }
      }

      /// The rare grams and their rows, sorted by gram.
      var rare: [(gram: String, ids: [Int32])] {
        postings.map { (ShortGrams.text(of: $0.key), $0.value.sorted()) }.sorted {
          $0.gram.unicodeScalars.lexicographicallyPrecedes($1.gram.unicodeScalars)
        }
      }
    }
  }
#endif
