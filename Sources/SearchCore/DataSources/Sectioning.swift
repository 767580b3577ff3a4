import SearchEngine

extension SectionedTable {
  /// How a table groups its rows into sections.
  public enum Sectioning: Hashable, Sendable {
    /// One section without a header: UIKit's plain table. An empty table still has that section.
    case none
    /// One section per distinct value of the named attribute among the rows, titled by the
    /// value, sections in collation order of their titles.
    case attribute(String)
    /// One section per index title, as a contacts list: the letter of the locale's index that
    /// the named field's first value is filed under (``SectionedTable/Collation/sectionTitle(for:)``),
    /// sections in the index's order with "#" (no letter) last.
    case firstLetter(field: String)
  }
}

extension SectionedTable {
  /// The order of rows inside each section.
  public enum RowOrder: Hashable, Sendable {
    /// The order of the items the table was built from: model order, or a ranked order of
    /// results, kept as it is inside each section.
    case given
    /// Collation order of the sectioning field's first value (of the display text for
    /// ``SectionedTable/Sectioning/none`` and ``SectionedTable/Sectioning/attribute(_:)``); equal texts in the order their
    /// items joined the model (by ``/SearchEngine/ItemID``), whatever order they are given in:
    /// reordering the model moves no row.
    case collation
    /// Collation order of the named field's first value, whatever the sectioning (rows by
    /// last name in sections by first name, say); equal texts as for ``collation``.
    case fieldCollation(String)
  }
}
