// The entry point: the main thread serves the main actor (see `SearchREPL.main()`).
SearchREPL.main()
