import Foundation

/// The standard Prometheus process metrics, read from Linux's `/proc/self` at each scrape:
/// resident and virtual memory, open file descriptors, CPU seconds and start time; and the C
/// allocator's heap (glibc's mallinfo2), in use and free but retained.
///
/// Written here rather than taken from a library: swift-prometheus, which Bindery uses, does not
/// collect process metrics, and the five values are a few reads of `/proc`.
enum ProcessMetrics {
    /// The exposition lines; empty where `/proc` cannot be read (not Linux).
    static func exposition() -> String {
        var lines: [String] = []
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        if let statm = read("/proc/self/statm")?.split(separator: " "), statm.count >= 2,
            let virtualPages = Double(statm[0]), let residentPages = Double(statm[1])
        {
            lines += gauge("process_resident_memory_bytes", "Resident memory size in bytes.", residentPages * pageSize)
            lines += gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", virtualPages * pageSize)
        }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            lines += gauge("process_open_fds", "Number of open file descriptors.", Double(descriptors.count))
        }
        if let limit = maxOpenFiles() {
            lines += gauge("process_max_fds", "Maximum number of open file descriptors.", limit)
        }
        // Fields after the command name (which may contain spaces) in /proc/self/stat.
        if let stat = read("/proc/self/stat"), let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // utime, stime and starttime are fields 14, 15 and 22 of the whole line: 12, 13, 20 here.
            if fields.count > 20, let user = Double(fields[11]), let system = Double(fields[12]),
                let started = Double(fields[19]), let bootTime = bootTime()
            {
                lines += counter("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", (user + system) / ticks)
                lines += gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", bootTime + started / ticks)
            }
        }
        if let heap = AllocatorHeap.figures() {
            lines += [
                "# HELP process_heap_bytes C heap (glibc mallinfo2): bytes allocations hold (in_use), bytes freed but kept by the allocator (free).",
                "# TYPE process_heap_bytes gauge",
                #"process_heap_bytes{state="in_use"} \#(heap.inUse)"#,
                #"process_heap_bytes{state="free"} \#(heap.free)"#,
            ]
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    private static func gauge(_ name: String, _ help: String, _ value: Double) -> [String] {
        ["# HELP \(name) \(help)", "# TYPE \(name) gauge", "\(name) \(format(value))"]
    }

    private static func counter(_ name: String, _ help: String, _ value: Double) -> [String] {
        ["# HELP \(name) \(help)", "# TYPE \(name) counter", "\(name) \(format(value))"]
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func bootTime() -> Double? {
        read("/proc/stat")?.split(separator: "\n").first { $0.hasPrefix("btime ") }
            .flatMap { Double($0.dropFirst(6)) }
    }

    private static func maxOpenFiles() -> Double? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return Double(limit.rlim_cur)
    }
}
