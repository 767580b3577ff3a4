// The one entry point libFuzzer calls, for every harness: the binary is built once and runs
// the harness that FUZZ_TARGET names (Fuzz/run.sh sets it).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A harness: libFuzzer's input in, 0 out; an oracle that does not hold aborts.
typealias FuzzHarness = @Sendable (UnsafePointer<UInt8>, Int) -> Int32

/// Every harness by its target name, the name of its file in Fuzz/Harnesses.
let fuzzHarnesses: [String: FuzzHarness] = [
  "commands": fuzzCommands, "differential": fuzzDifferential, "keys": fuzzKeys,
  "loaders": fuzzLoaders, "manifest": fuzzManifest, "normalizer": fuzzNormalizer,
  "query": fuzzQuery, "reading": fuzzReading, "savedindex": fuzzSavedIndex,
]

/// The harness FUZZ_TARGET names; the run stops at once, with the list, when it names none.
private let selectedHarness: FuzzHarness = {
  let name = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? ""
  if let harness = fuzzHarnesses[name] { return harness }
  let message =
    "FUZZ_TARGET=\(name.isEmpty ? "(unset)" : name) names no harness; the targets are "
    + fuzzHarnesses.keys.sorted().joined(separator: ", ") + " (run one with Fuzz/run.sh)\n"
  _ = message.withCString { write(2, $0, strlen($0)) }
  exit(2)
}()

/// libFuzzer's start: picks the harness before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> Int32 {
  _ = selectedHarness
  return 0
}

/// libFuzzer's call for each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  selectedHarness(data, size)
}
