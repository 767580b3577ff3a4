// The names of the release before the curated API, for one release: each says its new name,
// which the compiler's fix-it writes. `Query` and `Schema` were renamed because SwiftData has
// types of those names; SearchCore does not re-export these two, so that an app importing
// both modules can name SwiftData's.

/// The old name of ``SearchQuery``.
@available(*, deprecated, renamed: "SearchQuery")
public typealias Query = SearchQuery
/// The old name of ``SearchQuery/Syntax``.
@available(*, deprecated, renamed: "SearchQuery.Syntax")
public typealias QuerySyntax = SearchQuery.Syntax
/// The old name of ``SearchQuery/Completion``.
@available(*, deprecated, renamed: "SearchQuery.Completion")
public typealias Completion = SearchQuery.Completion
/// The old name of ``SearchModel``.
@available(*, deprecated, renamed: "SearchModel")
public typealias Model = SearchModel
/// The old name of ``SearchModel/Schema``.
@available(*, deprecated, renamed: "SearchModel.Schema")
public typealias Schema = SearchModel.Schema
/// The old name of ``ScopeBar/Scope``.
@available(*, deprecated, renamed: "ScopeBar.Scope")
public typealias Scope = ScopeBar.Scope
/// The old name of ``AttributeFilter/Condition``.
@available(*, deprecated, renamed: "AttributeFilter.Condition")
public typealias AttributeCondition = AttributeFilter.Condition
/// The old name of ``SearchResult/Highlight``.
@available(*, deprecated, renamed: "SearchResult.Highlight")
public typealias Highlight = SearchResult.Highlight
/// The old name of ``SearchModel/Change``.
@available(*, deprecated, renamed: "SearchModel.Change")
public typealias ModelChange = SearchModel.Change
/// The old name of ``SearchModel/Record``.
@available(*, deprecated, renamed: "SearchModel.Record")
public typealias ItemRecord = SearchModel.Record
/// The old name of ``SearchModel/Error``.
@available(*, deprecated, renamed: "SearchModel.Error")
public typealias ModelError = SearchModel.Error
/// The old name of ``SearchCorpus/Error``.
@available(*, deprecated, renamed: "SearchCorpus.Error")
public typealias CorpusError = SearchCorpus.Error
/// The old name of ``AttributeFilter/Error``.
@available(*, deprecated, renamed: "AttributeFilter.Error")
public typealias AttributeFilterError = AttributeFilter.Error
/// The old name of ``TypoTolerance/Error``.
@available(*, deprecated, renamed: "TypoTolerance.Error")
public typealias TypoToleranceError = TypoTolerance.Error
