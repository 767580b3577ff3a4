import SearchEngine

/// The search controller's decisions as a pure state machine: inputs (user actions, the
/// delegate's answers, finished searches, timers) in, actions out.
///
/// No I/O, no clock, no threads: ``SearchController`` performs the actions, and the tests drive
/// this type alone.
///
/// ```
///  begin / text / scope / button / cancel ──► handle ──► [emit, askDelegate, search, …]
///                       delegate's answer ──► handle ──► [search now | background | timer]
///          search finished (generation g) ──► handle ──► [install g, emit reload] or [discard g]
/// ```
///
/// Every request (a change of text or scope, a begin that asks the delegate, the search button,
/// cancel or end, a model change) takes a new generation. A search carries the generation of its
/// request; when it finishes, its results are installed only if no newer request came since,
/// otherwise they are discarded and never shown. A generation names one set of rows
/// (``displayed``): no search ever runs under the generation of rows already on screen.
package struct SearchStateMachine: Sendable {
  /// One search to run: the text and scope of a request and its generation.
  public struct Request: Hashable, Sendable {
    /// The generation of the request.
    public var generation: Int
    /// The search text.
    public var text: String
    /// The scope index.
    public var scope: Int
    /// The attribute conditions of the search field's tokens.
    public var filter: AttributeFilter = .none
  }

  /// What happens to the machine.
  public enum Input: Hashable, Sendable {
    /// The bar gets focus.
    case begin
    /// The text changes (typed, pasted or set in code).
    case setText(String)
    /// A scope button is selected.
    case selectScope(Int)
    /// The tokens in the field change: their attribute conditions.
    case setFilter(AttributeFilter)
    /// The search button is pressed.
    case searchButton
    /// The cancel button is pressed.
    case cancel
    /// The search ends without the cancel button (`isActive = false` in code); the text stays.
    case end
    /// The delegate's answer to the last ``Action/askDelegate(_:)``; nil lets the default
    /// policy decide.
    case delegateAnswered(SearchEvent.Reload?)
    /// A search finished with this many rows (`rows` nil: it stopped because it was
    /// superseded, or failed).
    case searchFinished(generation: Int, rows: Int?)
    /// The quiet interval scheduled for a generation elapsed.
    case quietIntervalElapsed(generation: Int)
    /// The model changed.
    case modelChanged
    /// After a model change, the displayed results were re-evaluated: this many rows.
    case resultsRefreshed(generation: Int, rows: Int)
    /// The list wants more of the displayed results, which a backend sent only in part: their
    /// query runs again in the background, for more rows, under a new generation.
    case loadMore
  }

  /// What the driver must do, in order.
  public enum Action: Hashable, Sendable {
    /// Tell observers.
    case emit(SearchEvent)
    /// Ask the delegate whether to reload (`shouldReloadForSearchString` /
    /// `shouldReloadForSearchScope`), then feed its answer back as
    /// ``Input/delegateAnswered(_:)``.
    case askDelegate(SearchEvent.Trigger)
    /// Run a search inside this call and feed ``Input/searchFinished(generation:rows:)`` back
    /// before doing anything else.
    case searchNow(Request)
    /// Start a search in the background; feed its end back when it finishes.
    case searchInBackground(Request)
    /// Stop the background search of a superseded generation (between chunks).
    case cancelSearch(generation: Int)
    /// Call back with ``Input/quietIntervalElapsed(generation:)`` after this long.
    case scheduleQuietInterval(generation: Int, after: Duration)
    /// Show the results of this generation in the results table.
    case install(generation: Int)
    /// Drop the results of a generation that is no longer the newest.
    case discard(generation: Int)
    /// Empty the results table (below the threshold, dimmed, ended).
    case clearResults
    /// Re-evaluate the changed items in the displayed results, then feed
    /// ``Input/resultsRefreshed(generation:rows:)`` back.
    case refreshResults(generation: Int)
  }

  /// What is running or waiting for a generation.
  enum Pending: Hashable, Sendable {
    /// The quiet interval of a request is running.
    case waiting(Request)
    /// A background search runs.
    case running(Request)
    /// A search runs inside the current call.
    case runningNow(Request, SearchEvent.Reload)
  }

  /// The bar: text, placeholder, scopes, selection, active.
  public internal(set) var bar: SearchController.SearchBarState
  /// When searches run.
  public var configuration: SearchConfiguration
  /// The newest request's generation.
  public private(set) var generation = 0
  /// What the results table shows.
  public private(set) var state: SearchController.ResultsTableState = .hidden
  /// Whether the results table exists (loaded during a search).
  public private(set) var isResultsTableLoaded = false
  /// The generation of the results in the results table, if any.
  public private(set) var installedGeneration: Int?
  /// The request the rows on screen answer, whose generation names them: the search whose
  /// results are shown, else the request that last set what is on screen (the text below the
  /// minimum length, the empty text of the dimmed state, the end of the search), with the
  /// generation of the last model change since.
  public private(set) var displayed = Request(generation: 0, text: "", scope: 0)
  /// A search that runs or waits.
  private(set) var pending: Pending?
  /// The question put to the delegate, waiting for its answer.
  private var question: (trigger: SearchEvent.Trigger, request: Request)?

  /// Creates a machine for a bar and a configuration.
  public init(bar: SearchController.SearchBarState, configuration: SearchConfiguration) {
    self.bar = bar
    self.configuration = configuration
  }

  /// Whether a search is running or waiting for its quiet interval.
  public var isSearchPending: Bool { pending != nil }

  /// Feeds one input; returns what to do, in order.
  public mutating func handle(_ input: Input) -> [Action] {
    switch input {
    case .begin: return begin()
    case .setText(let text): return change(text: text)
    case .selectScope(let scope): return change(scope: scope)
    case .setFilter(let filter): return change(filter: filter)
    case .searchButton: return searchButton()
    case .cancel: return end(cancelled: true)
    case .end: return end(cancelled: false)
    case .delegateAnswered(let answer): return decide(answer)
    case .searchFinished(let generation, let rows): return finish(generation, rows: rows)
    case .quietIntervalElapsed(let generation): return quietIntervalElapsed(generation)
    case .modelChanged: return modelChanged()
    case .loadMore: return loadMore()
    case .resultsRefreshed(let generation, let rows):
      // The refresh belongs to the model change that asked for it, in the same call: a search
      // restarted by that change may already have taken a newer generation.
      guard installedGeneration != nil else { return [] }
      installedGeneration = generation
      displayed.generation = generation
      return show(.resultsState(rows: rows))
    }
  }

  // MARK: Requests

  private mutating func begin() -> [Action] {
    guard !bar.isActive else { return [] }
    bar.isActive = true
    var actions: [Action] = [.emit(.willBeginSearch), .emit(.didBeginSearch)]
    if isDimmed {
      displayed = currentRequest
      actions += show(.dimmed)
    } else {
      // A request: its search must not carry the generation of the rows shown since the end.
      actions += supersede()
      actions += ask(.begin)
    }
    return actions
  }

  private mutating func change(text: String) -> [Action] {
    bar.text = text
    var actions = supersede()
    actions.append(.emit(.textDidChange(text)))
    guard bar.isActive else { return actions }
    return actions + ask(.searchString(text))
  }

  private mutating func change(scope: Int) -> [Action] {
    bar.selectedScope = scope
    var actions = supersede()
    actions.append(.emit(.scopeDidChange(scope)))
    guard bar.isActive else { return actions }
    return actions + ask(.searchScope(scope))
  }

  private mutating func change(filter: AttributeFilter) -> [Action] {
    bar.filter = filter
    var actions = supersede()
    actions.append(.emit(.filterDidChange(filter)))
    guard bar.isActive else { return actions }
    return actions + ask(.searchFilter(filter))
  }

  private mutating func searchButton() -> [Action] {
    var actions: [Action] = [.emit(.searchButtonClicked)]
    guard bar.isActive, configuration.mode == .onSubmit else { return actions }
    actions += supersede()
    let request = currentRequest
    if let missing = missingCharacters() {
      actions.append(.emit(.decision(.searchButton, reload: .none, generation: generation)))
      displayed = request
      return actions + clear() + show(.belowThreshold(missing: missing))
    }
    if isDimmed {
      actions.append(.emit(.decision(.searchButton, reload: .none, generation: generation)))
      displayed = request
      return actions + clear() + show(.dimmed)
    }
    pending = .runningNow(request, .now)
    question = (.searchButton, request)
    return actions + [.searchNow(request)]
  }

  private mutating func end(cancelled: Bool) -> [Action] {
    guard bar.isActive else { return cancelled ? [.emit(.cancelButtonClicked)] : [] }
    var actions: [Action] = cancelled ? [.emit(.cancelButtonClicked)] : []
    actions.append(.emit(.willEndSearch))
    actions += supersede()
    question = nil
    if cancelled { bar.text = "" }
    if state.showsResultsTable {
      actions += [.emit(.willHideResultsTable), .emit(.didHideResultsTable)]
    }
    if isResultsTableLoaded {
      actions.append(.emit(.willUnloadResultsTable))
      isResultsTableLoaded = false
    }
    actions += clear()
    bar.isActive = false
    displayed = currentRequest
    state = .hidden
    actions += [.emit(.stateDidChange(.hidden)), .emit(.didEndSearch)]
    return actions
  }

  private mutating func modelChanged() -> [Action] {
    let restarted = pending.flatMap { pending -> Request? in
      switch pending {
      case .waiting(let request), .running(let request), .runningNow(let request, _): request
      }
    }
    // A generation names one set of rows. The rows on screen change, searching or not, and
    // take one: the displayed results, refreshed for the change, or the table on screen. A
    // search restarted by the change takes the next, since its rows will be others.
    var actions = supersede()
    if installedGeneration != nil {
      actions.append(.refreshResults(generation: generation))
    } else {
      displayed.generation = generation
    }
    if let restarted {
      // The search in flight read the model before the change: run it again on the new one.
      generation += 1
      let request = Request(
        generation: generation, text: restarted.text, scope: restarted.scope,
        filter: restarted.filter)
      pending = .running(request)
      actions.append(.searchInBackground(request))
    }
    return actions
  }

  private mutating func loadMore() -> [Action] {
    // Nothing to extend, or a search under way whose rows will replace these anyway.
    guard bar.isActive, installedGeneration != nil, pending == nil else { return [] }
    generation += 1
    let request = Request(
      generation: generation, text: displayed.text, scope: displayed.scope,
      filter: displayed.filter)
    pending = .running(request)
    return [.searchInBackground(request)]
  }

  /// Starts a new generation; stops whatever ran for the old one.
  private mutating func supersede() -> [Action] {
    generation += 1
    defer { pending = nil }
    switch pending {
    case .running(let request): return [.cancelSearch(generation: request.generation)]
    case .runningNow, .waiting, nil: return []
    }
  }

  // MARK: Decisions

  private mutating func ask(_ trigger: SearchEvent.Trigger) -> [Action] {
    question = (trigger, currentRequest)
    return [.askDelegate(trigger)]
  }

  /// The newest request: the bar's text, scope and tokens under the newest generation.
  private var currentRequest: Request {
    Request(
      generation: generation, text: bar.text, scope: bar.selectedScope, filter: bar.filter)
  }

  private mutating func decide(_ answer: SearchEvent.Reload?) -> [Action] {
    guard let (trigger, request) = question, request.generation == generation else { return [] }
    question = nil
    let reload = answer ?? defaultAnswer()
    var actions: [Action] = [.emit(.decision(trigger, reload: reload, generation: generation))]
    switch reload {
    case .none:
      // Nothing runs; the table follows the text only where nothing needs searching.
      if let missing = missingCharacters() {
        displayed = request
        actions += clear() + show(.belowThreshold(missing: missing))
      } else if isDimmed {
        displayed = request
        actions += clear() + show(.dimmed)
      }
    case .now:
      pending = .runningNow(request, .now)
      actions.append(.searchNow(request))
    case .deferred:
      if let interval = configuration.coalescingInterval {
        pending = .waiting(request)
        actions.append(.scheduleQuietInterval(generation: request.generation, after: interval))
      } else {
        pending = .running(request)
        actions.append(.searchInBackground(request))
      }
    }
    return actions
  }

  /// The answer when the delegate gives none: below the minimum length, or with nothing to
  /// search for (dimmed), or in the search-button-only mode, *no*; otherwise search now, or in
  /// the background (also when coalescing keystrokes).
  private func defaultAnswer() -> SearchEvent.Reload {
    if missingCharacters() != nil || isDimmed || configuration.mode == .onSubmit { return .none }
    if configuration.mode == .background || configuration.coalescingInterval != nil {
      return .deferred
    }
    return .now
  }

  /// How many more characters the text needs, or nil when it is empty or long enough.
  private func missingCharacters() -> Int? {
    let length = bar.text.trimmingWhitespace().count
    guard length > 0, length < configuration.minimumLength else { return nil }
    return configuration.minimumLength - length
  }

  /// Whether there is nothing to search for: empty text (or only white space, which does not
  /// count towards the minimum length either), the scope "All" and no token.
  private var isDimmed: Bool {
    bar.text.trimmingWhitespace().isEmpty && bar.selectedScope == 0 && bar.filter.isEmpty
  }

  // MARK: Completions

  private mutating func quietIntervalElapsed(_ generation: Int) -> [Action] {
    guard case .waiting(let request) = pending, request.generation == generation,
      generation == self.generation
    else { return [] }
    if configuration.mode == .background {
      pending = .running(request)
      return [.searchInBackground(request)]
    }
    pending = .runningNow(request, .deferred)
    return [.searchNow(request)]
  }

  private mutating func finish(_ generation: Int, rows: Int?) -> [Action] {
    let reload: SearchEvent.Reload
    let searched: Request
    switch pending {
    case .running(let request) where request.generation == generation:
      (reload, searched) = (.deferred, request)
    case .runningNow(let request, let kind) where request.generation == generation:
      (reload, searched) = (kind, request)
    default: return [.discard(generation: generation)]
    }
    pending = nil
    var actions: [Action] = []
    if let (trigger, request) = question, request.generation == generation {
      // The search button's answer is known only now that its search ran.
      question = nil
      actions.append(.emit(.decision(trigger, reload: .now, generation: generation)))
    }
    guard let rows, generation == self.generation, bar.isActive else {
      return actions + [.discard(generation: generation)]
    }
    installedGeneration = generation
    displayed = searched
    actions.append(.install(generation: generation))
    actions += show(.resultsState(rows: rows))
    actions.append(.emit(.reload(reload, generation: generation, rows: rows)))
    return actions
  }

  // MARK: The results table

  private mutating func clear() -> [Action] {
    installedGeneration = nil
    return [.clearResults]
  }

  /// Moves to a state, with the load, show and hide events that go with it.
  private mutating func show(_ next: SearchController.ResultsTableState) -> [Action] {
    var actions: [Action] = []
    if next.showsResultsTable && !state.showsResultsTable {
      if !isResultsTableLoaded {
        isResultsTableLoaded = true
        actions.append(.emit(.didLoadResultsTable))
      }
      actions += [.emit(.willShowResultsTable), .emit(.didShowResultsTable)]
    } else if !next.showsResultsTable && state.showsResultsTable {
      actions += [.emit(.willHideResultsTable), .emit(.didHideResultsTable)]
    }
    if next != state {
      state = next
      actions.append(.emit(.stateDidChange(next)))
    }
    return actions
  }
}

extension SearchController.ResultsTableState {
  /// The state of a results table with this many rows.
  static func resultsState(rows: Int) -> SearchController.ResultsTableState {
    rows == 0 ? .noResults : .rows(rows)
  }
}

extension String {
  /// The text without white space at either end.
  func trimmingWhitespace() -> Substring {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
    return self[start..<max(start, end)]
  }
}
