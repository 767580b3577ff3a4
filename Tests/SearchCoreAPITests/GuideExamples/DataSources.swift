// The DataSources guide's swift block, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder, and drives this one).
import SearchCore

/// Spanish words in sections by first letter, and what a table view's data source reads.
@MainActor
func dataSourcesExample(spanishWords: SearchCorpus) throws -> (
  words: SearchController, titles: [String]?, header: String?, rows: Int, item: ItemID?,
  path: TableIndexPath?
) {
  let words = try SearchController(
    corpus: spanishWords,
    tableOptions: SearchController.TableOptions(
      sectioning: .firstLetter(field: "word"), rowOrder: .collation, locale: "es"))
  let table = words.originalTable  // the table view's data source answers from it
  let titles = table.sectionIndexTitles  // "A" … "N", "Ñ", "O" … "Z", "#": Spanish's index
  let header = table.titleForHeader(inSection: 0)  // "A"
  let rows = table.numberOfRows(inSection: 0)  // the words under A, "árbitro" among them
  let item = table.item(at: TableIndexPath(section: 0, row: 0))  // an ItemID, not a copy
  let path = item.flatMap { table.indexPath(of: $0) }  // 0.0: the item's row
  return (words, titles, header, rows, item, path)
}
