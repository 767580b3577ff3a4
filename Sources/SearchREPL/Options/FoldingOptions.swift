import ArgumentParser
import SearchCore
import SearchEngine

/// `--fold` and `--locale`, read the same way by every command that folds text.
struct FoldingOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "What matching ignores, as a change to the default (case,diacritics,compatibility): "
        + "options to add (latin, dotless-i), -OPTION to take one away (-case), or none.",
      valueName: "list"))
  var fold: String?

  @Option(help: "Locale whose case rules and collation apply: tr, sv, de_AT, root.")
  var locale: String?

  func validate() throws {
    _ = try folding()
    _ = try checkedLocale()
  }

  /// The folding asked for.
  func folding() throws(CommandError) -> Folding { try Self.folding(fold) }

  /// The folding a `--fold` list asks for: a change to the default.
  static func folding(_ fold: String?) throws(CommandError) -> Folding {
    guard let fold else { return .default }
    do { return try Folding(changing: .default, by: fold) } catch {
      throw CommandError("--fold: \(error.description)")
    }
  }

  /// The locale asked for, checked against ICU's data ("root" is the root locale).
  func checkedLocale() throws(CommandError) -> String? {
    guard let locale else { return nil }
    let id = locale.lowercased() == "root" ? "" : locale
    guard Normalizer.isKnownLocale(id) else {
      throw CommandError(
        "--locale: ICU has no data for \"\(locale)\"; use a language code such as tr, sv,"
          + " de_AT, or root")
    }
    return id
  }

  /// A normaliser with the folding and locale asked for.
  func normalizer() throws -> Normalizer {
    try Normalizer(folding: try folding(), locale: try checkedLocale())
  }
}
