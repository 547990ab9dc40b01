#if canImport(Glibc)
import Glibc
#endif

/// The `process_*` figures every Prometheus client library exports, read from `/proc` when `/metrics` is
/// scraped (never on a request's path), with the Go and Python clients' semantics; nil off Linux.
struct ProcessMetrics: Sendable {
    /// User plus system CPU time.
    var cpuSeconds: Double
    var residentBytes: Double
    var virtualBytes: Double
    /// Unix time the process started.
    var startTimeSeconds: Double
    /// Entries of `/proc/self/fd`, the one the count reads with included (as the Go and Python clients count).
    var openFDs: Double
    /// The soft `RLIMIT_NOFILE`.
    var maxFDs: Double

    /// The figures now; nil off Linux or when `/proc` cannot be read.
    static func read() -> ProcessMetrics? {
        #if os(Linux)
        // proc(5): fields after the command name, which is in parentheses and may itself hold spaces or ')'.
        guard let stat = procText("/proc/self/stat"), let nameEnd = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        /// Field `number` as proc(5) counts them (field 3, the state, is the first after the name).
        func field(_ number: Int) -> Double? {
            fields.indices.contains(number - 3) ? Double(fields[number - 3]) : nil
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        guard let userTicks = field(14), let systemTicks = field(15), let startTicks = field(22),
              let virtualBytes = field(23), let residentPages = field(24), let bootTime = bootTime(),
              let openFDs = countEntries("/proc/self/fd"), ticks > 0
        else { return nil }
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return ProcessMetrics(
            cpuSeconds: (userTicks + systemTicks) / ticks, residentBytes: residentPages * pageSize,
            virtualBytes: virtualBytes, startTimeSeconds: bootTime + startTicks / ticks, openFDs: Double(openFDs),
            maxFDs: Double(limit.rlim_cur))
        #else
        return nil
        #endif
    }

    /// Each family with its value, in the order written.
    var samples: [(MetricFamily, Double)] {
        [
            (.processCPUSeconds, cpuSeconds), (.processResidentMemory, residentBytes),
            (.processVirtualMemory, virtualBytes), (.processStartTime, startTimeSeconds),
            (.processOpenFDs, openFDs), (.processMaxFDs, maxFDs),
        ]
    }

    #if os(Linux)
    /// The system's boot time in Unix seconds (`btime` of `/proc/stat`).
    private static func bootTime() -> Double? {
        guard let stat = procText("/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count))
        }
        return nil
    }

    /// A `/proc` file read to its end with plain reads: the kernel reports their size as 0.
    private static func procText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The entries of a directory, without `.` and `..`.
    private static func countEntries(_ path: String) -> Int? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        guard let offset = MemoryLayout<dirent>.offset(of: \.d_name) else { return nil }
        let dot = UInt8(ascii: ".")
        var count = 0
        while let entry = readdir(directory) {
            // The name read through the pointer, a byte at a time up to its NUL: `entry.pointee` copied
            // a whole `struct dirent`, but glibc's record is only as long as its name, and one at the
            // end of the buffer's last page made that copy read past it (a crash seen scraping /metrics).
            let name = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: UInt8.self)
            let dots = name[0] == dot && (name[1] == 0 || (name[1] == dot && name[2] == 0))
            if !dots { count += 1 }
        }
        return count
    }
    #endif
}
