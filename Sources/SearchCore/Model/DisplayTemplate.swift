/// A `{name}` template parsed once against a schema, so that rendering a row is a walk over
/// literal text and column reads. A name is a field (its values joined with ", ") or else an
/// attribute. ``Model/display(_:)`` and the row adapters render with it.
struct ParsedTemplate: Sendable, Hashable {
  enum Part: Sendable, Hashable {
    case text(String)
    case field(Int, name: String)
    case attribute(Int, name: String)
  }

  let parts: [Part]

  /// Throws for unknown names and unclosed braces: a template is written by a programmer, so
  /// a typo should stop them at once rather than show "{auhtor}" in every row.
  init(_ template: String, schema: Schema) throws(RowAdapterError) {
    var problem: RowAdapterError?
    self.init(template, schema: schema) { name in
      if problem == nil {
        problem =
          name.map {
            .unknownPlaceholder(
              $0, template: template, fields: schema.fields.map(\.name),
              attributes: schema.attributes)
          } ?? .unclosedPlaceholder(template: template)
      }
    }
    if let problem { throw problem }
  }

  /// Keeps unknown names and an unclosed brace as text: a display template from a data file
  /// shows what it cannot fill rather than failing every row.
  init(lenient template: String, schema: Schema) {
    self.init(template, schema: schema) { _ in }
  }

  /// Parses; `unknown` hears of each unknown name, and of an unclosed brace (nil), both of
  /// which are kept as text.
  private init(_ template: String, schema: Schema, unknown: (String?) -> Void) {
    var parts: [Part] = []
    var rest = template[...]
    while let open = rest.firstIndex(of: "{") {
      if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
      guard let close = rest[open...].firstIndex(of: "}") else {
        unknown(nil)
        rest = rest[open...]
        break
      }
      let name = String(rest[rest.index(after: open)..<close])
      if let field = schema.fieldIndex(named: name) {
        parts.append(.field(field, name: name))
      } else if let attribute = schema.attributeIndex(named: name) {
        parts.append(.attribute(attribute, name: name))
      } else {
        unknown(name)
        parts.append(.text(String(rest[open...close])))
      }
      rest = rest[rest.index(after: close)...]
    }
    if !rest.isEmpty { parts.append(.text(String(rest))) }
    self.parts = parts
  }

  /// Renders an item, passing each placeholder's value through `transform`.
  ///
  /// The model may have another schema than the one the template was parsed against: a name
  /// whose index moved is looked up again, and a name the model lacks is written back as
  /// `{name}` (as ``Model/display(_:)`` does), so a mismatch shows rather than crashes.
  /// Placeholders of an item that is not in the model are empty.
  func render(_ item: ItemID, in model: Model, transform: (String) -> String) -> String {
    var result = ""
    walk(
      item, in: model, text: { result += $0 },
      field: { _, values in result += transform(values.joined(separator: ", ")) },
      attribute: { result += transform($0) })
    return result
  }

  /// Walks an item's rendering part by part: literal text (and `{name}` for a name the
  /// model lacks), a field's values with the field's index, an attribute's value.
  func walk(
    _ item: ItemID, in model: Model, text: (String) -> Void, field: (Int, [String]) -> Void,
    attribute: (String) -> Void
  ) {
    let schema = model.schema
    let known = model.contains(item)
    for part in parts {
      switch part {
      case .text(let literal):
        text(literal)
      case .field(let index, let name):
        let resolved =
          index < schema.fields.count && schema.fields[index].name == name
          ? index : schema.fieldIndex(named: name)
        guard let resolved else {
          text("{\(name)}")
          continue
        }
        if known { field(resolved, model.values(of: item, field: resolved)) }
      case .attribute(let index, let name):
        let resolved =
          index < schema.attributes.count && schema.attributes[index] == name
          ? index : schema.attributeIndex(named: name)
        guard let resolved else {
          text("{\(name)}")
          continue
        }
        if known { attribute(model.attribute(resolved, of: item)) }
      }
    }
  }
}
