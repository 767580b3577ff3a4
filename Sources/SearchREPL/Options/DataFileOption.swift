import ArgumentParser

/// `--allow-data-outside`, as every command that reads a manifest takes it: a manifest's data
/// file must lie in the manifest's folder unless the user trusts the manifest to name any file.
struct DataFileOption: ParsableArguments {
  @Flag(
    name: .customLong("allow-data-outside"),
    help:
      "Let the manifest's \"data\" name a file outside the manifest's folder (a manifest you trust)."
  )
  var allowsDataOutsideFolder = false
}
