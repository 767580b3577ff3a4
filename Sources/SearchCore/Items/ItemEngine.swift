import SearchEngine

/// The engine under an ``ItemSearch``: the model, corpus and tables of the app's items, and
/// their identities.
///
/// Building it reads, folds, indexes and sections every item, so it is built off the main actor,
/// which only installs it.
struct ItemEngine<Item: Identifiable & Sendable, Scope: Hashable & Sendable>: Sendable
where Item.ID: Sendable {
  /// The engine's identity of each item.
  var identities: [Item.ID: ItemID]
  /// The folded, indexed items.
  var corpus: SearchCorpus
  /// The controller's tables over them.
  var tables: SearchController.Tables

  /// Builds the engine of `items` on a Dispatch thread (``BackgroundWork``: a build keeps
  /// every core busy for a while, which must not hold up the app's tasks), storing each
  /// item's value in `storage` under its identity; then gives the system back what the
  /// build freed (`BackgroundWork.releaseFreedMemory()`).
  static func build(
    _ items: [Item], schema: ItemSchema<Item, Scope>, storage: ItemStorage<Item>,
    folding: Folding, locale: String?, wordIndex: Bool = false
  ) async -> Result<Self, ItemSearchError> {
    await BackgroundWork.run {
      defer { BackgroundWork.releaseFreedMemory() }
      do throws(ItemSearchError) {
        return .success(
          try Self(
            items, schema: schema, storage: storage, folding: folding, locale: locale,
            wordIndex: wordIndex))
      } catch { return .failure(error) }
    }
  }

  /// How many records a build makes at once, across the cores, before adding them.
  static var recordsPerBlock: Int { 8_192 }

  /// Builds the engine of `items` here, in the calling thread (and, for the records, on
  /// every core); with `wordIndex`, the index of words that typo tolerance reads too, so
  /// that no keystroke waits for it.
  init(
    _ items: [Item], schema: ItemSchema<Item, Scope>, storage: ItemStorage<Item>,
    folding: Folding, locale: String?, wordIndex: Bool = false
  ) throws(ItemSearchError) {
    // An unknown locale would fold and collate as the root locale without a word.
    if let locale, !Normalizer.isKnownLocale(locale) { throw .unknownLocale(locale) }
    var model = SearchModel(schema: schema.schema)
    var identities: [Item.ID: ItemID] = [:]
    identities.reserveCapacity(items.count)
    var ids: [ItemID] = []
    ids.reserveCapacity(items.count)
    // Reading an item's texts through the app's key paths costs microseconds: the records
    // of a block are made on every core, then added in order. Blocks keep few records alive.
    let block = Self.recordsPerBlock
    for blockStart in stride(from: 0, to: items.count, by: block) {
      let range = blockStart..<min(blockStart + block, items.count)
      let pieces = Parallel.ranges(
        count: range.count,
        size: (range.count + Parallel.activeProcessorCount - 1) / Parallel.activeProcessorCount)
      let records = Parallel.map(chunks: pieces.count) { piece in
        pieces[piece].map { schema.record(of: items[range.lowerBound + $0]) }
      }
      var position = range.lowerBound
      for record in records.joined() {
        let item = items[position]
        position += 1
        guard identities[item.id] == nil else { throw .duplicateID("\(item.id)") }
        let id: ItemID
        do { id = try model.appendBuilding(record) } catch { throw .engine(error) }
        identities[item.id] = id
        ids.append(id)
      }
    }
    storage.set(items, for: ids)
    self.identities = identities
    do {
      let normalizer = try Normalizer(folding: folding, locale: locale)
      // The index and the tables both read only the model: they are made at once.
      let options = schema.tableOptions(locale: locale)
      let model = model
      let (indexed, laidOut) = Parallel.both {
        Result { () throws(SearchCorpus.Error) in
          let corpus = try SearchCorpus(model: model, normalizer: normalizer)
          // Beside the tables, which take as long.
          if wordIndex { corpus.prepareWordIndex() }
          return corpus
        }
      } _: {
        Result { () throws(SectionedTable.Error) in
          try SearchController.Tables(model: model, options: options)
        }
      }
      corpus = try indexed.get()
      tables = try laidOut.get()
    } catch {
      throw .engine(error)
    }
  }
}
