public import Logging

/// A logger that drops everything: tests assert on behaviour, and the log system is never bootstrapped in them.
public let quietLogger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
