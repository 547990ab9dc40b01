public import Foundation
import Synchronization

/// A real binary of this package (`larder`, `sample-upstream`) run by a test, killed when dropped.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    /// The wait status once the child was reaped (reaped once, under this lock).
    private let reaped = Mutex<Int32?>(nil)
    private let output = CapturedOutput()

    /// Starts `binary` (a product name) with `arguments`; `LARDER_*` variables of the test's own
    /// environment are removed so only `environment` configures it.
    ///
    /// Spawned with posix_spawn directly: Foundation's `Process.run()` crashed now and then on
    /// Linux (in a memcpy while copying the environment) even with launches taking turns.
    public init(_ binary: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        raiseOpenFileLimit()
        let path = try Self.locate(binary).path
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LARDER_") }
        env.merge(environment) { $1 }
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Launches take turns, so no other child can inherit these pipes before they are close-on-exec.
        try spawnLock.lock()
        defer { spawnLock.unlock() }
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else {
            throw TestConnectionError("pipe failed: errno \(errno)")
        }
        for descriptor in outPipe + errPipe {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling and nothing blocked, whatever the test process set.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw TestConnectionError("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        pid = child
        let output = self.output
        // One reader thread per pipe, reading to EOF, so nothing written before exit is lost.
        for (descriptor, isError) in [(outPipe[0], false), (errPipe[0], true)] {
            Thread {
                var chunk = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    let text = String(decoding: chunk[..<count], as: UTF8.self)
                    output.lines.withLock { if isError { $0.stderr += text } else { $0.stdout += text } }
                }
                close(descriptor)
                output.lines.withLock { $0.closedPipes += 1 }
            }.start()
        }
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: .seconds(5))
        }
    }

    /// True until the child has exited (and reaps it when it has).
    public var isRunning: Bool {
        reaped.withLock { reaped in
            guard reaped == nil else { return false }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { reaped = status; return false }
            return result == 0
        }
    }

    /// The exit code, or 128 + the signal that ended the child; nil while it runs.
    private var terminationStatus: Int32? {
        reaped.withLock { status in
            guard let status else { return nil }
            return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    public var standardOutput: String { output.lines.withLock { $0.stdout } }
    public var standardError: String { output.lines.withLock { $0.stderr } }

    /// Waits for the `listening on http://HOST:PORT` line and returns the port.
    public func waitForListening(timeout: Duration = .seconds(60)) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let range = standardOutput.range(of: #"listening on http://[^\s]+:(\d+)"#, options: .regularExpression) {
                let match = standardOutput[range]
                if let port = match.split(separator: ":").last.flatMap({ Int($0) }) { return port }
            }
            if !isRunning { break }
            usleep(10_000)
        }
        throw TestConnectionError("no listening line; stdout: \(standardOutput) stderr: \(standardError)")
    }

    public func signal(_ number: Int32) {
        kill(pid, number)
    }

    /// The exit status once the process ends, or nil if it is still running after `timeout`.
    public func waitForExit(timeout: Duration = .seconds(60)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        guard !isRunning else { return nil }
        // Both pipes reach EOF once the process is gone; wait for the readers to take everything.
        while output.lines.withLock({ $0.closedPipes }) < 2, ContinuousClock.now < deadline + .seconds(2) {
            usleep(5_000)
        }
        return terminationStatus
    }

    /// Runs to completion and returns the exit status (nil on timeout, after killing it).
    public static func run(
        _ binary: String, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(60)
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
        folders.append(repositoryRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            let candidate = folder.appendingPathComponent(binary)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw TestConnectionError("cannot find the \(binary) binary near \(testBinary.path); run `swift build` first")
    }

    /// The repository's own `Examples/upstream` folder.
    public static var examplesUpstream: URL {
        repositoryRoot.appendingPathComponent("Examples/upstream")
    }
}


private let spawnLock = SpawnLock()

/// A plain mutex held across `pipe` + `posix_spawn` (a `Mutex` closure cannot span the throwing setup).
private final class SpawnLock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }

    func lock() throws { pthread_mutex_lock(&mutex) }

    func unlock() { pthread_mutex_unlock(&mutex) }
}

/// What a child process has written so far, filled from the pipes' reader threads.
private final class CapturedOutput: Sendable {
    let lines = Mutex<(stdout: String, stderr: String, closedPipes: Int)>(("", "", 0))
}
