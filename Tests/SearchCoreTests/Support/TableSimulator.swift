import SearchCoreTesting
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Applies changes to the old table as UIKit's batch updates do (see ``TableMirror``):
/// the sections a front would show after the batch.
func simulate(
  _ changes: TableChanges, from old: SectionedTable, to new: SectionedTable
) -> [SectionedTable.Section] {
  var mirror = TableMirror(old)
  mirror.apply(changes, new: new)
  #expect(mirror.problems == [], "UIKit would reject the changes")
  return mirror.sections
}
