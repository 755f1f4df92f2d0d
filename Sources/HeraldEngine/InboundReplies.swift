import Foundation
import HeraldAPI

/// A carrier that pushes the SMS people send back to Herald (Infobip's inbound-message webhook), besides or instead
/// of keeping them for `Carrier.replies(at:)`.
public protocol RepliesPushing: Sendable {
    /// Reads the received SMS of one call to the inbound webhook. An element the carrier's format allows but Herald
    /// cannot keep is left out (and logged); a body that is not the format at all is `.unreadable`.
    func pushedReplies(_ body: Data, at now: Date) throws(CarrierReportsError) -> [CarrierReply]
}

/// Replies the carrier pushes to a server: the inbound webhook, behind the same secret token as the report webhook.
extension PlatformEngine {
    /// Where a carrier pushes received SMS; `{token}` is this deployment's secret (the report webhook's).
    public static let carrierInboundPath: PathTemplate = "/1/carriers/infobip/inbound/{token}"

    /// The inbound webhook's address under `base` (the server's public URL): the path with this deployment's token.
    public func carrierInboundURL(under base: URL) async throws -> URL {
        let path = try Self.carrierInboundPath.path(["token": try await carrierReportToken()])
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        guard let url = URL(string: root + path) else { throw EngineError.invalidArgument("\(base) cannot carry the inbound webhook's path") }
        return url
    }

    /// Collects the replies the carrier holds now, as a carrier pass does (at most every 30 s): for a terminal's own
    /// engine, whose carrier work runs only when something is read, so that a running screen learns of replies anyway.
    public func pullReplies() async { await collectReplies() }

    /// Keeps the received SMS of a webhook call for the platform's application, each once under the carrier's id
    /// (pulled or pushed before, or pushed again, it changes nothing); one that says stop opts its number out.
    /// Answers how many were new. Throws `CarrierReportsError.notPushed` when this carrier pushes no replies.
    public func storePushedReplies(_ body: Data) async throws -> Int {
        guard let pushing = carrier as? any RepliesPushing else { throw CarrierReportsError.notPushed }
        let replies = try pushing.pushedReplies(body, at: now)
        guard !replies.isEmpty else { return 0 }
        let app = try await bootstrapSandbox().applicationKey
        let kept = try await storeReplies(replies, applicationKey: app)
        log.info("pushed replies kept", metadata: ["received": "\(replies.count)", "new": "\(kept.count)"])
        return kept.count
    }
}
