import SearchEngine

/// Turns one model item into the row a front shows for it: the adapter of the "adapter
/// pattern" for table cells, so that a table of heterogeneous items (text messages, photos,
/// links) needs no `switch` over kinds.
///
/// An adapter is a value, shared between threads; it reads the item from the model it is
/// given and must not fail: whatever can be wrong with its configuration is checked when it
/// is made (see ``TemplateRowAdapter``). The item must be in the model;
/// ``RowAdapterRegistry`` checks that before it asks an adapter.
public protocol RowAdapter<Row>: Sendable {
  /// What the adapter makes: a string, a cell's view model …
  associatedtype Row
  /// The row for an item of a model.
  func row(for item: ItemID, in model: SearchModel) -> Row
}

/// A row adapter that renders a `{field}`/`{attribute}` template, such as
/// `"{author} sent a photo: {caption}"`.
///
/// Placeholders are resolved as ``/SearchEngine/SearchModel/display(_:)`` resolves them: a field first (its values
/// joined with ", "), then an attribute. An optional group in brackets is left out when all
/// its placeholders are empty: `"{name}[ ({company})]"` shows "Fox Mulder" rather than
/// "Fox Mulder ()"; `[[` and `]]` are literal brackets (see ``/SearchEngine/SearchModel/display(_:)``). Unlike the
/// display template, an unknown name or a malformed group is an error when the adapter is
/// made, not text left in every row.
public struct TemplateRowAdapter: RowAdapter {
  /// The template as written.
  public let template: String
  let parsed: ParsedTemplate

  /// Parses a template against the schema of the models it will render.
  ///
  /// Throws ``/SearchEngine/RowAdapterError/unknownPlaceholder(_:template:fields:attributes:)`` for a name
  /// that is neither a field nor an attribute,
  /// ``/SearchEngine/RowAdapterError/unclosedPlaceholder(template:)`` for a `{` without its `}`, and
  /// ``/SearchEngine/RowAdapterError/unclosedGroup(template:column:)``,
  /// ``/SearchEngine/RowAdapterError/unopenedGroup(template:column:)``,
  /// ``/SearchEngine/RowAdapterError/nestedGroup(template:column:)`` or
  /// ``/SearchEngine/RowAdapterError/groupWithoutPlaceholder(template:column:)`` for brackets that do not
  /// make a group; the first problem of the template is reported.
  public init(_ template: String, schema: SearchModel.Schema) throws(RowAdapterError) {
    self.template = template
    parsed = try ParsedTemplate(template, schema: schema)
  }

  /// The template with the item's values in place of the placeholders.
  public func row(for item: ItemID, in model: SearchModel) -> String {
    parsed.render(item, in: model) { $0 }
  }
}

extension TemplateRowAdapter {
  /// A row adapter that builds a link (a detail page's URL) from a template such as
  /// `"https://twitter.com/{author}/status/{id}"`.
  ///
  /// Optional groups work as in ``TemplateRowAdapter``, so a literal `[` or `]` (an IPv6 host)
  /// is written `[[` or `]]`. The template's own text is kept as written; each placeholder's
  /// value is percent-encoded as
  /// a URL component: every byte of its UTF-8 but the unreserved characters of RFC 3986
  /// (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`. So ASCII handles and numeric ids pass unchanged,
  /// while a `/`, `?`, `#` or space in a value cannot change the link's structure.
  public struct Link: RowAdapter {
    /// The template as written.
    public let template: String
    let parsed: ParsedTemplate

    /// Parses a link template against the schema of the models it will render; unknown
    /// placeholders throw as ``TemplateRowAdapter/init(_:schema:)`` does.
    public init(_ template: String, schema: SearchModel.Schema) throws(RowAdapterError) {
      self.template = template
      parsed = try ParsedTemplate(template, schema: schema)
    }

    /// The link for an item.
    public func row(for item: ItemID, in model: SearchModel) -> String {
      parsed.render(item, in: model, transform: Self.percentEncoded)
    }

    /// A value encoded for any part of a URL: all but RFC 3986's unreserved characters become
    /// `%XX` (upper-case hex) of their UTF-8 bytes.
    public static func percentEncoded(_ value: String) -> String {
      let hex = Array("0123456789ABCDEF".utf8)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(value.utf8.count)
      for byte in value.utf8 {
        if isUnreserved(byte) {
          bytes.append(byte)
        } else {
          bytes.append(UInt8(ascii: "%"))
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 0x0F)])
        }
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
      case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        return true
      default:
        return false
      }
    }
  }
}

/// A row adapter made from a closure, for rows that no template describes (a cell's view
/// model, a formatted date).
package struct ClosureRowAdapter<Row>: RowAdapter {
  private let make: @Sendable (ItemID, SearchModel) -> Row

  /// Wraps a closure that makes the row of an item of a model.
  public init(_ make: @escaping @Sendable (ItemID, SearchModel) -> Row) { self.make = make }

  /// The closure's row for the item.
  public func row(for item: ItemID, in model: SearchModel) -> Row { make(item, model) }
}
