/// The engine under an ``ItemSearch``: the model, corpus and tables of the app's items, and
/// their identities. Building it reads, folds, indexes and sections every item, so it is
/// built off the main actor, which only installs it.
struct ItemEngine<Item: Identifiable & Sendable, Scope: Hashable & Sendable>: Sendable
where Item.ID: Sendable {
  /// The engine's identity of each item.
  var identities: [Item.ID: ItemID]
  /// The folded, indexed items.
  var corpus: SearchCorpus
  /// The controller's tables over them.
  var tables: SearchController.Tables

  /// Builds the engine of `items` in a task of its own, storing each item's value in
  /// `storage` under its identity.
  static func build(
    _ items: [Item], schema: ItemSchema<Item, Scope>, storage: ItemStorage<Item>,
    folding: Folding, locale: String?
  ) async -> Result<Self, ItemSearchError> {
    await Task.detached {
      do throws(ItemSearchError) {
        return .success(
          try Self(items, schema: schema, storage: storage, folding: folding, locale: locale))
      } catch { return .failure(error) }
    }.value
  }

  /// Builds the engine of `items` here, in the calling thread.
  init(
    _ items: [Item], schema: ItemSchema<Item, Scope>, storage: ItemStorage<Item>,
    folding: Folding, locale: String?
  ) throws(ItemSearchError) {
    var model = Model(schema: schema.schema)
    var identities: [Item.ID: ItemID] = [:]
    identities.reserveCapacity(items.count)
    var ids: [ItemID] = []
    ids.reserveCapacity(items.count)
    for item in items {
      guard identities[item.id] == nil else { throw .duplicateID("\(item.id)") }
      let id: ItemID
      do { id = try model.append(schema.record(of: item)) } catch {
        throw .engine(error.description)
      }
      identities[item.id] = id
      ids.append(id)
    }
    storage.set(items, for: ids)
    self.identities = identities
    do {
      let normalizer = try Normalizer(folding: folding, locale: locale)
      corpus = try SearchCorpus(model: model, normalizer: normalizer)
      tables = try SearchController.Tables(
        corpus: corpus, options: schema.tableOptions(locale: locale))
    } catch let error as ICUError {
      throw .engine(error.description)
    } catch let error as CorpusError {
      throw .engine(error.description)
    } catch let error as TableError {
      throw .engine(error.description)
    } catch {
      throw .engine("\(error)")
    }
  }
}
