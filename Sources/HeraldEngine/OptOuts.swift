import Foundation
import HeraldAPI
import HeraldCore

/// Numbers that said stop, per application: kept by the platform so every terminal of a team honours them. A send
/// refuses an opted-out destination ("opted out on DATE") in the unit of work that would have accepted it; a reply
/// that says stop (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, or a configured word) opts its sender out.
extension PlatformEngine {
    /// The words that opt a number out when a reply is one of them (any case; the configured ones are added).
    public static let stopWords: Set<String> = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]

    /// A number from a path: E.164 (with or without the plus), valid; else a 400 naming it.
    nonisolated static func optOutNumber(_ text: String) throws -> String {
        let parser = try PhoneNumberParser(defaultRegion: nil)
        switch check(address: text, parser: parser) {
        case .success(let msisdn): return msisdn
        case .failure(.invalid(let why)):
            throw APIError.badRequest("invalid number", validationErrors: ["number": ["\(text.prefix(40)): \(why)"]])
        }
    }

    // MARK: - Routes

    /// The numbers that said stop.
    static let optOutRoutes: [EngineRoute] = [
        EngineRoute(ListOptOuts.self, .read) { engine, call in try await engine.listOptOuts(call) },
        // The body is optional; one that is there must be an opt-out (a malformed one is a 400, not ignored).
        EngineRoute(AddOptOut.self, .send, whenNoBody: OptOutBody()) { engine, call in try await engine.addOptOut(call) },
        EngineRoute(RemoveOptOut.self, .send) { engine, call in try await engine.removeOptOut(call) },
    ]

    nonisolated func listOptOuts(_ call: EngineCall<ListOptOuts>) async throws -> OptOutList {
        let app = call.app
        let list = try await store.read { db in try db.optOuts.list(applicationKey: app.key) }
        return OptOutList(optOuts: list)
    }

    nonisolated func addOptOut(_ call: EngineCall<AddOptOut>) async throws -> OptOut {
        let (app, body) = (call.app, call.body)
        let msisdn = try Self.optOutNumber(call.path.number)
        var input = WireInput()
        input.text("source", body.source, maxLength: 64)
        if body.source?.lowercased().hasPrefix(OptOut.replySourcePrefix) == true {
            input.refuse("source", "\"\(OptOut.replySourcePrefix)…\" is kept for opt-outs a person's reply made")
        }
        try input.check("invalid opt-out")
        let at = nowMs
        let actor = auditActor(call.request)
        let entry = try await store.write { db in
            let known = try db.optOuts.find(applicationKey: app.key, msisdn: msisdn) != nil
            let entry = try db.optOuts.add(applicationKey: app.key, msisdn: msisdn, source: body.source ?? "herald", at: at)
            if !known {
                try db.audit.append(AuditRecord(applicationKey: app.key, at: at, actor: actor, action: .optOutAdd, subject: entry.number,
                                                what: "opted out (\(Self.auditText(entry.source)))"))
            }
            return entry
        }
        return entry
    }

    /// Takes a number's opt-out back. One the person asked for (a stop reply) is theirs: on a server only an admin key
    /// removes it. Every removal is logged with the key that made it.
    nonisolated func removeOptOut(_ call: EngineCall<RemoveOptOut>) async throws -> OptOutList {
        let app = call.app
        let msisdn = try Self.optOutNumber(call.path.number)
        let caller = call.request.caller
        let actor = auditActor(call.request)
        let at = nowMs
        let removed = try await store.write { db -> OptOut in
            guard let entry = try db.optOuts.find(applicationKey: app.key, msisdn: msisdn) else {
                throw APIError.notFound("+\(msisdn) is not opted out")
            }
            if entry.fromThePerson, let caller, caller.role != .admin {
                throw APIError.forbidden("+\(msisdn) opted out by replying (\(entry.source)): only an admin key takes that back")
            }
            try db.optOuts.remove(applicationKey: app.key, msisdn: msisdn)
            try db.audit.append(AuditRecord(applicationKey: app.key, at: at, actor: actor, action: .optOutRemove, subject: entry.number,
                                            what: "taken off the opt-out list (was \(Self.auditText(entry.source)), since \(entry.since.prefix(10)))"))
            return entry
        }
        log.notice("opt-out removed", metadata: [
            "number": "+\(msisdn)", "source": "\(removed.source)", "since": "\(removed.since)",
            "by": "\(caller.map { "key \($0.keyId) \"\($0.name)\" (\($0.role.rawValue))" } ?? "this terminal")",
        ])
        return OptOutList(optOuts: [])
    }

    /// How often the carrier's received messages are collected (a pass between takes none).
    static let repliesInterval: TimeInterval = 30

    /// Collects the replies the carrier received (at most every `repliesInterval`) for the platform's application:
    /// each kept once, threaded, and those that say stop opting their number out (`storeReplies`). A reply is given
    /// once: a batch the store refuses is kept one reply at a time, so one bad reply does not lose the others.
    func collectReplies() async {
        guard now.timeIntervalSince(repliesCollectedAt) >= Self.repliesInterval else { return }
        repliesCollectedAt = now
        do {
            let replies = try await carrier.replies(at: now)
            guard !replies.isEmpty else { return }
            let app = try await bootstrapSandbox().applicationKey
            var kept: [ReplyWire] = []
            do { kept = try await storeReplies(replies, applicationKey: app) } catch {
                log.warning("could not keep the replies together; keeping them one by one", metadata: ["cause": "\(Self.failureText(error))"])
                for reply in replies {
                    do { kept += try await storeReplies([reply], applicationKey: app) } catch {
                        log.error("a reply was lost", metadata: ["cause": "\(Self.failureText(error))"])
                    }
                }
            }
            log.info("replies collected", metadata: [
                "received": "\(replies.count)", "kept": "\(kept.count)", "opted out": "\(kept.filter(\.optedOut).count)",
            ])
        } catch {
            log.warning("could not collect the replies", metadata: ["cause": "\(Self.failureText(error))"])
        }
    }

    /// A reply the carrier received from `from`: kept (`storeReplies`, with a fresh id) and, when its first word is a
    /// stop word, the number opted out. Answers the opt-out, nil when the reply did not say stop.
    public func receiveReply(applicationKey: String, from: String, text: String) async throws -> OptOut? {
        try await receiveReply(applicationKey: applicationKey, reply: CarrierReply(from: from, text: text)).optOut
    }
}
