import LarderDocumentsCache
import LarderFreshness
import LarderHTTP
import LarderRatesCache
import LarderServing
import LarderStore
import Synchronization

/// The status page's bytes for each selection, rendered once per change of what the page shows and
/// shared by every request until the next change: a request compares a cheap `PageVersion`, and
/// only a changed one renders — on the blocking pool, so neither the server's threads nor the
/// cooperative pool wait for it.
final class StatusPages: Sendable {
    /// How many selections (base × chart currency) are kept, and how many bytes in all.
    static let countLimit = 64
    static let byteLimit = 16 * 1024 * 1024

    private struct Kept {
        var version: PageVersion?
        var pages: [PageSelection?: FixedAnswer] = [:]
        var bytes = 0
    }

    private let reporter: StatusReporter
    private let adminTokenRequired: Bool
    /// Where a render runs: it reads the store and builds the page whole, never on the cooperative pool.
    private let blocking: BlockingPool
    private let kept = Mutex(Kept())

    init(reporter: StatusReporter, adminTokenRequired: Bool, blocking: BlockingPool) {
        self.reporter = reporter
        self.adminTokenRequired = adminTokenRequired
        self.blocking = blocking
    }

    /// The page for `request`: at once when it is rendered already, else rendered asynchronously;
    /// a bad query answers a JSON 400 like the other routes.
    func answer(_ request: Request) -> Handler.Answer {
        let rates = reporter.rates?.view
        let selection: PageSelection?
        do throws(HTTPError) {
            let query = try PageQuery.parse(request.query)
            selection = try rates.map { view throws(HTTPError) in try query.selection(in: view) }
        } catch {
            return .now(error.response)
        }
        // After the query: a refused one needs no version.
        let version = PageVersion(rates: reporter.rates, view: rates, documents: reporter.documents)
        if let page = kept.withLock({ $0.version == version ? $0.pages[selection] : nil }) {
            return .now(page.response(for: request))
        }
        return .later { [self] request in
            let report = await reporter.report()
            return await blocking.run { self.render(version, report, rates, selection) }.response(for: request)
        }
    }

    /// Renders and keeps the page (a newer version replaces every page kept for an older one).
    private func render(
        _ version: PageVersion, _ report: StatusReport, _ rates: RatesView?, _ selection: PageSelection?
    ) -> FixedAnswer {
        let content = PageContent(
            report: report, rates: rates.map { view in (view, selection) },
            documents: reporter.documents.map { (try? $0.documentStatuses(limit: DocumentsSection.rowLimit), $0.hasData) },
            adminTokenRequired: adminTokenRequired)
        let page = FixedAnswer(
            StatusPageDocument.render(content), contentType: "text/html; charset=utf-8", headers: PagePolicy.headers)
        return kept.withLock { kept in
            if kept.version != version {
                kept = Kept(version: version)
            }
            if let first = kept.pages[selection] { return first }
            if kept.pages.count < Self.countLimit, kept.bytes + page.byteCount <= Self.byteLimit {
                kept.pages[selection] = page
                kept.bytes += page.byteCount
            }
            return page
        }
    }
}

/// What the page shows depends on, read per request without rendering anything: the refreshers'
/// records and freshness, the rates' and the documents' revisions. Equal versions, equal pages. It
/// holds no data, so an old version keeps no old snapshot alive.
struct PageVersion: Sendable, Equatable {
    /// One refresher's part.
    struct Refreshing: Sendable, Equatable {
        let status: RefreshStatus
        let running: Bool
        let stale: Bool

        init<Outcome>(_ refresher: Refresher<Outcome>) {
            status = refresher.status
            running = refresher.isRefreshing
            stale = refresher.freshness().isExpired
        }
    }

    let rates: Refreshing?
    let ratesRevision: Int?
    let publication: ResourceReport.Publication?
    /// A background cross-check ends without a refresh or a new view.
    let crossCheck: CrossCheckReport?
    let documents: Refreshing?
    let documentsRevision: Int?
    let documentsSync: SyncProgress.Snapshot?

    /// `view` is the rates' view the page is rendered from (read once by the caller).
    init(rates: RatesCache?, view: RatesView?, documents: DocumentsCache?) {
        self.rates = rates.map { Refreshing($0.refresher) }
        ratesRevision = view?.revision
        publication = rates.map(ResourceReport.Publication.init(of:))
        crossCheck = rates?.crossCheckReport
        self.documents = documents.map { Refreshing($0.refresher) }
        documentsRevision = documents?.revision
        documentsSync = documents?.syncProgress
    }
}
