// The names of the release before the curated API, for one release: each says its new name,
// which the compiler's fix-it writes. PublicSurfaceTests does not count them.

/// The old name of ``SearchEvent/Reload``.
@available(*, deprecated, renamed: "SearchEvent.Reload")
public typealias Reload = SearchEvent.Reload
/// The old name of ``SearchEvent/Trigger``.
@available(*, deprecated, renamed: "SearchEvent.Trigger")
public typealias SearchTrigger = SearchEvent.Trigger
/// The old name of ``SearchController/TableKind``.
@available(*, deprecated, renamed: "SearchController.TableKind")
public typealias TableKind = SearchController.TableKind
/// The old name of ``SearchController/ResultsTableState``.
@available(*, deprecated, renamed: "SearchController.ResultsTableState")
public typealias ResultsTableState = SearchController.ResultsTableState
/// The old name of ``SearchController/SearchBarState``.
@available(*, deprecated, renamed: "SearchController.SearchBarState")
public typealias SearchBarState = SearchController.SearchBarState
/// The old name of ``SearchController/ObservationToken``.
@available(*, deprecated, renamed: "SearchController.ObservationToken")
public typealias ObservationToken = SearchController.ObservationToken
/// The old name of ``SectionedTable/Sectioning``.
@available(*, deprecated, renamed: "SectionedTable.Sectioning")
public typealias Sectioning = SectionedTable.Sectioning
/// The old name of ``SectionedTable/RowOrder``.
@available(*, deprecated, renamed: "SectionedTable.RowOrder")
public typealias RowOrder = SectionedTable.RowOrder
/// The old name of ``SectionedTable/Collation``.
@available(*, deprecated, renamed: "SectionedTable.Collation")
public typealias TableCollation = SectionedTable.Collation
/// The old name of ``ItemSearch/Update``.
@available(*, deprecated, renamed: "ItemSearch.Update")
public typealias ItemSearchUpdate<
  Item: Identifiable & Sendable, Scope: Hashable & Sendable
> = ItemSearch<Item, Scope, Never>.Update where Item.ID: Sendable
/// The old name of ``TemplateRowAdapter/Link``.
@available(*, deprecated, renamed: "TemplateRowAdapter.Link")
public typealias LinkTemplate = TemplateRowAdapter.Link
/// The old name of ``SearchController/Update``.
@available(*, deprecated, renamed: "SearchController.Update")
public typealias SearchUpdate = SearchController.Update
/// The old name of ``SectionedTable/Error``.
@available(*, deprecated, renamed: "SectionedTable.Error")
public typealias TableError = SectionedTable.Error
/// The old name of ``SearchController/Error``.
@available(*, deprecated, renamed: "SearchController.Error")
public typealias SearchControllerError = SearchController.Error
/// The old name of ``PagingError``, which ``PagingWindow`` threw.
@available(*, deprecated, renamed: "PagingError")
public typealias PagingWindowError = PagingError
/// The old name of ``PagingError``, which ``BackendPagingWindow`` threw.
@available(*, deprecated, renamed: "PagingError")
public typealias BackendPagingError = PagingError
