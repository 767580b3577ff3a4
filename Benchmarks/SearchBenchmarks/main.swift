import SearchCommandLine

// The entry point: the main thread serves the main actor (see `Terminal.runMain`), as in an
// app, so that what the suites measure on the main actor is an app's main thread.
Terminal.runMain(Bench.self)
