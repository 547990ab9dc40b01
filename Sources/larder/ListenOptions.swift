import ArgumentParser
import LarderConfig

/// `--host` and `--port`: where `serve` binds and where `healthcheck` looks (each also `LARDER_HOST`, `LARDER_PORT`).
struct ListenOptions: ParsableArguments {
    // Strings, not Int: each command validates them itself, naming the flag, with exit status 64 (SPEC §2).
    @Option(name: .customLong("host"), help: "Address Larder listens on (default 127.0.0.1).")
    var host: String?
    @Option(name: .customLong("port"), help: "Port Larder listens on (default 8080); for serve, 0 picks a free one.")
    var port: String?

    /// The flags given, for `Configuration`'s resolution (which adds the variables and the defaults).
    var flags: [Setting: String] {
        var flags: [Setting: String] = [:]
        flags[.host] = host
        flags[.port] = port
        return flags
    }
}
