import LarderApp
import LarderConfig
import Logging

/// Installs the process-wide log handler; only the executable does this, never a library or a test.
enum LoggingBootstrap {
    static func bootstrap(format: LogFormat, level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler
            switch format {
            case .text: handler = StreamLogHandler.standardError(label: label)
            case .json: handler = JSONLogHandler(label: label)
            }
            handler.logLevel = level
            return handler
        }
    }
}
