import Foundation
import HeraldAPI
import HeraldCore

/// The audit trail: every send, resend, move, take-back, cancel, opt-out change, message or settings change and key
/// change, with who, when, from where and what. An entry is added by the action's own unit of work (the action and its entry commit together or
/// not at all) and never changed or removed: no route or method does it, and the schema refuses it.
extension PlatformEngine {
    // MARK: - Routes

    /// The trail, read.
    static let auditRoutes: [EngineRoute] = [
        EngineRoute(ListAudit.self, .read) { engine, call in try await engine.listAudit(call) },
    ]

    nonisolated func listAudit(_ call: EngineCall<ListAudit>) async throws -> AuditList {
        let app = call.app
        var query = try Self.auditQuery(call.request.query, caller: call.request.caller)
        let limit = query.limit
        query.limit += 1    // one more than asked says whether an older page exists
        let asked = query
        let found = try await store.read { db in try db.audit.entries(applicationKey: app.key, asked) }
        let page = Array(found.prefix(limit))
        return AuditList(entries: page, nextBefore: found.count > limit ? page.last?.id : nil)
    }

    /// A read's query (`bulkId`, `since`, `action`, `before`, `limit`), checked: a 400 naming each wrong field; a 403
    /// when a key other than an admin's asks for the entries about keys by name.
    nonisolated static func auditQuery(_ query: [String: String], caller: APICaller?) throws -> AuditQuery {
        var input = WireInput()
        let bulkId = query["bulkId"].flatMap { $0.isEmpty ? nil : $0 }
        input.identifier("bulkId", bulkId, maxLength: 200)
        var since: Int64?
        if let text = query["since"], !text.isEmpty {
            if let date = WireTime.date(text) { since = date.epochMilliseconds } else {
                input.refuse("since", "not a time: write it as 2026-12-01T08:00:00.000Z")
            }
        }
        var action: AuditAction?
        if let text = query["action"], !text.isEmpty {
            action = AuditAction(rawValue: text)
            if action == nil {
                input.refuse("action", "one of \(AuditAction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        let before = input.integer("before", query["before"], in: 1...Int64.max)
        let limit = input.integer("limit", query["limit"], in: 1...Int64(ListAudit.maxLimit)) ?? Int64(ListAudit.defaultLimit)
        try input.check("invalid audit query")
        // The terminal's own platform is its owner's: everything. On a server, a key's history is an admin's to read.
        let includesKeys = caller.map { $0.role == .admin } ?? true
        if let action, action.isAboutKeys, !includesKeys {
            throw APIError.forbidden("only an admin key reads the history of keys")
        }
        return AuditQuery(bulkId: bulkId, since: since, action: action, before: before, limit: Int(limit), includesKeys: includesKeys)
    }

    // MARK: - Who

    /// Who is acting in `request`: its server key and the client's address, or this engine's own user.
    nonisolated func auditActor(_ request: APIRequest) -> AuditActor {
        guard let caller = request.caller else { return localAuditActor }
        return AuditActor(name: caller.name, keyId: caller.keyId, role: caller.role.rawValue, address: caller.address ?? "unknown")
    }

    /// Who acts without a server key: the terminal's sender name or login (`EngineConfig.localActor`), or the
    /// operator at the server's console.
    nonisolated var localAuditActor: AuditActor {
        let configured = config.localActor.map(Self.auditText).flatMap { $0.isEmpty ? nil : $0 }
        return AuditActor(name: configured ?? Self.loginName, keyId: nil, role: "local", address: "local")
    }

    /// The login of this process ("this terminal" when it has none).
    nonisolated static var loginName: String {
        let environment = ProcessInfo.processInfo.environment
        for name in [environment["USER"], environment["LOGNAME"], ProcessInfo.processInfo.userName] {
            if let name = name.map(auditText), !name.isEmpty { return name }
        }
        return "this terminal"
    }

    // MARK: - What

    /// A text for an entry: control characters dropped, at most 100 characters.
    nonisolated static func auditText(_ text: String) -> String {
        let clean = String(String.UnicodeScalarView(text.unicodeScalars.filter { !WireInput.isControl($0) }))
            .trimmingCharacters(in: .whitespaces)
        return clean.count > 100 ? String(clean.prefix(99)) + "…" : clean
    }

    /// A time as entries write it: "2026-11-29 09:00 UTC".
    nonisolated static func auditTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// "1 character", "160 characters".
    nonisolated static func characters(_ count: Int) -> String { count == 1 ? "1 character" : "\(count) characters" }

    /// "1 recipient", "37 recipients".
    nonisolated static func recipients(_ count: Int) -> String { count == 1 ? "1 recipient" : "\(count) recipients" }

    /// What a send or a resend says: "37 recipients, 2 refused, sender Herald, held until 2026-11-29 09:00 UTC" (a
    /// resend's entry names the bulk it resent as its subject, never in this text, which a viewer may see masked).
    nonisolated static func sendWhat(accepted: Int, refused: Int, sender: String, subject: String?, heldUntil: Date?) -> String {
        var parts = [recipients(accepted)]
        if refused > 0 { parts.append("\(refused) refused") }
        parts.append("sender " + auditText(sender))
        if let subject { parts.append("email \"\(auditText(subject))\"") }
        if let heldUntil { parts.append("held until " + auditTime(heldUntil)) }
        return parts.joined(separator: ", ")
    }
}
