import SearchEngine

/// The tokens a search field offers over the app's items (SwiftUI's `searchable(text:tokens:
/// suggestedTokens:)`, UIKit's `UISearchToken`): values of the app's own token type, each
/// standing for an ``ItemFilter``.
///
/// Tokens in the field combine with each other, the text and the scope: every result meets them
/// all.
///
/// ```swift
/// enum ContactToken: Hashable, Identifiable, Sendable {
///   case group(Group), hasBirthday
///   var id: Self { self }
/// }
/// let tokens = ItemTokens<Contact, ContactToken>(
///   Group.allCases.map(ContactToken.group) + [.hasBirthday],
///   title: { token in
///     switch token {
///     case .group(let group): group.rawValue.capitalized
///     case .hasBirthday: "Has a birthday"
///     }
///   },
///   filter: { token in
///     switch token {
///     case .group(let group): .equals(\.group, group)
///     case .hasBirthday: .isPresent(\.birthday)
///     }
///   })
/// ```
public struct ItemTokens<Item, Token: Identifiable & Hashable & Sendable>: Sendable {
  /// The tokens offered: what ``ItemSearch/suggestedTokens`` draws from.
  ///
  /// Their filters name every key path a token may test, which the search reads from each item when
  /// it indexes it; a token outside this list may be put in the field if its filter tests a key
  /// path that a listed token's filter tests, the same way.
  public let tokens: [Token]
  /// A token's title, as the field shows it and as suggestions match it.
  public let title: @Sendable (Token) -> String
  /// The condition a token stands for.
  public let filter: @Sendable (Token) -> ItemFilter<Item>

  /// Tokens with their titles and conditions.
  ///
  /// - Parameters:
  ///   - tokens: The tokens offered, in the order suggestions list them.
  ///   - title: A token's title ("Work", "Has a birthday").
  ///   - filter: The condition a token stands for; it runs when a token is put in the field,
  ///     never per item.
  public init(
    _ tokens: [Token], title: @escaping @Sendable (Token) -> String,
    filter: @escaping @Sendable (Token) -> ItemFilter<Item>
  ) {
    self.tokens = tokens
    self.title = title
    self.filter = filter
  }

  /// The attributes the listed tokens' filters test, each once, in the order first named.
  var attributes: [TokenAttribute<Item>] {
    var seen: Set<TokenAttribute<Item>.Key> = []
    return tokens.map { filter($0).attribute }.filter { seen.insert($0.key).inserted }
  }
}

extension ItemTokens where Token == Never {
  /// No tokens.
  public static var none: ItemTokens {
    ItemTokens([], title: Self.unreachable, filter: Self.unreachable)
  }

  private static func unreachable<Result>(_ token: Never) -> Result {
  }
}
