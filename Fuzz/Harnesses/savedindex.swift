// A saved index is input (issue 45): a small corpus in several scripts, with items of several
// values, updated and removed ones, is saved once; each input changes a few of the file's
// structural values (offsets, counts, lengths, elements of arrays) and mends the checksums of
// the arrays it changed, so that the change reaches the checks behind them. Opening the file
// is then a `SavedIndexError`, or a corpus that answers like one built afresh from the texts
// it reads back whenever its folded text, interior boundaries and common bytes' bits are what
// building gives (the parts `SearchCorpus.init(contentsOf:)` does not check in full, where a
// change may change answers); never a trap.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The saved file the inputs change: its path, bytes and parts, and the corpus saved.
private struct SavedFile: Sendable {
  let corpus: SearchCorpus
  let path: String
  let bytes: [UInt8]
  let parts: [SavedFileReader.Part]
}

private let queries = ["a", "e", "ma", "^s", "n$", "i", "é", "αθ", "👍", "'new", "!york", "ab | x"]

private let saved: SavedFile = {
  let schema = SearchModel.Schema(
    fields: [
      SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "alt"),
      SearchModel.Schema.Field(name: "note", isSearched: false),
    ],
    attributes: ["kind"])
  let names = [
    "New York", " Straße", "Αθήνα ", "東京", "क्षत्रिय", "👍🏽 ok", "Émile", "İstanbul", "abc", "",
    "Mac mini", "e\u{301}t\u{E9}", "Москва", "x\u{A0}", "na\u{308}ive", "Zürich",
  ]
  var model = SearchModel(schema: schema)
  for (index, name) in names.enumerated() {
    let alternates = (0..<(index % 3)).map { names[(index * 7 + $0) % names.count] }
    _ = try? model.append(
      SearchModel.Record(
        fields: [[name], alternates, ["note \(index)"]], attributes: [["a", "b"][index % 2]]))
  }
  guard let normalizer = try? Normalizer(),
    var corpus = try? SearchCorpus(model: model, normalizer: normalizer)
  else {
    require(false, "the corpus cannot be built")
    fatalError()
  }
  // Updated and removed items: values without an owner, dead items, an explicit map.
  let ids = corpus.model.ids
  _ = try? corpus.update(
    ids[1], with: SearchModel.Record(fields: [["Ōsaka", "大阪"], [], ["n"]], attributes: ["b"]))
  _ = try? corpus.remove(ids[4])
  _ = try? corpus.insert(
    SearchModel.Record(fields: [["ﬁnal  "], ["ǅ"], [""]], attributes: ["a"]), at: 2)
  let path = "/tmp/fuzz-savedindex-\(getpid()).index"
  do { try corpus.save(toFile: path) } catch { require(false, "cannot save: \(error)") }
  var bytes: [UInt8] = []
  if let file = fopen(path, "rb") {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let got = fread(&buffer, 1, buffer.count, file)
      if got <= 0 { break }
      bytes += buffer[0..<got]
    }
    fclose(file)
  }
  let parts: [SavedFileReader.Part]
  do { parts = try SearchCorpus.savedOutline(of: path) } catch {
    require(false, "the saved file cannot be read: \(error)")
    fatalError()
  }
  unlink(path)
  return SavedFile(corpus: corpus, path: path, bytes: bytes, parts: parts)
}()

/// Whether two columns' common bytes give each byte the same bits (their rows' order may
/// differ after changes).
private func sameBits(_ one: CommonBytes?, _ other: CommonBytes?) -> Bool {
  guard let one, let other else { return one == nil && other == nil }
  return one.count == other.count
    && (0..<256).allSatisfy { byte in
      let (mine, theirs) = (one.slot[byte], other.slot[byte])
      return mine < 0
        ? theirs < 0 : theirs >= 0 && one.rows[Int(mine)] == other.rows[Int(theirs)]
    }
}

/// The results of every query in every scope, or nil when a query cannot be made.
private func results(of corpus: SearchCorpus) -> [[ItemID]] {
  queries.flatMap { text -> [[ItemID]] in
    guard let query = try? SearchQuery(text, normalizer: corpus.normalizer) else { return [] }
    return corpus.scopeBar.scopes.indices.map { scope in
      QueryEvaluator(corpus: corpus, query: query, scope: scope)
        .evaluate(candidates: nil, isCancelled: { false }) ?? []
    }
  }
}

/// One input: up to four changes, each a part (a byte), an element (two bytes), how to
/// change it (a byte: a value a structure takes, a small step, a flipped bit, or another
/// element's value) and its operand (four bytes).
func fuzzSavedIndex(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let file = saved
  var bytes = file.bytes
  for _ in 0..<(1 + input.below(4)) {
    let part = file.parts[(Int(input.byte()) << 8 | Int(input.byte())) % file.parts.count]
    let elements = max(part.count ?? 1, 1)
    let element = (Int(input.byte()) << 8 | Int(input.byte())) % elements
    let at = part.offset(ofElement: element)
    guard at + part.stride <= bytes.count, part.stride <= 8 else { continue }
    var old: Int64 = 0
    withUnsafeMutableBytes(of: &old) { raw in
      for k in 0..<part.stride { raw[k] = bytes[at + k] }
    }
    var operand: Int64 = 0
    for _ in 0..<4 { operand = operand << 8 | Int64(input.byte()) }
    let value: Int64
    switch input.below(6) {
    case 0:
      value =
        [0, -1, 1, 0x7FFF_FFFF, -0x8000_0000, Int64(elements), Int64(bytes.count)][
          Int(operand % 7)]
    case 1: value = old &+ (operand % 9 - 4)
    case 2: value = old ^ (1 << (operand % Int64(part.stride * 8)))
    case 3:
      let other = part.offset(ofElement: Int(operand) % elements)
      var copied: Int64 = 0
      withUnsafeMutableBytes(of: &copied) { raw in
        for k in 0..<part.stride where other + k < bytes.count { raw[k] = bytes[other + k] }
      }
      value = copied
    case 4: value = operand
    default: value = old &- (operand % 9 - 4)
    }
    withUnsafeBytes(of: value.littleEndian) { raw in
      for k in 0..<part.stride { bytes[at + k] = raw[k] }
    }
    part.mendChecksum(in: &bytes)
  }
  let path = file.path + ".changed"
  guard let out = fopen(path, "wb") else {
    require(false, "cannot write \(path)")
    return 0
  }
  _ = fwrite(bytes, 1, bytes.count, out)
  fclose(out)
  let loaded: SearchCorpus
  do { loaded = try SearchCorpus(contentsOf: path, normalizer: file.corpus.normalizer) } catch {
    require(error.file == path && !error.reason.isEmpty, "an error without its file: \(error)")
    return 0
  }
  // Opened: every search answers, and, where the folded text is what folding gives, as a
  // corpus built afresh from the model read back.
  let answers = results(of: loaded)
  guard let fresh = try? SearchCorpus(model: loaded.model, normalizer: loaded.normalizer) else {
    return 0
  }
  let asBuilt = zip(loaded.index.fields, fresh.index.fields).allSatisfy { loaded, fresh in
    guard let loaded, let fresh else { return loaded == nil && fresh == nil }
    return loaded.bytes == fresh.bytes && loaded.interior == fresh.interior
      && sameBits(loaded.commonBytes, fresh.commonBytes)
  }
  if asBuilt {
    require(answers == results(of: fresh), "a changed file opens and answers otherwise")
  }
  return 0
}
