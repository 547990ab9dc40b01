import FuzzDriver
import Glibc
import LarderFuzzing

/// The target this process fuzzes, named by `LARDER_FUZZ_TARGET` (tools/fuzz/run.py sets it).
private let target: FuzzTarget = {
    let name = getenv("LARDER_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget.named(name) else {
        report("larder-fuzz: LARDER_FUZZ_TARGET must name one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))\n")
        exit(2)
    }
    return target
}()

/// Called by libFuzzer once before any input: a wrong or missing target name stops it at once.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    _ = target
    return 0
}

/// libFuzzer's entry: one input through the target. A broken property aborts, so libFuzzer saves
/// the input as a reproducer exactly as it does for a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try target.check(input)
    } catch {
        report("property violated in \(target.name): \(error.message)\n")
        abort()
    }
    return 0
}

/// Writes to standard error without touching the C `stderr` global (not concurrency-safe in Swift 6).
private func report(_ message: String) {
    var message = message
    message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
