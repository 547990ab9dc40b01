import LarderHTTP

/// A route of served content as the sample upstream answers it: logged in the request log, and
/// misbehaving as the first matching fault says. Answered on the server's thread, never on Swift's
/// cooperative pool, except for a delay: the sample upstream must answer even while the pool is busy
/// (tests run many suites in one process).
enum FaultedHandler {
    static func make(
        faults: FaultTable, log: RequestLog, path: @escaping @Sendable (Request) -> String,
        answer: @escaping @Sendable (Request, Fault?) -> Response
    ) -> Handler {
        .adaptive { request in
            let logged = path(request)
            log.received(path: logged)
            let fault = faults.take(for: logged)
            guard let delay = fault?.delayMs, delay > 0 else {
                return .now(record(answer(request, fault), path: logged, log: log))
            }
            return .later { request in
                try? await Task.sleep(for: .milliseconds(delay))
                return record(answer(request, fault), path: logged, log: log)
            }
        }
    }

    private static func record(_ response: Response, path: String, log: RequestLog) -> Response {
        log.record(path: path, status: response.status.rawValue)
        return response
    }
}
