// SearchREPL's folders are layers, bottom to top:
//   Console, Output, Tokens, Options, REPL, Live, Commands
// (a file uses names from its own folder or lower ones only; the files at the root, this one and
// SearchREPL.swift, put them together).
//
// The entry point: the main thread serves the main actor (see `SearchREPL.main()`).
SearchREPL.main()
