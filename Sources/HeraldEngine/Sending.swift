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

    init(messageId: String, bulkId: String, address: String, accepted: Bool, reason: String?, text: String?, price: Double,
         currency: String?, permanentFailure: Bool, sentAt: Date, linkCode: String?, status: DeliveryStatus) {
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
    }

    var deliveryInfo: DeliveryInfo {
        DeliveryInfo(address: address, messageId: messageId, clientCorrelator: bulkId, deliveryStatus: status, price: price,
                     currency: currency, reason: status.isImpossible ? reason : nil, permanent: permanentFailure ? true : nil)
    }
}

extension PlatformEngine {
    static let maxClientMessageIdLength = 200

    func sendInvitations(_ request: APIRequest) async throws -> APIResponse {
        var (answer, replayed) = try await acceptInvitations(request)
        bell.ring()
        // The carrier gets the messages only now that they are committed (the outbox); one that fails here
        // is handed over by the next pass.
        let bulkId = answer.sendSmsResponse.bulkId
        do { try await drainOutbox(bulkId: bulkId) } catch {
            log.warning("carrier hand-over deferred", metadata: ["bulk": "\(bulkId)", "cause": "\(Self.failureText(error))"])
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
            }
        }
        return try Self.json(answer)
    }

    /// Validates a send request and stores its bulk, messages and event in one unit of work. Numbers are parsed and
    /// texts rendered before it, so the writer is held only for the inserts. Answers the response and the
    /// messageIds that replayed an earlier send.
    private func acceptInvitations(_ request: APIRequest) async throws -> (SendInvitationResponse, replayed: Set<String>) {
        let app = try await authenticateSecret(request)
        let body = try decodeBody(request, as: SendInvitationBody.self)
        let destinations = body.recipients.destinations
        if destinations.isEmpty {
            throw APIError.badRequest("no destinations", validationErrors: ["recipients.destinations": ["must not be empty"]])
        }
        if destinations.count > config.maxDestinations {
            let rule = "at most \(config.maxDestinations) destinations per request"
            throw APIError.badRequest("too many destinations: \(destinations.count); \(rule)",
                                      validationErrors: ["recipients.destinations": [rule]])
        }
        do { try SenderID.validate(body.sender) } catch {
            throw APIError.badRequest("invalid sender: \(error.description)", validationErrors: ["sender": [error.description]])
        }
        if let tooLong = destinations.first(where: { ($0.messageId?.count ?? 0) > Self.maxClientMessageIdLength }) {
            throw APIError.badRequest("messageId \(tooLong.messageId ?? "") is too long",
                                      validationErrors: ["messageId": ["at most \(Self.maxClientMessageIdLength) characters"]])
        }
        let messageKey = body.messageKey
        guard let message = try await store.read({ db in try MessageRecord.find(db, applicationKey: app.key, key: messageKey) }) else {
            throw APIError.badRequest("unknown messageKey \(body.messageKey)",
                                      validationErrors: ["messageKey": ["no such message in this application"]])
        }
        let parser = try PhoneNumberParser(defaultRegion: nil)
        let prepared = destinations.map { prepare($0, message: message, parser: parser) }
        let now = clock.now()
        return try await store.write { [self] db in
            try storeBulk(prepared, sender: body.sender, app: app, message: message, now: now, db)
        }
    }

    /// A destination checked and rendered ahead of its unit of work.
    struct PreparedDestination: Sendable {
        var destination: SendInvitationBody.Destination
        var clientId: String?
        /// E.164 without the plus, or why it cannot be sent to.
        var address: Result<String, AddressCheck>
        var linkCode: String
        var text: String?
        var price: Double
    }

    private nonisolated func prepare(_ d: SendInvitationBody.Destination, message: MessageRecord,
                                     parser: PhoneNumberParser) -> PreparedDestination {
        var prepared = PreparedDestination(destination: d, clientId: d.messageId.flatMap { $0.isEmpty ? nil : $0 },
                                           address: Self.check(address: d.address, parser: parser),
                                           linkCode: Identifiers.linkCode(), text: nil, price: 0)
        if case .success = prepared.address { render(&prepared, message: message) }
        return prepared
    }

    private nonisolated func render(_ prepared: inout PreparedDestination, message: MessageRecord) {
        let rendered = message.template.render(link: config.link(code: prepared.linkCode),
                                               values: ClientField.values(fromClientData: prepared.destination.clientData ?? []),
                                               missing: .empty)
        prepared.text = rendered.text
        prepared.price = (Double(SMSMeter.measure(rendered.text).segments) * config.pricePerSegment * 10_000).rounded() / 10_000
    }

    /// Stores a request's bulk, new messages and event; replays answer what their messageId stored before.
    private nonisolated func storeBulk(_ prepared: [PreparedDestination], sender: String, app: ApplicationRecord,
                                   message: MessageRecord, now: Date, _ db: any EngineSQL) throws
        -> (SendInvitationResponse, replayed: Set<String>) {
        // Which destinations replay an earlier messageId (in an earlier request or earlier in this one).
        var earlier = try Self.storedMessages(db, applicationKey: app.key, ids: prepared.compactMap(\.clientId))
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
            try db.execute("INSERT INTO bulk(id, applicationKey, messageKey, sender, createdAt) VALUES (?, ?, ?, ?, ?)",
                           [bulkId, app.key, message.key, sender, now.epochMilliseconds])
        }
        var responses: [SendInvitationResponse.MessageResponse] = []
        var replayed = Set<String>()
        var accepted: [DeliveryInfo] = []
        for (position, p) in prepared.enumerated() {
            if let id = p.clientId, let before = earlier[id] {
                responses.append(replay(before, address: p.destination.address))
                replayed.insert(id)
                continue
            }
            let sent = try insert(p, messageId: p.clientId ?? Identifiers.uuid(), position: position, bulkId: bulkId,
                                  app: app, message: message, now: now, db)
            if let id = p.clientId { earlier[id] = sent }
            if sent.accepted { accepted.append(sent.deliveryInfo) }
            responses.append(result(sent))
        }
        if !accepted.isEmpty {
            // Every subscriber learns of the bulk (and who is in it) in the transaction that accepted it.
            try appendEvent(db, applicationKey: app.key, .deliveryChanged(bulkId: bulkId, deliveryInfo: accepted, isDelta: true))
        }
        let infoURL = try Self.deliveryInfoURL(bulkId)
        return (SendInvitationResponse(sendSmsResponse: .init(bulkId: bulkId, deliveryInfoUrl: infoURL, responses: responses)),
                replayed)
    }

    /// The stored messages with these ids, by id (asked 500 at a time).
    private static func storedMessages(_ db: any EngineSQL, applicationKey: String, ids: [String]) throws -> [String: SentMessage] {
        var found: [String: SentMessage] = [:]
        let unique = Array(Set(ids))
        for start in stride(from: 0, to: unique.count, by: 500) {
            let chunk = Array(unique[start..<min(start + 500, unique.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            for row in try db.rows("SELECT * FROM sent WHERE applicationKey = ? AND id IN (\(marks))", [applicationKey] + chunk) {
                let sent = SentMessage(row: row)
                found[sent.messageId] = sent
            }
        }
        return found
    }

    /// The stored status and failure reason of every message of these bulks, by messageId.
    private func storedOutcomes(bulkIds: [String]) async throws -> [String: (status: DeliveryStatus, reason: String?)] {
        let marks = Array(repeating: "?", count: bulkIds.count).joined(separator: ", ")
        let rows = try await store.read { db in try db.rows("SELECT id, status, reason FROM sent WHERE bulkId IN (\(marks))", bulkIds) }
        return Dictionary(rows.map { ($0["id"] as String, (DeliveryStatus(parsing: $0["status"]), $0["reason"] as String?)) }) {
            first, _ in first
        }
    }

    /// The path of a bulk's delivery infos, its id encoded (a hand-made path would not be).
    static func deliveryInfoURL(_ bulkId: String) throws(APIError) -> String {
        try GetDeliveryInfos.path.path(["bulkId": bulkId])
    }

    /// Stores one new destination (and its short link, when it can be sent to).
    private nonisolated func insert(_ prepared: PreparedDestination, messageId: String, position: Int, bulkId: String,
                                    app: ApplicationRecord, message: MessageRecord, now: Date, _ db: any EngineSQL) throws -> SentMessage {
        var p = prepared
        var address = p.destination.address
        var reason: String?
        var code: String?
        switch p.address {
        case .failure(.invalid(let why)):
            reason = why
            p.text = nil
            p.price = 0
        case .success(let msisdn):
            address = msisdn
            // A code taken meanwhile (a one in 2^40 chance) gets another, and the text its link.
            while try db.execute("""
                INSERT INTO shortLink(code, applicationKey, messageId, createdAt) VALUES (?, ?, ?, ?) ON CONFLICT(code) DO NOTHING
                """, [p.linkCode, app.key, messageId, now.epochMilliseconds]) == 0 {
                p.linkCode = Identifiers.linkCode()
                render(&p, message: message)
            }
            code = p.linkCode
        }
        let accepted = reason == nil
        let status: DeliveryStatus = accepted ? .messageWaiting : .rejected
        try db.execute("""
            INSERT INTO sent(id, applicationKey, bulkId, position, address, accepted, reason, text, price, sentAt, linkCode,
                             status, statusAt, outbox, nextCheckAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
            """, [messageId, app.key, bulkId, position, address, accepted, reason, p.text, p.price,
                  now.epochMilliseconds, code, status.rawValue, now.epochMilliseconds, accepted])
        return SentMessage(messageId: messageId, bulkId: bulkId, address: address, accepted: accepted, reason: reason,
                           text: p.text, price: p.price, currency: nil, permanentFailure: false,
                           sentAt: Date(epochMilliseconds: now.epochMilliseconds), linkCode: code, status: status)
    }

    enum AddressCheck: Error, Sendable { case invalid(String) }

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
                                               address: sent.address, reason: sent.reason, bulkId: sent.bulkId)
    }

    /// The earlier result of a replayed messageId; a replay naming another number is refused instead.
    private nonisolated func replay(_ before: SentMessage, address: String) -> SendInvitationResponse.MessageResponse {
        let given = address.trimmingCharacters(in: .whitespaces).filter(\.isNumber)
        if before.accepted, given != before.address {
            return SendInvitationResponse.MessageResponse(
                messageId: before.messageId, status: .rejected, price: 0, address: address,
                reason: "messageId \(before.messageId) was already used for another number", bulkId: before.bulkId)
        }
        return result(before)
    }

    /// A stored message (rendered text, price, link), nil when unknown.
    public func sentMessage(applicationKey: String, messageId: String) async throws -> SentMessage? {
        try await store.read { db in
            try db.row("SELECT * FROM sent WHERE applicationKey = ? AND id = ?", [applicationKey, messageId]).map(SentMessage.init)
        }
    }

    /// Every stored message of a bulk, in request order (rejected ones included).
    public func messages(bulkId: String) async throws -> [SentMessage] {
        try await store.read { db in
            try db.rows("SELECT * FROM sent WHERE bulkId = ? ORDER BY position", [bulkId]).map(SentMessage.init)
        }
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
        }
        sharedCatchUp = pass
        defer { sharedCatchUp = nil }
        try await pass.value
    }

    // MARK: - Delivery infos

    func deliveryInfos(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request)
        let bulkId = p["bulkId"] ?? ""
        if config.collectReportsOnRead { try await catchUp(bulkId: bulkId) }
        let rows = try await bulkMessages(app: app, bulkId: bulkId)
        guard let rows else { throw APIError.notFound(GetDeliveryInfos.unknownBulkText) }
        return try Self.json(DeliveryInfosResponse(resourceURL: request.path, deliveryInfo: rows.map(\.deliveryInfo)))
    }

    /// The accepted messages of an application's bulk, nil when it has no such bulk.
    private func bulkMessages(app: ApplicationRecord, bulkId: String) async throws -> [SentMessage]? {
        try await store.read { db -> [SentMessage]? in
            guard try db.row("SELECT 1 FROM bulk WHERE id = ? AND applicationKey = ?", [bulkId, app.key]) != nil else { return nil }
            return try db.rows("SELECT * FROM sent WHERE bulkId = ? AND accepted = 1 ORDER BY position", [bulkId])
                .map(SentMessage.init)
        }
    }
}
