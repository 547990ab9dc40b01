import ArgumentParser
import Foundation
import LarderConfig

/// `larder healthcheck`: exit 0 when `/health` on the configured address answers 200 within 2 s, else 1,
/// so a container image needs no curl.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 when this host's Larder answers GET /health with 200 within 2 s, else 1.",
        discussion: "Reads --host/--port or LARDER_HOST/LARDER_PORT like `larder serve`; a wildcard host (0.0.0.0, ::) is checked on loopback."
    )

    @OptionGroup var listen: ListenOptions
    @Option(name: .customLong("timeout"), help: "How long to wait in all (default 2s).")
    var timeout: String = "2s"

    func run() throws {
        let host: String, port: Int
        do {
            (host, port) = try Configuration.resolveListenAddress(
                flags: listen.flags, environment: ProcessInfo.processInfo.environment)
        } catch {
            FileHandle.standardError.write(Data("larder healthcheck: \(error)\n".utf8))
            throw ExitCode(64)  // EX_USAGE, as `larder serve`
        }
        guard port != 0 else {
            FileHandle.standardError.write(Data("larder healthcheck: port 0 names no listening Larder; give its port\n".utf8))
            throw ExitCode(64)
        }
        guard let limit = DurationParser.parse(timeout) else {
            FileHandle.standardError.write(Data("larder healthcheck: --timeout '\(timeout)' is not a duration\n".utf8))
            throw ExitCode(64)
        }
        let target = host == "0.0.0.0" || host.isEmpty ? "127.0.0.1" : host == "::" ? "::1" : host
        switch HealthProbe.check(host: target, port: port, timeout: limit) {
        case .success:
            print("ok: http://\(target.contains(":") ? "[\(target)]" : target):\(port)/health answered 200")
        case .failure(let problem):
            FileHandle.standardError.write(Data("larder healthcheck: \(problem.message)\n".utf8))
            throw ExitCode.failure
        }
    }
}
