import CLarderHTTP
import CMicroHTTPD
import Glibc

// libmicrohttpd's C callbacks, called through the answer memo (answer_memo.c) for every request it
// does not answer itself. They are global functions (not closures in main.swift, which would inherit
// @MainActor) and run on libmicrohttpd's worker threads. `cls` is the HTTPServer, kept alive by a
// retain the server holds while the daemon runs. A request's context is made by `larderBeginRequest`
// once its request line is read.

/// Starts the request context of a request the memo does not answer (libmicrohttpd's `con_cls`).
func larderBeginRequest(_ server: UnsafeMutableRawPointer?, _ targetLength: Int) -> UnsafeMutableRawPointer? {
    let context = Unmanaged<HTTPServer>.fromOpaque(server!).takeUnretainedValue().beginRequest(targetLength: targetLength)
    return Unmanaged.passRetained(context).toOpaque()
}

/// libmicrohttpd's access handler: called first with headers only, then per body chunk, then
/// once more (and again after a resume) to answer.
func larderAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let slot = conCls?.pointee else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(slot).takeUnretainedValue()
    switch context.phase {
    case .awaitingHeaders:
        // Answering here makes libmicrohttpd 0.9.75 close the connection, so only an oversize body
        // (where closing is the point) is answered now; everything else waits for the next call.
        if let refused = server.refuseOversizeBody(connection: connection, context: context) { return refused }
        context.phase = .reading
        return .YES
    case .reading:
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            return server.receiveBody(uploadData, count: uploadDataSize, context: context)
        }
        context.phase = .answered
        return server.answer(connection: connection, url: url, method: method, context: context)
    case .answered:
        return server.answerResumed(connection: connection, context: context)
    }
}

/// Called when a request is done (sent, failed or timed out): releases its context.
func larderRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_RequestTerminationCode
) {
    guard let cls, let slot = conCls?.pointee else { return }
    conCls?.pointee = nil
    let context = Unmanaged<RequestContext>.fromOpaque(slot).takeRetainedValue()
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().endRequest(context)
}

/// Receives libmicrohttpd's own log lines.
func larderMHDLog(_ cls: UnsafeMutableRawPointer?, _ message: UnsafePointer<CChar>?) {
    guard let cls, let message else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().libraryLogged(String(cString: message))
}
