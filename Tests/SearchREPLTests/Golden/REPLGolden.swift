/// Expected REPL transcripts, written by reading the data sets (not by saving the output):
/// `Corpus/products/products.tsv` in file order, item ids from 0.
///
/// They are Swift source rather than text files so that the test target needs no resource
/// declaration.
enum REPLGolden {
  /// `repl --corpus products --json` with `set minlen 3`, `begin`, `type mac` (no timing):
  /// "m" and "ma" are below the minimum (no search; the results table appears with the
  /// hint), "mac" searches now: 17 names contain "mac".
  static let productsJSON = #"""
    {"event":"begin"}
    {"event":"text","text":"m","reload":"none","generation":1}
    {"event":"load"}
    {"event":"show"}
    {"event":"text","text":"ma","reload":"none","generation":2}
    {"event":"text","text":"mac","reload":"now","generation":3,"rows":17,"state":"rows"}

    """#

  /// The script of ``productsTranscript``.
  static let productsScript = """
    begin
    scope device
    show
    next
    type ipod
    show
    select 2
    delete 0.0
    stats
    cancel
    show original 3

    """

  /// `repl --corpus MANIFEST --sections type` (no timing) running ``productsScript``.
  ///
  /// Device holds 22 of the 45 products; with empty text the scope alone fills the results
  /// table. Typing "ipod" in Device: "i" leaves out Newton MessagePad, Apple TV, Apple Watch
  /// and HomePod (18), "ip" keeps the 6 iPods, 5 iPhones and 4 iPads (15), "ipo" and "ipod"
  /// the 6 iPods. Row 2 is iPod shuffle (item 16); deleting 0.0 removes iPod (item 12), the
  /// second row of the original's Device section (1.1). After cancel the original table has
  /// 13 Desktop, 21 Device and 10 Portable rows: page 3 is Portable's rows 6 to 9.
  static let productsTranscript = #"""
    Loaded 45 products ({MANIFEST}); scopes: All, Device, Desktop, Portable. Type help.
    begin
    state: Dimmed
    scope 1 "Device" → reload now (generation 1): 22 rows
    load results table
    show results table
    results table, page 1 of 2 (22 rows)
    [Device]
    0.0   Newton MessagePad (1993)
    0.1   iPod (2001)
    0.2   iPod mini (2004)
    0.3   iPod shuffle (2005)
    0.4   iPod nano (2005)
    0.5   iPhone (2007)
    0.6   iPod touch (2007)
    0.7   iPod classic (2007)
    0.8   Apple TV (2007)
    0.9   iPhone 3G (2008)
    0.10  iPad (2010)
    0.11  iPhone 4 (2010)
    0.12  iPad mini (2012)
    0.13  iPad Air (2013)
    0.14  Apple Watch (2015)
    0.15  iPad Pro (2015)
    0.16  Apple Pencil (2015)
    0.17  iPhone SE (2016)
    0.18  AirPods (2016)
    0.19  iPhone X (2017)
    results table, page 2 of 2 (22 rows)
    [Device]
    0.20  HomePod (2018)
    0.21  Apple Vision Pro (2024)
    text "i" → reload now (generation 2): 18 rows
    text "ip" → reload now (generation 3): 15 rows
    text "ipo" → reload now (generation 4): 6 rows
    text "ipod" → reload now (generation 5): 6 rows
    results table, page 1 of 1 (6 rows)
    [Device]
    0.0  iPod (2001)
    0.1  iPod mini (2004)
    0.2  iPod shuffle (2005)
    0.3  iPod nano (2005)
    0.4  iPod touch (2007)
    0.5  iPod classic (2007)
    select #16 iPod shuffle (2005)
      name: iPod shuffle
      type: Device
      year: 2005
      price: 99
    delete #12 iPod (2001)
    original table: deleted 1.1
    results table: deleted 0.0
    state: 5 results
    stats: 44 items, generation 6, state 5 results, 0 discarded searches, 5 results
    cancel
    hide results table
    unload results table
    state: Hidden
    end
    original table, page 3 of 3 (44 rows)
    [Portable]
    2.6  MacBook Air (2008)
    2.7  MacBook Pro with Retina display (2012)
    2.8  12-inch MacBook (2015)
    2.9  MacBook Air (M1) (2020)

    """#

  /// The script of ``modelAndFoldingTranscript``.
  static let modelAndFoldingScript = """
    begin
    paste ipad
    insert name=iPad Pro (M4); type=Device; year=2024; price=999.00
    update 1 name=iPad mini 2
    update 0 name=Newton
    set fold none
    set fold case,diacritics,compatibility
    set locale tr
    paste IPAD
    paste İPAD
    insert name=x; year=soon
    insert colour=red
    update 9 type=Device
    stats

    """

  /// `repl --corpus products` (no timing) running ``modelAndFoldingScript``.
  ///
  /// "ipad" is in 4 names: iPad (item 28), iPad mini (31), iPad Air (32), iPad Pro (35). The
  /// insert appends item 45, the fifth result (0.4) and the original's row 0.45. Row 1 is
  /// iPad mini: renamed, it still matches, so its row is updated. Row 0 is iPad: renamed
  /// "Newton" it no longer matches and leaves the results (deleted 0.0), 4 remain. With fold
  /// none "ipad" is case-sensitive and matches no "iPad"; the default folding brings the 4
  /// back. Each setting builds a new controller that restores the text (generation 1), then
  /// begins, which searches as generation 2. Under Turkish rules "IPAD" folds to "ıpad" with a
  /// dotless i and matches nothing; "İPAD" folds to "ipad" and matches the 4 again.
  static let modelAndFoldingTranscript = #"""
    Loaded 45 products ({MANIFEST}); scopes: All, Device, Desktop, Portable. Type help.
    begin
    state: Dimmed
    text "ipad" → reload now (generation 1): 4 rows
    load results table
    show results table
    insert #45 iPad Pro (M4) (2024)
    original table: inserted 0.45
    results table: inserted 0.4
    state: 5 results
    update #31 iPad mini 2 (2012)
    original table: updated 0.31
    results table: updated 0.1
    update #28 Newton (2010)
    original table: updated 0.28
    results table: deleted 0.0
    state: 4 results
    fold none (No Results)
    fold case,diacritics,compatibility (4 results)
    locale tr (4 results)
    text "IPAD" → reload now (generation 3): no results
    text "İPAD" → reload now (generation 4): 4 rows
    insert: year must be an integer, not "soon"
    insert: no field or attribute "colour"; the names are name, type, year, price
    the results table has no row 0.9; rows are SECTION.ROW from 0.0
    stats: 46 items, generation 4, state 4 results, 0 discarded searches, 4 results

    """#
}
