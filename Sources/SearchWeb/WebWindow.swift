#if Web
  import SearchCore
  import SearchEngine

  /// A session's screen as the main actor read it: the update less its rows, and what the rows
  /// are drawn from.
  struct WebScreen: Sendable {
    /// The update without its window (start, end, rows) or section index.
    var update: WebUpdate
    var kind: SearchController.TableKind
    var table: SectionedTable
    /// Counts the changes of the tables' contents: a new version is a new window.
    var tableVersion: Int
    /// The page's visible rows, as it last said.
    var visible: (first: Int, count: Int)
    /// How many times the page asked for every row again.
    var resyncs: Int
    var corpus: SearchCorpus
    /// For results: the query and scope whose matches rows mark; nil draws rows as displayed.
    var marking: (query: SearchQuery, scope: Int)?
  }

  /// What a page holds of its session's rows, and the drawing of the window it should hold:
  /// the writer's own, so that the rows are drawn on its thread and the main actor (which every
  /// session shares) only reads the screen.
  ///
  /// Each update is the difference between the window the page holds and the window now: the
  /// rows of the paging window (the visible rows' page and one page on each side) that are new
  /// or changed.
  struct WebWindow {
    private var window: PagingWindow<WebRow>?
    private var windowKey: WindowKey?
    /// The rows the page holds, by flat position: what the next update is the difference from.
    private var sent: [Int: WebRow] = [:]
    /// The last update sent, less its rows: an update with nothing new is not sent.
    private var lastSent: WebUpdate?
    /// The page's resyncs already answered.
    private var resyncs = 0
    /// The section index of the table on screen, by the table and its version.
    private var sectionIndex: (key: WindowKey, entries: [WebIndexEntry]?)?
    /// How many updates were sent.
    private var sequence = 0

    private struct WindowKey: Equatable {
      var table: SearchController.TableKind
      var version: Int
      var pageSize: Int
    }

    /// The update from what the page holds to `screen`, recorded as held; an error when a row
    /// cannot be drawn; nil when the page has it all.
    mutating func message(for screen: WebScreen) -> ServerMessage? {
      if screen.resyncs != resyncs {
        resyncs = screen.resyncs
        sent = [:]
        lastSent = nil
      }
      let rows: [WebRow]
      do { rows = try windowRows(of: screen) } catch { return .error(error.description) }
      var update = screen.update
      update.start = rows.first?.position ?? 0
      update.end = rows.last.map { $0.position + 1 } ?? 0
      update.sectionIndex = indexEntries(of: screen)
      let held = update.start..<update.end
      sent = sent.filter { held.contains($0.key) }
      for row in rows where sent[row.position] != row {
        update.rows.append(row)
        sent[row.position] = row
      }
      var bare = update
      bare.rows = []
      if update.rows.isEmpty, bare == lastSent { return nil }
      lastSent = bare
      sequence += 1
      update.sequence = sequence
      return .update(update)
    }

    /// The section index of the screen's table: each index title and the flat position of the
    /// first row of the section it jumps to (``SectionedTable/section(forSectionIndexTitle:at:)``);
    /// nil for a table without an index or rows.
    private mutating func indexEntries(of screen: WebScreen) -> [WebIndexEntry]? {
      let key = WindowKey(table: screen.kind, version: screen.tableVersion, pageSize: 0)
      if let sectionIndex, sectionIndex.key == key { return sectionIndex.entries }
      let table = screen.table
      var entries: [WebIndexEntry]?
      if let titles = table.sectionIndexTitles, table.numberOfRows > 0 {
        var starts: [Int] = []
        var position = 0
        for section in 0..<table.numberOfSections {
          starts.append(position)
          position += table.numberOfRows(inSection: section)
        }
        entries = titles.enumerated().map { index, title in
          WebIndexEntry(
            title: title,
            position: starts[table.section(forSectionIndexTitle: title, at: index)])
        }
      }
      sectionIndex = (key, entries)
      return entries
    }

    /// The drawn rows of the paging window over the visible rows: their page and one page on
    /// each side, in order.
    private mutating func windowRows(of screen: WebScreen) throws(PagingError) -> [WebRow] {
      let table = screen.table
      guard table.numberOfRows > 0 else {
        window = nil
        windowKey = nil
        return []
      }
      let pageSize = max(1, screen.visible.count)
      let page = screen.visible.first / pageSize
      let key = WindowKey(table: screen.kind, version: screen.tableVersion, pageSize: pageSize)
      do {
        if var window, key == windowKey {
          if window.currentPage != page {
            try window.show(page: page)
            self.window = window
          }
        } else {
          window = try PagingWindow(
            table: table, pageSize: pageSize, neighbours: 1, page: page,
            render: Self.renderer(of: screen))
          windowKey = key
        }
      } catch {
        window = nil
        windowKey = nil
        throw error
      }
      guard let window else { return [] }
      return window.materializedPages.flatMap { page in
        (window.rows(ofPage: page) ?? []).enumerated().map { offset, visible in
          var row = visible.row
          row.position = page * pageSize + offset
          row.section = table.titleForHeader(inSection: visible.indexPath.section)
          return row
        }
      }
    }

    /// Draws an item: a result's row with its marks and typos, an original row as displayed.
    ///
    /// The position and section are the window's to set.
    private static func renderer(of screen: WebScreen) -> PagingWindow<WebRow>.Render {
      let corpus = screen.corpus
      let model = corpus.model
      guard let (query, scope) = screen.marking else {
        return { item in
          WebRow(position: 0, id: Int(item.rawValue), text: model.display(item), marks: [])
        }
      }
      return { item throws(RowAdapterError) in
        do throws(ICUError) {
          let marked = try corpus.markedRow(of: item, for: query, scope: scope)
          let typos = corpus.typos(of: item, for: query, scope: scope)
          return WebRow(
            position: 0, id: Int(item.rawValue), text: marked.text,
            marks: marked.utf16Marks.map { [$0.lowerBound, $0.upperBound] },
            typos: typos > 0 ? typos : nil)
        } catch {
          throw .failed(item: item, reason: error.description)
        }
      }
    }
  }
#endif
