/// Every metric family `/metrics` shows, with its type and help text: the one place names and help live,
/// so the two never drift. Names follow Prometheus's conventions (base units, `_total` on counters),
/// which `make test` checks with `promtool check metrics` on a live Larder.
public enum MetricFamily: String, CaseIterable, Sendable {
    // Requests.
    case httpRequests = "larder_http_requests_total"
    case httpRequestDuration = "larder_http_request_duration_seconds"
    case requestsRefused = "larder_requests_refused_total"
    case responseAllocationFailures = "larder_http_response_allocation_failures_total"
    case httpMemoAnswers = "larder_http_memo_answers_total"

    // The caches and their upstreams.
    case cacheHits = "larder_cache_hits_total"
    case cacheStaleHits = "larder_cache_stale_hits_total"
    case cacheMisses = "larder_cache_misses_total"
    case upstreamFetches = "larder_upstream_fetches_total"
    case upstreamFetchesByUpstream = "larder_upstream_fetches_by_upstream_total"
    case upstreamRegressionsRefused = "larder_upstream_regressions_refused_total"
    case publicationsMissed = "larder_publications_missed_total"
    case ratesCrossChecks = "larder_rates_cross_checks_total"
    case ratesCrossCheckDisagreements = "larder_rates_cross_check_disagreements_total"
    case refreshDuration = "larder_refresh_duration_seconds"

    // State, read at scrape time.
    case ready = "larder_ready"
    case resourceStale = "larder_resource_stale"
    case lastSuccessTimestamp = "larder_last_success_timestamp_seconds"
    case refreshConsecutiveFailures = "larder_refresh_consecutive_failures"
    case upstreamUp = "larder_upstream_up"
    case upstreamBehind = "larder_upstream_behind"
    case rateSets = "larder_rates_sets"
    case documentsListed = "larder_documents_listed"
    case documentsMirrored = "larder_documents_mirrored"
    case documentsBytes = "larder_documents_bytes"
    case documentsFailed = "larder_documents_failed"
    case buildInfo = "larder_build_info"
    case clockSkew = "larder_clock_skew_seconds"

    // The process, as every Prometheus client library exports it (Linux only).
    case processCPUSeconds = "process_cpu_seconds_total"
    case processResidentMemory = "process_resident_memory_bytes"
    case processVirtualMemory = "process_virtual_memory_bytes"
    case processOpenFDs = "process_open_fds"
    case processMaxFDs = "process_max_fds"
    case processStartTime = "process_start_time_seconds"

    /// The Prometheus metric types Larder uses.
    public enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    public var name: String { rawValue }

    public var kind: Kind {
        switch self {
        case .httpRequests, .httpMemoAnswers, .requestsRefused, .responseAllocationFailures, .cacheHits, .cacheStaleHits, .cacheMisses, .upstreamFetches, .upstreamFetchesByUpstream,
             .upstreamRegressionsRefused, .publicationsMissed, .ratesCrossChecks, .ratesCrossCheckDisagreements, .processCPUSeconds:
            .counter
        case .httpRequestDuration, .refreshDuration:
            .histogram
        case .ready, .resourceStale, .lastSuccessTimestamp, .refreshConsecutiveFailures, .upstreamUp, .upstreamBehind, .rateSets, .documentsListed,
             .documentsMirrored, .documentsBytes, .documentsFailed, .buildInfo, .clockSkew, .processResidentMemory,
             .processVirtualMemory, .processOpenFDs, .processMaxFDs, .processStartTime:
            .gauge
        }
    }

    /// The `# HELP` text.
    public var help: String {
        switch self {
        case .httpRequests: "HTTP requests answered, by route pattern and status code."
        case .httpMemoAnswers:
            "Requests answered by the answer memo (a repeat of a route's prepared answer, without the route); counted in larder_http_requests_total too."
        case .httpRequestDuration: "Time from a request's arrival to its answer being queued, by route pattern."
        case .requestsRefused:
            "Requests refused 403 before any handler ran, by reason: host_not_allowed (a Host not in --allowed-hosts), cross_site_request (a POST from another site)."
        case .responseAllocationFailures:
            "Answers libmicrohttpd could not allocate, sent as a 503 with Retry-After instead (or the connection closed)."
        case .cacheHits: "Requests answered from a fresh cached copy."
        case .cacheStaleHits: "Requests answered from an expired cached copy (the upstream has not confirmed it in time)."
        case .cacheMisses: "Requests that found nothing cached and waited for the upstream."
        case .upstreamFetches: "Upstream requests by outcome: 200 (taken), 304, error (no usable answer), refused (invalid payload)."
        case .upstreamFetchesByUpstream:
            "Upstream requests by upstream (its URL without credentials) and outcome, as larder_upstream_fetches_total counts them per resource."
        case .upstreamRegressionsRefused: "Upstream answers older than the cached copy, refused."
        case .publicationsMissed: "Expected publications (the ECB's daily rates) that had not arrived by their cutoff."
        case .ratesCrossChecks:
            "Checks of a new rates publication against the other upstreams, by outcome: agreed, disagreed, unavailable (no other upstream answered)."
        case .ratesCrossCheckDisagreements: "Currencies on which a rates cross-check found the upstreams' published values different."
        case .refreshDuration: "Time one refresh took, from its start to its commit or failure."
        case .ready: "1 when every configured resource has data (GET /ready answers 200), else 0."
        case .resourceStale: "1 while the resource's cached copy is past its freshness, else 0."
        case .lastSuccessTimestamp:
            "Unix time the upstream last confirmed or replaced the cached copy (kept in the store across restarts); absent before the first success."
        case .refreshConsecutiveFailures: "Refreshes that failed in a row since the last success."
        case .upstreamUp:
            "1 while the upstream's breaker lets refreshes ask it and its last attempt succeeded (or none was made yet), else 0."
        case .upstreamBehind:
            "Rates: 1 while the upstream lacks a publication the schedule says is due, or its newest day is older than another upstream's (asked after the up-to-date ones), else 0."
        case .rateSets: "Rate sets stored (one per publication day)."
        case .documentsListed: "Documents the accepted index lists."
        case .documentsMirrored: "Documents the index lists that are mirrored on disk."
        case .documentsBytes: "Bytes of the mirrored documents the index lists."
        case .documentsFailed: "Documents the index lists whose latest download failed or did not verify."
        case .buildInfo: "Always 1; the labels name Larder's version and the libmicrohttpd it runs on."
        case .clockSkew:
            "The last upstream Date header minus this machine's clock, when more than a day apart; 0 within a day or before any answer."
        case .processCPUSeconds: "Total user and system CPU time spent in seconds."
        case .processResidentMemory: "Resident memory size in bytes."
        case .processVirtualMemory: "Virtual memory size in bytes."
        case .processOpenFDs: "Number of open file descriptors."
        case .processMaxFDs: "Maximum number of open file descriptors."
        case .processStartTime: "Start time of the process since unix epoch in seconds."
        }
    }
}
