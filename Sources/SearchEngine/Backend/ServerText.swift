/// How an item is kept on a search server so that a plain substring test there gives the
/// in-memory engine's answer: what a server backend stores (``ServerRow``) and how it reads a
/// query (``ServerQuery``).
///
/// Each searched field is stored as its values folded by the corpus's own ``Normalizer``
/// (so folding is identical by construction), each value between two ``separator``s, as the
/// in-memory index lays them out: `^term` is a test for separator + term, `term$` for term +
/// separator. A substring test on such text is the in-memory rule for every item but two
/// kinds, which the server only narrows down and the caller settles by folding them again
/// (``ServerCandidates``):
/// - irregular items (``ServerRow/isIrregular``): a folded value starts or ends with white
///   space (which anchored terms skip) or contains the separator; every search settles them;
/// - items with a scalar boundary inside a folded character (a vowel sign after a consonant,
///   a keycap, an emoji sequence), where a substring test could start or end a match halfway
///   through a character: the scalars on either side of each such boundary are kept
///   (``ServerRow/edgeScalars``), and only a term that starts or ends with one of them
///   (``ServerQuery/edgeScalars``) makes such an item a candidate.
package enum ServerText {
  /// Stands between the values of a field: a control character that folded text of a
  /// well-formed item does not contain (an item that does is irregular).
  package static let separator: Unicode.Scalar = "\u{1F}"
}

/// One item as a search server stores it.
package struct ServerRow: Hashable, Sendable {
  /// For each field of the schema: the folded values between separators when the field is
  /// searched, nil when it is not.
  package var folded: [String?]
  /// Whether a folded value starts or ends with white space or contains the separator:
  /// the item is a candidate of every search, settled by folding it again.
  package var isIrregular: Bool
  /// The scalars next to a scalar boundary inside a folded character, each once, ascending.
  package var edgeScalars: [String]
  /// For each of the schema's number attributes, the value in canonical form (nil when it is
  /// not a number).
  package var numbers: [String?]
}

/// Folds records into server rows; one per thread.
package struct ServerRowFolder {
  private let folder: Folder
  private let searched: [Bool]
  private let numberAttributes: [Int]

  /// A folder for records of `schema`, folding as `normalizer` does.
  ///
  /// - Throws: ``SearchCorpus/Error/unknownName(_:_:scope:)`` when a number attribute is not in the
  ///   schema, ``SearchCorpus/Error/icu(_:)`` when ICU cannot fold.
  package init(schema: SearchModel.Schema, normalizer: Normalizer) throws(SearchCorpus.Error) {
    do { folder = try normalizer.makeFolder() } catch { throw .icu(error) }
    searched = schema.fields.map(\.isSearched)
    numberAttributes = try schema.numberAttributeIndices()
  }

  /// The row of a record.
  package func row(_ record: SearchModel.Record) throws(ICUError) -> ServerRow {
    var folded: [String?] = []
    var irregular = false
    var edges = Set<UInt32>()
    for (field, isSearched) in searched.enumerated() {
      guard isSearched else {
        folded.append(nil)
        continue
      }
      let values = field < record.fields.count ? record.fields[field] : []
      var text: [UInt8] = [UInt8(ServerText.separator.value)]
      for value in values {
        let buffer = try folder.foldBuffer(value)
        let bytes = buffer.bytes
        if let first = bytes.first,
          Whitespace.startsWithSpace(bytes, first: first) || Whitespace.endsWithSpace(bytes)
        {
          irregular = true
        }
        if bytes.contains(UInt8(ServerText.separator.value)) || bytes.contains(0) {
          irregular = true
        }
        for offset in buffer.interior {
          edges.insert(Self.scalar(endingAt: offset, in: bytes))
          edges.insert(Self.scalar(startingAt: offset, in: bytes))
        }
        // A NUL cannot be stored; the item is irregular, so the separator in its place is safe.
        text.append(contentsOf: bytes.lazy.map { $0 == 0 ? UInt8(ServerText.separator.value) : $0 })
        text.append(UInt8(ServerText.separator.value))
      }
      folded.append(String(decoding: text, as: UTF8.self))
    }
    let numbers = numberAttributes.map { attribute in
      attribute < record.attributes.count
        ? DecimalText.canonical(record.attributes[attribute]) : nil
    }
    return ServerRow(
      folded: folded, isIrregular: irregular,
      edgeScalars: edges.sorted().compactMap { Unicode.Scalar($0).map { String(Character($0)) } },
      numbers: numbers)
  }

  private static func scalar(startingAt offset: Int, in bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, offset < buffer.count else { return 0 }
      return Folder.decode(base, at: offset, count: buffer.count).value
    }
  }

  private static func scalar(endingAt offset: Int, in bytes: [UInt8]) -> UInt32 {
    var start = offset - 1
    while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return scalar(startingAt: max(start, 0), in: bytes)
  }
}

extension SearchModel.Schema {
  /// The attribute indices of the number attributes, in their order.
  package func numberAttributeIndices() throws(SearchCorpus.Error) -> [Int] {
    var result: [Int] = []
    for name in numberAttributes {
      guard let index = attributeIndex(named: name) else {
        throw .unknownName("attribute", name, scope: nil)
      }
      result.append(index)
    }
    return result
  }
}
