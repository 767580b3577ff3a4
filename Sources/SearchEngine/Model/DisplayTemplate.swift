/// A `{name}` template parsed once against a schema, so that rendering a row is a walk over
/// literal text and column reads.
///
/// A name is a field (its values joined with ", ") or else an attribute. ``SearchModel/display(_:)`` and
/// the row adapters render with it.
///
/// `[` and `]` enclose an optional group, `{name}[ ({company})]`: the group is left out
/// entirely when every placeholder inside it renders empty (a field with no values or only
/// empty ones, an empty attribute, any placeholder of an item that is not in the model); text
/// outside groups always shows. Groups do not nest, and a group needs a placeholder (without
/// one it would never show). `[[` is a literal `[` and `]]` a literal `]`, inside a group or
/// out, read from left to right: `[[{kind}]]` shows "[video]", and `[{a}]]]` is a group that
/// ends with a literal "]".
package struct ParsedTemplate: Sendable, Hashable {
  package enum Part: Sendable, Hashable {
    case text(String)
    case field(Int, name: String)
    case attribute(Int, name: String)
    /// Parts shown only when one of their placeholders renders something; never a group.
    case group([Part])
  }

  /// What is wrong with a template, and where (columns count characters from 1).
  package enum Problem {
    case unknownName(String)
    case unclosedPlaceholder
    case unclosedGroup(column: Int)
    case unopenedGroup(column: Int)
    case nestedGroup(column: Int)
    case groupWithoutPlaceholder(column: Int)
  }

  package let parts: [Part]

  /// Throws for unknown names, unclosed braces and malformed groups, at the first problem: a
  /// template is written by a programmer, so a typo should stop them at once rather than show
  /// "{auhtor}" in every row.
  package init(_ template: String, schema: SearchModel.Schema) throws(RowAdapterError) {
    var first: Problem?
    self.init(template, schema: schema) { problem in
      if first == nil { first = problem }
    }
    guard let first else { return }
    switch first {
    case .unknownName(let name):
      throw .unknownPlaceholder(
        name, template: template, fields: schema.fields.map(\.name),
        attributes: schema.attributes)
    case .unclosedPlaceholder:
      throw .unclosedPlaceholder(template: template)
    case .unclosedGroup(let column):
      throw .unclosedGroup(template: template, column: column)
    case .unopenedGroup(let column):
      throw .unopenedGroup(template: template, column: column)
    case .nestedGroup(let column):
      throw .nestedGroup(template: template, column: column)
    case .groupWithoutPlaceholder(let column):
      throw .groupWithoutPlaceholder(template: template, column: column)
    }
  }

  /// Keeps what it cannot read as text: a display template from a data file shows what it
  /// cannot fill rather than failing every row.
  ///
  /// An unknown name stays `{name}`; an unclosed brace and the rest of the template stay text; a
  /// `[` that is never closed, or opens a group inside a group, and a `]` that closes no group are
  /// literal brackets (the parts after an unclosed `[` always show); a group without a placeholder
  /// is literal text, brackets included.
  package init(lenient template: String, schema: SearchModel.Schema) {
    self.init(template, schema: schema) { _ in }
  }

  /// Parses; `report` hears of each problem, and what caused it is kept as text.
  private init(_ template: String, schema: SearchModel.Schema, report: (Problem) -> Void) {
    var builder = Builder()
    // Scalar by scalar: "}" followed by a combining mark or a skin-tone modifier is one
    // Character, and the brace must still close its placeholder.
    let scalars = template.unicodeScalars
    func text(_ range: some RangeExpression<String.Index>) -> String {
      String(Substring(scalars[range]))
    }
    // Columns count characters, as a person sees the template.
    func column(_ index: String.Index) -> Int { Substring(scalars[..<index]).count + 1 }
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let next = scalars.index(after: index)
      let doubled = next < scalars.endIndex && scalars[next] == scalar
      switch scalar {
      case "{":
        guard let close = scalars[next...].firstIndex(of: "}") else {
          report(.unclosedPlaceholder)
          builder.append(text: text(index...))
          index = scalars.endIndex
          continue
        }
        let name = text(next..<close)
        if let field = schema.fieldIndex(named: name) {
          builder.append(.field(field, name: name))
        } else if let attribute = schema.attributeIndex(named: name) {
          builder.append(.attribute(attribute, name: name))
        } else {
          report(.unknownName(name))
          builder.append(text: text(index...close))
        }
        index = scalars.index(after: close)
        continue
      case "[" where doubled, "]" where doubled:
        builder.append(text: String(scalar))
        index = scalars.index(after: next)
        continue
      case "[" where builder.isInGroup:
        report(.nestedGroup(column: column(index)))
        builder.append(text: "[")
      case "[":
        builder.openGroup(column: column(index))
      case "]" where builder.isInGroup:
        if let opened = builder.closeGroup() { report(.groupWithoutPlaceholder(column: opened)) }
      case "]":
        report(.unopenedGroup(column: column(index)))
        builder.append(text: "]")
      default:
        builder.append(text: String(scalar))
      }
      index = next
    }
    if let opened = builder.abandonGroup() { report(.unclosedGroup(column: opened)) }
    parts = builder.parts
  }

  /// Collects parts, merging adjacent text, with at most one group open.
  private struct Builder {
    var parts: [Part] = []
    /// The open group's parts.
    private var groupParts: [Part] = []
    /// The column of the open group's `[`; nil when no group is open.
    private var groupColumn: Int?

    var isInGroup: Bool { groupColumn != nil }

    mutating func append(text: some StringProtocol) {
      guard !text.isEmpty else { return }
      append(.text(String(text)))
    }

    mutating func append(_ part: Part) {
      if isInGroup { Self.append(part, to: &groupParts) } else { Self.append(part, to: &parts) }
    }

    mutating func openGroup(column: Int) {
      groupParts = []
      groupColumn = column
    }

    /// Closes the open group; returns its column when it holds no placeholder, in which case
    /// it stays as literal text, brackets included.
    mutating func closeGroup() -> Int? {
      guard let column = groupColumn else { return nil }
      groupColumn = nil
      if groupParts.contains(where: \.isPlaceholder) {
        parts.append(.group(groupParts))
        return nil
      }
      for part in [.text("[")] + groupParts + [.text("]")] { Self.append(part, to: &parts) }
      return column
    }

    /// At the end of the template: a group still open becomes its `[` and its parts, always
    /// shown; returns its column.
    mutating func abandonGroup() -> Int? {
      guard let column = groupColumn else { return nil }
      groupColumn = nil
      for part in [.text("[")] + groupParts { Self.append(part, to: &parts) }
      return column
    }

    private static func append(_ part: Part, to parts: inout [Part]) {
      if case .text(let more) = part, case .text(let text)? = parts.last {
        parts[parts.count - 1] = .text(text + more)
      } else {
        parts.append(part)
      }
    }
  }

  /// Renders an item, passing each placeholder's value through `transform`.
  ///
  /// The model may have another schema than the one the template was parsed against: a name
  /// whose index moved is looked up again, and a name the model lacks is written back as
  /// `{name}` (as ``SearchModel/display(_:)`` does), so a mismatch shows rather than crashes.
  /// Placeholders of an item that is not in the model are empty.
  package func render(_ item: ItemID, in model: SearchModel, transform: (String) -> String)
    -> String
  {
    var result = ""
    walk(
      item, in: model, text: { result += $0 },
      field: { _, values in result += transform(values.joined(separator: ", ")) },
      attribute: { result += transform($0) })
    return result
  }

  /// Walks an item's rendering part by part: literal text (and `{name}` for a name the
  /// model lacks), a field's values with the field's index, an attribute's value.
  ///
  /// A group whose placeholders all render empty is skipped whole; a name the model lacks renders
  /// `{name}`, which is not empty.
  package func walk(
    _ item: ItemID, in model: SearchModel, text: (String) -> Void, field: (Int, [String]) -> Void,
    attribute: (String) -> Void
  ) {
    let known = model.contains(item)
    func emit(_ piece: Piece) {
      switch piece {
      case .text(let literal), .missing(let literal): text(literal)
      case .field(let index, let values): field(index, values)
      case .attribute(let value): attribute(value)
      case .nothing: break
      }
    }
    for part in parts {
      guard case .group(let inner) = part else {
        emit(Self.piece(part, of: item, in: model, known: known))
        continue
      }
      let pieces = inner.map { Self.piece($0, of: item, in: model, known: known) }
      if pieces.contains(where: \.isFilled) { pieces.forEach(emit) }
    }
  }

  /// One part of one item's rendering, read from the model.
  private enum Piece {
    case text(String)
    /// `{name}` for a name the model lacks.
    case missing(String)
    case field(Int, [String])
    case attribute(String)
    /// A placeholder of an item that is not in the model.
    case nothing

    /// Whether a placeholder renders something, which makes its group show.
    var isFilled: Bool {
      switch self {
      case .text, .nothing: false
      case .missing: true
      case .field(_, let values): values.contains { !$0.isEmpty }
      case .attribute(let value): !value.isEmpty
      }
    }
  }

  private static func piece(_ part: Part, of item: ItemID, in model: SearchModel, known: Bool)
    -> Piece
  {
    let schema = model.schema
    switch part {
    case .text(let literal):
      return .text(literal)
    case .field(let index, let name):
      let resolved =
        index < schema.fields.count && schema.fields[index].name == name
        ? index : schema.fieldIndex(named: name)
      guard let resolved else { return .missing("{\(name)}") }
      return known ? .field(resolved, model.values(of: item, field: resolved)) : .nothing
    case .attribute(let index, let name):
      let resolved =
        index < schema.attributes.count && schema.attributes[index] == name
        ? index : schema.attributeIndex(named: name)
      guard let resolved else { return .missing("{\(name)}") }
      return known ? .attribute(model.attribute(resolved, of: item)) : .nothing
    case .group:
      preconditionFailure("ParsedTemplate: groups do not nest")
    }
  }
}

extension ParsedTemplate.Part {
  /// Whether the part is a field or an attribute.
  fileprivate var isPlaceholder: Bool {
    switch self {
    case .field, .attribute: true
    case .text, .group: false
    }
  }
}
