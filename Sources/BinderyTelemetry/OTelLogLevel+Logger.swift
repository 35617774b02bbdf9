import Logging
import OTel

extension OTel.Configuration.LogLevel {
    /// The exporter's diagnostics at the server's level, but at least `warning` unless the server
    /// logs at `debug` or `trace`: at `info` swift-otel echoes every `OTEL_*` variable of every signal.
    init(_ level: Logger.Level) {
        self =
            switch level {
            case .trace: .trace
            case .debug: .debug
            case .info, .notice, .warning: .warning
            case .error, .critical: .error
            }
    }
}
