import Foundation

/// Infobip's scheduled-bulk calls, answered as SMS 3.210.0 publishes them, in the older envelope
/// (`{"requestError": {"serviceException": {"messageId", "text", "validationErrors"}}}`) these v1 paths use:
/// - `GET /sms/1/bulks?bulkId=` → `{bulkId, sendAt}` while the bulk is held (PENDING or PAUSED);
/// - `PUT /sms/1/bulks?bulkId=` with `{sendAt}` (required; the format and 180-day limit of `options.schedule.sendAt`)
///   moves a PENDING bulk → `{bulkId, sendAt}`;
/// - `GET /sms/1/bulks/status?bulkId=` → `{bulkId, status}`, whatever became of the bulk;
/// - `PUT /sms/1/bulks/status?bulkId=` with `{status}`: PAUSED, PROCESSING (resume) or CANCELED → `{bulkId, status}`.
/// A bulk it does not hold is 404 `NOT_FOUND` "Bulk not found" (for the schedule calls, one that left or was cancelled
/// too); a change its state does not allow (cancelling a bulk that left) is 400 `BAD_REQUEST`. Reading takes
/// `sms:message:send` or `sms:manage`, changing `sms:manage`; without them 401 `UNAUTHORIZED` or 403 `FORBIDDEN`.
/// Bulks are those sent with `sendAt`; every call is recorded with the other requests.
extension StandInRoutes {
    typealias Answer = (Int, [String: String], Data)

    func bulks(method: String, segments: [String], query: [String], headers: [String: String], body: Data) async -> Answer {
        let statusPath = segments.count == 4 && segments[3] == "status"
        guard segments.count == 3 || statusPath, method == "GET" || method == "PUT" else {
            return (404, [:], Self.legacyError("NOT_FOUND", "Not found"))
        }
        let scopes = method == "GET" ? StandInState.bulkReadScopes : StandInState.bulkManageScopes
        if let refusal = await authorizeLegacy(headers, anyOf: scopes) { return refusal }
        guard let bulkId = queryValues(query, "bulkId").first, !bulkId.isEmpty else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["bulkId": ["must not be blank"]]))
        }
        switch (method, statusPath) {
        case ("GET", false): return await schedule(bulkId)
        case ("PUT", false): return await reschedule(bulkId, body: body)
        case ("GET", true): return await status(bulkId)
        default: return await setStatus(bulkId, body: body)
        }
    }

    /// When a held bulk leaves.
    private func schedule(_ bulkId: String) async -> Answer {
        guard let bulk = await state.scheduledBulk(bulkId), bulk.state == .pending || bulk.state == .paused else {
            return Self.bulkNotFound
        }
        return (200, [:], Self.json(["bulkId": bulk.bulkId, "sendAt": Self.sendAtText(bulk.sendAt)]))
    }

    private func reschedule(_ bulkId: String, body: Data) async -> Answer {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        guard let value = object?["sendAt"], !(value is NSNull) else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["sendAt": ["must not be null"]]))
        }
        if let violation = StandInSendOptions.sendAtViolation(value, now: await state.now()) {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["sendAt": [violation]]))
        }
        guard let sendAt = (value as? String).flatMap(StandInSendOptions.sendAt) else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["sendAt": [StandInSendOptions.sendAtFormat]]))
        }
        switch await state.reschedule(bulkId, to: sendAt) {
        case .unknown:
            return Self.bulkNotFound
        case .refused(let why):
            return (400, [:], Self.legacyError("BAD_REQUEST", why))
        case .done(let bulk):
            // Moved into the past: it leaves now.
            await releaseDue()
            await keepReleasing()
            return (200, [:], Self.json(["bulkId": bulk.bulkId, "sendAt": Self.sendAtText(bulk.sendAt)]))
        }
    }

    private func status(_ bulkId: String) async -> Answer {
        guard let bulk = await state.scheduledBulk(bulkId) else { return Self.bulkNotFound }
        let shown = await state.shownStatus(bulk)
        return (200, [:], Self.json(["bulkId": bulk.bulkId, "status": shown.rawValue]))
    }

    private func setStatus(_ bulkId: String, body: Data) async -> Answer {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        guard let value = object?["status"], !(value is NSNull) else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["status": ["must not be null"]]))
        }
        let all = StandInState.BulkStatus.allCases.map(\.rawValue).sorted()
        guard let target = (value as? String).flatMap(StandInState.BulkStatus.init(rawValue:)) else {
            return (400, [:], Self.legacyError("BAD_REQUEST", "Bad request", fields: ["status": ["must be one of \(all)"]]))
        }
        switch await state.setBulkStatus(bulkId, to: target) {
        case .unknown:
            return Self.bulkNotFound
        case .refused(let why):
            return (400, [:], Self.legacyError("BAD_REQUEST", why))
        case .done(let bulk):
            // Resumed past its time: it leaves now.
            await releaseDue()
            await keepReleasing()
            let current = await state.scheduledBulk(bulkId) ?? bulk
            let shown = await state.shownStatus(current)
            return (200, [:], Self.json(["bulkId": current.bulkId, "status": shown.rawValue]))
        }
    }

    /// Hands every due scheduled bulk to the network, whole; its reports follow as for a message sent at once.
    func releaseDue() async {
        for message in await state.takeDue() { await report(message) }
    }

    /// Starts, unless one runs, the task that releases held bulks at their time, whether or not requests come: a webhook
    /// hears of a scheduled message without anyone asking. It looks at least every quarter second (the clock may be
    /// moved on) and ends when nothing is held or the server stopped.
    func keepReleasing() async {
        guard await state.claimTicker() else { return }
        let routes = self
        Task.detached {
            while let wait = await routes.state.nextDue() {
                if wait > 0 { try? await Task.sleep(nanoseconds: UInt64(min(wait, 0.25) * 1e9)) }
                await routes.releaseDue()
            }
        }
    }

    /// 401 for a key Infobip does not know, 403 for one without any of `scopes`, in the older envelope.
    func authorizeLegacy(_ headers: [String: String], anyOf scopes: Set<String>) async -> Answer? {
        guard let header = headers["authorization"], header.hasPrefix("App "),
              let granted = await state.scopes(ofKey: String(header.dropFirst(4))) else {
            return (401, [:], Self.legacyError("UNAUTHORIZED", "Unauthorized"))
        }
        return granted.isDisjoint(with: scopes) ? (403, [:], Self.legacyError("FORBIDDEN", "Forbidden")) : nil
    }

    static let bulkNotFound: Answer = (404, [:], legacyError("NOT_FOUND", "Bulk not found"))

    /// `{"requestError": {"serviceException": {"messageId", "text", "validationErrors"?}}}`.
    static func legacyError(_ messageId: String, _ text: String, fields: [String: [String]] = [:]) -> Data {
        var exception: [String: Any] = ["messageId": messageId, "text": text]
        if !fields.isEmpty { exception["validationErrors"] = fields }
        return json(["requestError": ["serviceException": exception]])
    }
}
