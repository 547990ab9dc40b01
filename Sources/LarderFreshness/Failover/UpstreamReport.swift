/// One upstream of a resource as `/status`, `/metrics` and the status page show it.
public struct UpstreamReport: Sendable, Equatable {
    public var label: String
    public var format: String
    public var report: UpstreamHealth.Report

    public init(label: String, format: String, report: UpstreamHealth.Report) {
        self.label = label
        self.format = format
        self.report = report
    }
}
