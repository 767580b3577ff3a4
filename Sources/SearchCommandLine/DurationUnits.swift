extension Duration {
  /// The duration in seconds.
  package var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }

  /// The duration in milliseconds.
  package var milliseconds: Double { seconds * 1000 }
}
