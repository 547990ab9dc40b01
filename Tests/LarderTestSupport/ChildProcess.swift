import Foundation
import Synchronization

/// A real binary of this package (`larder`, `sample-upstream`) run by a test, killed when dropped.
public final class ChildProcess: Sendable {
    private let process: Process
    private let output = CapturedOutput()

    /// Starts `binary` (a product name) with `arguments`; `LARDER_*` variables of the test's own
    /// environment are removed so only `environment` configures it.
    public init(_ binary: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        raiseOpenFileLimit()
        process = Process()
        process.executableURL = try Self.locate(binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LARDER_") }
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let output = self.output
        // One reader thread per pipe, reading to EOF, so nothing written before exit is lost.
        for (pipe, isError) in [(out, false), (err, true)] {
            let handle = pipe.fileHandleForReading
            Thread {
                // Raw read(2): FileHandle.availableData traps when a signal interrupts it (EINTR).
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    let text = String(decoding: chunk[..<count], as: UTF8.self)
                    output.lines.withLock { if isError { $0.stderr += text } else { $0.stdout += text } }
                }
                output.lines.withLock { $0.closedPipes += 1 }
            }.start()
        }
        // Foundation's Process.run() is not safe to call from several threads at once on Linux
        // (it crashed copying the environment): launches take turns.
        try launchLock.withLock { _ in try process.run() }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    public var standardOutput: String { output.lines.withLock { $0.stdout } }
    public var standardError: String { output.lines.withLock { $0.stderr } }
    public var pid: Int32 { process.processIdentifier }

    /// Waits for the `listening on http://HOST:PORT` line and returns the port.
    public func waitForListening(timeout: Duration = .seconds(20)) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let range = standardOutput.range(of: #"listening on http://[^\s]+:(\d+)"#, options: .regularExpression) {
                let match = standardOutput[range]
                if let port = match.split(separator: ":").last.flatMap({ Int($0) }) { return port }
            }
            if !process.isRunning { break }
            usleep(10_000)
        }
        throw TestConnectionError("no listening line; stdout: \(standardOutput) stderr: \(standardError)")
    }

    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// The exit status once the process ends, or nil if it is still running after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(15)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard !process.isRunning else { return nil }
        // Both pipes reach EOF once the process is gone; wait for the readers to take everything.
        while output.lines.withLock({ $0.closedPipes }) < 2, ContinuousClock.now < deadline + .seconds(2) {
            usleep(5_000)
        }
        return process.terminationStatus
    }

    /// Runs to completion and returns the exit status (nil on timeout, after killing it).
    public static func run(
        _ binary: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(15)
    ) throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = try ChildProcess(binary, arguments, environment: environment)
        let status = child.waitForExit(timeout: timeout)
        return (status, child.standardOutput, child.standardError)
    }

    /// The built product next to the test binary (SwiftPM puts them in one folder).
    static func locate(_ binary: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folders = [testBinary.deletingLastPathComponent()]
        // xctest bundles on some platforms nest the binary a few levels down.
        folders.append(folders[0].deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent(binary)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TestConnectionError("cannot find the \(binary) binary near \(testBinary.path); run `swift build` first")
    }

    /// The repository's own `Examples/upstream` folder.
    public static var examplesUpstream: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/upstream")
    }
}

private let launchLock = Mutex(())

/// What a child process has written so far, filled from the pipes' reader threads.
private final class CapturedOutput: Sendable {
    let lines = Mutex<(stdout: String, stderr: String, closedPipes: Int)>(("", "", 0))
}
