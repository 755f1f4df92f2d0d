import Foundation
import HeraldAPI
import HeraldCore

/// One stored message of a bulk, as the engine keeps it.
public struct SentMessage: Sendable, Hashable {
    public var messageId: String
    public var bulkId: String
    /// E.164 without the plus when accepted; as given when rejected.
    public var address: String
    public var accepted: Bool
    public var reason: String?
    /// The rendered text (link and client fields filled); nil when rejected.
    public var text: String?
    public var price: Double
    public var currency: String?
    /// The carrier said the failure is for good.
    public var permanentFailure: Bool
    public var sentAt: Date
    public var linkCode: String?
    /// The status stored last (rejected, or the carrier's last report).
    public var status: DeliveryStatus
    /// When a held message leaves; nil when it was not held.
    public var notBefore: Date?
    /// How often its short link was opened, when read with its link; nil otherwise.
    public var clicks: Int?

    init(messageId: String, bulkId: String, address: String, accepted: Bool, reason: String?, text: String?, price: Double,
         currency: String?, permanentFailure: Bool, sentAt: Date, linkCode: String?, status: DeliveryStatus, notBefore: Date? = nil) {
        self.notBefore = notBefore
        self.messageId = messageId
        self.bulkId = bulkId
        self.address = address
        self.accepted = accepted
        self.reason = reason
        self.text = text
        self.price = price
        self.currency = currency
        self.permanentFailure = permanentFailure
        self.sentAt = sentAt
        self.linkCode = linkCode
        self.status = status
    }

    init(row: SQLRow) {
        messageId = row["id"]
        bulkId = row["bulkId"]
        address = row["address"]
        accepted = row["accepted"]
        reason = row["reason"]
        text = row["text"]
        price = row["price"]
        currency = row["currency"]
        permanentFailure = row["permanentFailure"]
        sentAt = Date(epochMilliseconds: row["sentAt"])
        linkCode = row["linkCode"]
        status = DeliveryStatus(parsing: row["status"])
        notBefore = (row["notBefore"] as Int64?).map(Date.init(epochMilliseconds:))
    }

    var deliveryInfo: DeliveryInfo {
        DeliveryInfo(address: address, messageId: messageId, clientCorrelator: bulkId, deliveryStatus: status, price: price,
                     currency: currency, reason: status.isImpossible || status == .deliveryUncertain ? reason : nil,
                     permanent: permanentFailure ? true : nil,
                     sendAt: status == .scheduled ? notBefore.map(WireTime.text) : nil, clicks: clicks)
    }
}

extension PlatformEngine {
    /// Invitations sent, and where a bulk's messages stand.
    static let sendingRoutes: [EngineRoute] = [
        EngineRoute(SendInvitation.self, .send) { engine, call in try await engine.sendInvitations(call) },
        EngineRoute(GetDeliveryInfos.self, .read) { engine, call in try await engine.deliveryInfos(call) },
    ]

    static let maxClientMessageIdLength = 200

    func sendInvitations(_ call: EngineCall<SendInvitation>) async throws -> SendInvitationResponse {
        var (answer, replayed) = try await acceptInvitations(call)
        bell.ring()
        // The carrier gets the messages only now that they are committed (the outbox); one that fails here
        // is handed over by the next pass.
        let bulkId = answer.sendSmsResponse.bulkId
        if config.handOverOnSend {
            do { try await drainOutbox(bulkId: bulkId) } catch {
                log.warning("carrier hand-over deferred", metadata: ["bulk": "\(bulkId)", "cause": "\(Self.failureText(error))"])
            }
        }
        // A replayed messageId answers where its message is now, as a read of its bulk would; new ones were
        // just accepted and answer so.
        let replayedBulks = Set(answer.sendSmsResponse.responses.filter { replayed.contains($0.messageId) }
            .compactMap(\.bulkId)).sorted()
        if config.collectReportsOnRead { for bulk in replayedBulks { try await catchUp(bulkId: bulk) } }
        let stored = try await storedOutcomes(bulkIds: [bulkId] + replayedBulks)
        for (i, response) in answer.sendSmsResponse.responses.enumerated() where response.status != .rejected {
            guard let now = stored[response.messageId] else { continue }
            if now.status == .rejected {
                // The carrier refused it after all (a refused key): say so, with its reason.
                answer.sendSmsResponse.responses[i].status = .rejected
                answer.sendSmsResponse.responses[i].reason = now.reason
            } else if config.collectReportsOnRead, replayed.contains(response.messageId) {
                answer.sendSmsResponse.responses[i].status = now.status
            } else if response.address?.contains("@") == true, now.status != .messageWaiting {
                // An email was handed to the mailer during this request: its answer is known.
                answer.sendSmsResponse.responses[i].status = now.status
                answer.sendSmsResponse.responses[i].reason = now.reason
            }
        }
        return answer
    }

    /// Validates a send request and stores its bulk, messages and event in one unit of work. Numbers are parsed and
    /// texts rendered before it, so the writer is held only for the inserts. Answers the response and the
    /// messageIds that replayed an earlier send.
    private nonisolated func acceptInvitations(_ call: EngineCall<SendInvitation>) async throws -> (SendInvitationResponse, replayed: Set<String>) {
        let (app, body) = (call.app, call.body)
        let destinations = body.recipients.destinations
        if destinations.isEmpty {
            throw APIError.badRequest("no destinations", validationErrors: ["recipients.destinations": ["must not be empty"]])
        }
        if destinations.count > config.maxDestinations {
            let rule = "at most \(config.maxDestinations) destinations per request"
            throw APIError.badRequest("too many destinations: \(destinations.count); \(rule)",
                                      validationErrors: ["recipients.destinations": [rule]])
        }
        var input = WireInput()
        input.identifier("messageKey", body.messageKey, maxLength: Self.maxKeyLength)
        if let email = body.email {
            input.identifier("sender", body.sender, maxLength: Self.maxEmailHeaderLength)
            input.identifier("email.subject", email.subject, maxLength: Self.maxEmailHeaderLength)
            if let text = email.text { input.text("email.text", text, maxLength: Self.maxEmailTextLength) }
        } else {
            input.identifier("sender", body.sender, maxLength: 64)
        }
        // A messageId stays a request-level field: the rejection of a destination is answered under it.
        for (i, d) in destinations.enumerated() {
            if let id = d.messageId, !id.isEmpty {
                input.identifier("recipients.destinations[\(i)].messageId", id, maxLength: Self.maxClientMessageIdLength)
            }
        }
        input.identifier("resendOf", body.resendOf, maxLength: 200)
        let asWritten = body.asWritten == true
        // An email leaves with the message's link and fields (its own text per destination: personal fields filled).
        if body.email != nil, asWritten { input.refuse("asWritten", "an email invitation cannot be sent as written") }
        let sendAt = Self.sendTime(body.sendAt, field: "sendAt", now: clock.now(), input: &input)
        try input.check("invalid invitation")
        // The destination's own fields reject that destination alone, the others accepted.
        let refused = destinations.map { Self.destinationProblem($0, email: body.email != nil, now: clock.now()) }
        if let email = body.email {
            try checkEmail(email, from: body.sender)
        } else {
            do { try SenderID.validate(body.sender) } catch {
                throw APIError.badRequest("invalid sender: \(error.description)", validationErrors: ["sender": [error.description]])
            }
        }
        if body.email != nil, let limit = config.emailsPerKeyPerHour, let caller = call.request.caller {
            try emailQuota.take(destinations.count, keyId: caller.keyId, limit: limit, now: clock.now())
        }
        let messageKey = body.messageKey
        guard var stored = try await store.read({ db in try db.applications.message(applicationKey: app.key, key: messageKey) }) else {
            throw APIError.badRequest("unknown messageKey \(body.messageKey)",
                                      validationErrors: ["messageKey": ["no such message in this application"]])
        }
        if let text = body.email?.text {
            // An email's own text is an edit of the message, under the same rule as SMS.
            guard app.messageEditingAllowed else { throw Self.editingOff }
            stored.text = text
        }
        // An answer's bulk is told by its text (when it has one text), not by the message it is filed under.
        let texts = Set(destinations.compactMap(\.text))
        if asWritten, texts.count == 1, let only = texts.first { stored.text = only }
        let message = stored
        let parser = try PhoneNumberParser(defaultRegion: nil)
        let now = clock.now()
        let prepared = zip(destinations, refused).map { d, refusal in
            let refusal = refusal ?? Self.textProblem(d, asWritten: asWritten, email: body.email != nil,
                                                           editingAllowed: app.messageEditingAllowed, message: message)
            var p = prepare(d, refused: refusal, message: message, parser: parser, email: body.email != nil, asWritten: asWritten)
            // A destination's own time (its quiet hours) is never earlier than the request's.
            let own = d.sendAt.flatMap(WireTime.date)
            p.notBefore = [sendAt, own].compactMap { $0 }.max().flatMap { $0 > now ? $0 : nil }
            return p
        }
        let audit = SendAudit(actor: auditActor(call.request), resendOf: body.resendOf, heldUntil: sendAt)
        return try await store.write { [self] db in
            try storeBulk(prepared, sender: body.sender, subject: body.email?.subject, app: app, message: message, now: now,
                          audit: audit, db)
        }
    }

    static let maxEmailHeaderLength = 998
    static let maxEmailAddressLength = 254
    static let maxEmailTextLength = 100_000

    /// An email invitation's From and subject as a mail header takes them, and a platform that sends email.
    private nonisolated func checkEmail(_ email: SendInvitationBody.Email, from sender: String) throws {
        guard mailer != nil else {
            throw APIError.badRequest("this platform sends no email",
                                      validationErrors: ["email": ["no mail server is set up here (a server's [smtp])"]])
        }
        let from: EmailAddress
        do { from = try EmailAddress(mailbox: sender, field: "sender") } catch {
            throw APIError.badRequest("invalid sender: \(error)", validationErrors: ["sender": ["\(error)"]])
        }
        if let problem = config.mailIdentity?.problem(with: from) {
            throw APIError.badRequest("invalid sender: \(problem)", validationErrors: ["sender": [problem]])
        }
        if email.subject.trimmingCharacters(in: .whitespaces).isEmpty {
            throw APIError.badRequest("invalid invitation", validationErrors: ["email.subject": ["must not be empty"]])
        }
    }

    /// A destination checked and rendered ahead of its unit of work.
    struct PreparedDestination: Sendable {
        var destination: SendInvitationBody.Destination
        var clientId: String?
        /// E.164 without the plus (an email address for an email invitation), or why it cannot be sent to.
        var address: Result<String, AddressCheck>
        var email = false
        var linkCode: String
        /// The destination's text leaves as written: no link made, no field filled.
        var asWritten = false
        var text: String?
        var price: Double
        /// When it leaves, when it is held; nil: now.
        var notBefore: Date?
    }

    private nonisolated func prepare(_ d: SendInvitationBody.Destination, refused: String?, message: MessageRecord,
                                     parser: PhoneNumberParser, email: Bool, asWritten: Bool) -> PreparedDestination {
        var d = d
        let address: Result<String, AddressCheck>
        if let refused {
            address = .failure(.invalid(refused))
            d.address = Self.shownAddress(d.address)
        } else {
            address = email ? Self.check(email: d.address) : Self.check(address: d.address, parser: parser)
        }
        var prepared = PreparedDestination(destination: d, clientId: d.messageId.flatMap { $0.isEmpty ? nil : $0 },
                                           address: address, linkCode: Identifiers.linkCode(), text: nil, price: 0)
        prepared.email = email
        prepared.asWritten = asWritten
        if case .success = prepared.address { render(&prepared, message: message) }
        return prepared
    }

    /// The text that leaves for one destination: its own text as written (an answer), else its own text or the
    /// message's with the link made and the client fields filled.
    private nonisolated func render(_ prepared: inout PreparedDestination, message: MessageRecord) {
        let own = prepared.destination.text
        if prepared.asWritten, let own {
            prepared.text = own
        } else {
            let template = own.map { MessageTemplate(text: $0, linkPlaceholder: message.placeholder) } ?? message.template
            prepared.text = template.render(link: config.link(code: prepared.linkCode),
                                            values: ClientField.values(fromClientData: prepared.destination.clientData ?? []),
                                            missing: .empty).text
        }
        if prepared.email { return }    // an email costs nothing here
        let segments = SMSMeter.measure(prepared.text ?? "").segments
        prepared.price = (Double(segments) * config.pricePerSegment * 10_000).rounded() / 10_000
    }

    /// Who sends, and how the audit trail tells the send.
    struct SendAudit: Sendable {
        var actor: AuditActor
        var resendOf: String?
        var heldUntil: Date?
    }

    /// Stores a request's bulk, new messages, event and audit entry; replays answer what their messageId stored
    /// before (a request that only replays adds no entry: it did nothing new).
    private nonisolated func storeBulk(_ prepared: [PreparedDestination], sender: String, subject: String?, app: ApplicationRecord,
                                   message: MessageRecord, now: Date, audit: SendAudit, _ db: any EngineSQL) throws
        -> (SendInvitationResponse, replayed: Set<String>) {
        // Which destinations replay an earlier messageId (in an earlier request or earlier in this one).
        var earlier = try db.bulks.messages(applicationKey: app.key, ids: prepared.compactMap(\.clientId))
        // A number that said stop is refused, with the day it did, in the unit that would have accepted it.
        let valid = prepared.compactMap { p -> String? in
            if case .success(let msisdn) = p.address { return msisdn }
            return nil
        }
        let stopped = try db.optOuts.optedOut(applicationKey: app.key, msisdns: valid)
        var prepared = prepared
        for i in prepared.indices {
            if case .success(let msisdn) = prepared[i].address, let since = stopped[msisdn] {
                prepared[i].address = .failure(.invalid(OptOut.reason(since: since)))
            }
        }
        var seenInRequest = Set<String>()
        var newCount = 0
        for p in prepared {
            guard let id = p.clientId else { newCount += 1; continue }
            if earlier[id] == nil, seenInRequest.insert(id).inserted { newCount += 1 }
        }
        let earlierBulks = Set(earlier.values.map(\.bulkId))
        let bulkId: String
        if newCount == 0, earlierBulks.count == 1, let only = earlierBulks.first {
            bulkId = only  // a pure replay of one earlier request answers with that request's bulk
        } else {
            bulkId = Identifiers.uuid()
            try db.bulks.addBulk(id: bulkId, applicationKey: app.key, messageKey: message.key, sender: sender, subject: subject,
                                 at: now.epochMilliseconds)
        }
        var responses: [SendInvitationResponse.MessageResponse] = []
        var replayed = Set<String>()
        var accepted: [DeliveryInfo] = []
        var new: [(sent: SentMessage, position: Int)] = []
        for (position, p) in prepared.enumerated() {
            if let id = p.clientId, let before = earlier[id] {
                responses.append(replay(before, address: p.destination.address))
                replayed.insert(id)
                continue
            }
            let sent = newMessage(p, messageId: p.clientId ?? Identifiers.uuid(), bulkId: bulkId, now: now)
            if let id = p.clientId { earlier[id] = sent }
            if sent.accepted { accepted.append(sent.deliveryInfo) }
            responses.append(result(sent))
            new.append((sent, position))
        }
        // A key's daily cap (SpendCaps): refused whole, in this unit of work, before anything of it is stored.
        let estimate = new.filter(\.sent.accepted).reduce(0) { $0 + $1.sent.price }
        try checkSpendCap(keyId: audit.actor.keyId, keyName: audit.actor.name, estimate: estimate, now: now, db)
        if let keyId = audit.actor.keyId, !new.isEmpty { try db.bulks.setKey(bulkId: bulkId, keyId: keyId) }
        try insert(&new, prepared: prepared, applicationKey: app.key, message: message, now: now, db)
        if !new.isEmpty {
            let what = Self.sendWhat(accepted: accepted.count, refused: new.count - accepted.count, sender: sender, subject: subject,
                                     heldUntil: audit.heldUntil)
            try db.audit.append(AuditRecord(applicationKey: app.key, at: now.epochMilliseconds, actor: audit.actor,
                                            action: audit.resendOf == nil ? .send : .resend, bulkId: bulkId,
                                            subject: audit.resendOf, what: what))
        }
        if !accepted.isEmpty {
            // Every subscriber learns of the bulk (and who is in it) in the transaction that accepted it.
            try appendEvent(db, applicationKey: app.key, .deliveryChanged(bulkId: bulkId, deliveryInfo: accepted, isDelta: true,
                                                                          text: message.text, sentBy: audit.actor.name))
        }
        let infoURL = try Self.deliveryInfoURL(bulkId)
        return (SendInvitationResponse(sendSmsResponse: .init(bulkId: bulkId, deliveryInfoUrl: infoURL, responses: responses)),
                replayed)
    }

    /// The stored status and failure reason of every message of these bulks, by messageId.
    private func storedOutcomes(bulkIds: [String]) async throws -> [String: (status: DeliveryStatus, reason: String?)] {
        try await store.read { db in try db.bulks.outcomes(bulkIds: bulkIds) }
    }

    /// The path of a bulk's delivery infos, its id encoded (a hand-made path would not be).
    static func deliveryInfoURL(_ bulkId: String) throws(APIError) -> String {
        try GetDeliveryInfos.path.path(["bulkId": bulkId])
    }

    /// A new message as it will be stored: accepted with its link and text, or rejected with the reason.
    private nonisolated func newMessage(_ p: PreparedDestination, messageId: String, bulkId: String, now: Date) -> SentMessage {
        let at = Date(epochMilliseconds: now.epochMilliseconds)
        switch p.address {
        case .failure(.invalid(let why)):
            return SentMessage(messageId: messageId, bulkId: bulkId, address: p.destination.address, accepted: false, reason: why,
                               text: nil, price: 0, currency: nil, permanentFailure: false, sentAt: at, linkCode: nil,
                               status: .rejected)
        case .success(let msisdn):
            return SentMessage(messageId: messageId, bulkId: bulkId, address: msisdn, accepted: true, reason: nil, text: p.text,
                               price: p.price, currency: nil, permanentFailure: false, sentAt: at, linkCode: p.asWritten ? nil : p.linkCode,
                               status: p.notBefore == nil ? .messageWaiting : .scheduled, notBefore: p.notBefore)
        }
    }

    /// Stores new messages and their short links, a chunk of rows per statement.
    private nonisolated func insert(_ new: inout [(sent: SentMessage, position: Int)], prepared: [PreparedDestination],
                                    applicationKey: String, message: MessageRecord, now: Date, _ db: any EngineSQL) throws {
        let at = now.epochMilliseconds
        let linked = new.indices.filter { new[$0].sent.linkCode != nil }
        for chunk in SQLBatch.chunks(linked) {
            let taken = try db.links.addMessageLinks(chunk.compactMap { i in new[i].sent.linkCode.map { ($0, new[i].sent.messageId) } },
                                                     applicationKey: applicationKey, at: at)
            // A code that was taken already (a one in 2^40 chance) gets another, and the text its link.
            for i in chunk where !taken.contains(new[i].sent.linkCode ?? "") {
                var p = prepared[new[i].position]
                repeat {
                    p.linkCode = Identifiers.linkCode()
                    render(&p, message: message)
                } while try db.links.addMessageLinks([(p.linkCode, new[i].sent.messageId)], applicationKey: applicationKey, at: at).isEmpty
                new[i].sent.linkCode = p.linkCode
                new[i].sent.text = p.text
            }
        }
        try db.bulks.insert(new.map { m in
            let email = prepared[m.position].email
            // Accepted: in the outbox (1), or held here until its time (3) unless the carrier holds it itself (an
            // email is always held here); refused: never handed over (0).
            let outbox = !m.sent.accepted ? 0 : m.sent.notBefore == nil || (carrier.holdsScheduled && !email) ? 1 : 3
            return NewSentRow(message: m.sent, position: m.position, outbox: outbox, email: email)
        }, applicationKey: applicationKey, at: at)
    }

    enum AddressCheck: Error, Sendable { case invalid(String) }

    /// An email address as given (checked), or why it cannot receive an invitation.
    static func check(email address: String) -> Result<String, AddressCheck> {
        do { return .success(try EmailAddress(address, field: "address").address) } catch {
            return .failure(.invalid("\(error)"))
        }
    }

    /// The address as E.164 without the plus, or why it cannot receive an invitation.
    static func check(address: String, parser: PhoneNumberParser) -> Result<String, AddressCheck> {
        var text = address.trimmingCharacters(in: .whitespaces)
        if text.lowercased().hasPrefix("tel:") { text = String(text.dropFirst(4)) }
        if text.isEmpty { return .failure(.invalid("empty address")) }
        if !text.hasPrefix("+") { text = "+" + text }
        let number = parser.parse(text)
        guard number.isValid, let msisdn = number.msisdn else {
            return .failure(.invalid("invalid number: \(number.invalidReason ?? "not a phone number")"))
        }
        guard number.kind.canReceiveSMS else {
            return .failure(.invalid("cannot receive SMS: \(number.kind.rawValue) number"))
        }
        return .success(msisdn)
    }

    private nonisolated func result(_ sent: SentMessage) -> SendInvitationResponse.MessageResponse {
        SendInvitationResponse.MessageResponse(messageId: sent.messageId, status: sent.status, price: sent.price,
                                               address: sent.address, reason: sent.reason, bulkId: sent.bulkId,
                                               text: sent.accepted ? sent.text : nil)
    }

    /// The earlier result of a replayed messageId; a replay naming another number is refused instead.
    private nonisolated func replay(_ before: SentMessage, address: String) -> SendInvitationResponse.MessageResponse {
        let given = before.address.contains("@") ? address.trimmingCharacters(in: .whitespaces)
            : address.trimmingCharacters(in: .whitespaces).filter(\.isNumber)
        if before.accepted, given != before.address {
            return SendInvitationResponse.MessageResponse(
                messageId: before.messageId, status: .rejected, price: 0, address: address,
                reason: "messageId \(before.messageId) was already used for another number", bulkId: before.bulkId)
        }
        return result(before)
    }

    /// A stored message (rendered text, price, link), nil when unknown.
    public func sentMessage(applicationKey: String, messageId: String) async throws -> SentMessage? {
        try await store.read { db in try db.bulks.message(applicationKey: applicationKey, id: messageId) }
    }

    /// Every stored message of a bulk, in request order (rejected ones included).
    public func messages(bulkId: String) async throws -> [SentMessage] {
        try await store.read { db in try db.bulks.messages(bulkId: bulkId) }
    }

    /// The stored status of a message (reports due by now collected first when the engine collects on read).
    public func deliveryStatus(applicationKey: String, messageId: String) async throws -> DeliveryStatus? {
        if config.collectReportsOnRead, let bulkId = try await sentMessage(applicationKey: applicationKey, messageId: messageId)?.bulkId {
            try await catchUp(bulkId: bulkId)
        }
        return try await sentMessage(applicationKey: applicationKey, messageId: messageId)?.status
    }

    /// Hands a bulk's outbox to the carrier and stores its reports due by now.
    func catchUp(bulkId: String) async throws {
        guard config.collectAcrossBulksOnRead else {
            try await drainOutbox(bulkId: bulkId)
            try await collectReports(bulkId: bulkId)
            return
        }
        // Every bulk at once, in one pass that concurrent reads share (one logs call, not one per read).
        if let running = sharedCatchUp { return try await running.value }
        let pass = Task {
            try await self.drainOutbox(bulkId: nil)
            try await self.collectReports(bulkId: nil)
            await self.collectReplies()
        }
        sharedCatchUp = pass
        defer { sharedCatchUp = nil }
        try await pass.value
    }

    // MARK: - Delivery infos

    nonisolated func deliveryInfos(_ call: EngineCall<GetDeliveryInfos>) async throws -> DeliveryInfosResponse {
        let (app, bulkId) = (call.app, call.path.bulkId)
        if config.collectReportsOnRead { try await catchUp(bulkId: bulkId) }
        let rows = try await store.read { db in try db.bulks.accepted(bulkId: bulkId, applicationKey: app.key) }
        guard let rows else { throw APIError.notFound(GetDeliveryInfos.unknownBulkText) }
        return DeliveryInfosResponse(resourceURL: call.request.path, deliveryInfo: rows.map(\.deliveryInfo))
    }
}
