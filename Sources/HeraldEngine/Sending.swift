import Foundation
import GRDB
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
    public var sentAt: Date
    public var linkCode: String?

    init(row: Row) {
        messageId = row["id"]
        bulkId = row["bulkId"]
        address = row["address"]
        accepted = row["accepted"]
        reason = row["reason"]
        text = row["text"]
        price = row["price"]
        sentAt = Date(epochMilliseconds: row["sentAt"])
        linkCode = row["linkCode"]
    }
}

extension PlatformEngine {
    static let maxClientMessageIdLength = 200

    func sendInvitations(_ request: APIRequest) throws -> APIResponse {
        let app = try authenticateSecret(request)
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
        let parser = try PhoneNumberParser(defaultRegion: nil)
        let now = clock.now()
        let answer = try pool.write { db -> SendInvitationResponse in
            guard let message = try MessageRecord.find(db, applicationKey: app.key, key: body.messageKey) else {
                throw APIError.badRequest("unknown messageKey \(body.messageKey)",
                                          validationErrors: ["messageKey": ["no such message in this application"]])
            }
            // Which destinations replay an earlier messageId (in an earlier request or earlier in this one).
            var earlier: [String: SentMessage] = [:]
            var seenInRequest = Set<String>()
            var newCount = 0
            for d in destinations {
                guard let id = d.messageId, !id.isEmpty else { newCount += 1; continue }
                if earlier[id] == nil, let row = try Row.fetchOne(db, sql: "SELECT * FROM sent WHERE applicationKey = ? AND id = ?",
                                                                  arguments: [app.key, id]) {
                    earlier[id] = SentMessage(row: row)
                } else if earlier[id] == nil, seenInRequest.insert(id).inserted {
                    newCount += 1
                }
            }
            let earlierBulks = Set(earlier.values.map(\.bulkId))
            let bulkId: String
            if newCount == 0, earlierBulks.count == 1, let only = earlierBulks.first {
                bulkId = only  // a pure replay of one earlier request answers with that request's bulk
            } else {
                bulkId = Identifiers.uuid()
                try db.execute(sql: "INSERT INTO bulk(id, applicationKey, messageKey, sender, createdAt) VALUES (?, ?, ?, ?, ?)",
                               arguments: [bulkId, app.key, message.key, body.sender, now.epochMilliseconds])
            }
            var responses: [SendInvitationResponse.MessageResponse] = []
            for (position, d) in destinations.enumerated() {
                let clientId = d.messageId.flatMap { $0.isEmpty ? nil : $0 }
                if let id = clientId, let before = earlier[id] {
                    responses.append(replay(before, address: d.address, now: now))
                    continue
                }
                let sent = try send(db, d, messageId: clientId ?? Identifiers.uuid(), position: position, bulkId: bulkId,
                                    app: app, message: message, parser: parser, now: now)
                if let id = clientId { earlier[id] = sent }
                responses.append(result(sent, now: now))
            }
            let infoURL = try Self.deliveryInfoURL(bulkId)
            return SendInvitationResponse(sendSmsResponse: .init(bulkId: bulkId, deliveryInfoUrl: infoURL,
                                                                 responses: responses))
        }
        return try Self.json(answer)
    }

    /// The path of a bulk's delivery infos, its id encoded (a hand-made path would not be).
    static func deliveryInfoURL(_ bulkId: String) throws(APIError) -> String {
        try GetDeliveryInfos.path.path(["bulkId": bulkId])
    }

    /// Validates, renders and stores one new destination.
    private func send(_ db: Database, _ d: SendInvitationBody.Destination, messageId: String, position: Int, bulkId: String,
                      app: ApplicationRecord, message: MessageRecord, parser: PhoneNumberParser, now: Date) throws -> SentMessage {
        var address = d.address
        var reason: String?
        var text: String?
        var price = 0.0
        var code: String?
        switch Self.check(address: d.address, parser: parser) {
        case .failure(.invalid(let why)):
            reason = why
        case .success(let msisdn):
            address = msisdn
            let linkCode = try Self.newLinkCode(db)
            let rendered = message.template.render(link: config.shortLinkBase + linkCode,
                                                   values: ClientField.values(fromClientData: d.clientData ?? []),
                                                   missing: .empty)
            text = rendered.text
            price = (Double(SMSMeter.measure(rendered.text).segments) * config.pricePerSegment * 10_000).rounded() / 10_000
            code = linkCode
            try db.execute(sql: "INSERT INTO shortLink(code, applicationKey, messageId, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [linkCode, app.key, messageId, now.epochMilliseconds])
        }
        try db.execute(sql: """
            INSERT INTO sent(id, applicationKey, bulkId, position, address, accepted, reason, text, price, sentAt, linkCode)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [messageId, app.key, bulkId, position, address, reason == nil, reason, text, price,
                             now.epochMilliseconds, code])
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sent WHERE applicationKey = ? AND id = ?",
                                         arguments: [app.key, messageId]) else {
            throw APIError.server(status: 500, text: "message vanished after insert")
        }
        return SentMessage(row: row)
    }

    enum AddressCheck: Error { case invalid(String) }

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

    private func result(_ sent: SentMessage, now: Date) -> SendInvitationResponse.MessageResponse {
        SendInvitationResponse.MessageResponse(messageId: sent.messageId, status: status(of: sent, at: now), price: sent.price,
                                               address: sent.address, reason: sent.reason, bulkId: sent.bulkId)
    }

    /// The earlier result of a replayed messageId; a replay naming another number is refused instead.
    private func replay(_ before: SentMessage, address: String, now: Date) -> SendInvitationResponse.MessageResponse {
        let given = address.trimmingCharacters(in: .whitespaces).filter(\.isNumber)
        if before.accepted, given != before.address {
            return SendInvitationResponse.MessageResponse(
                messageId: before.messageId, status: .rejected, price: 0, address: address,
                reason: "messageId \(before.messageId) was already used for another number", bulkId: before.bulkId)
        }
        return result(before, now: now)
    }

    /// A stored message's status at `now`: rejected, or where the simulated carrier has it.
    nonisolated func status(of sent: SentMessage, at now: Date) -> DeliveryStatus {
        guard sent.accepted else { return .rejected }
        return carrier.status(messageId: sent.messageId, sentAt: sent.sentAt, at: now)
    }

    /// A stored message (rendered text, price, link), nil when unknown.
    public func sentMessage(applicationKey: String, messageId: String) throws -> SentMessage? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM sent WHERE applicationKey = ? AND id = ?",
                             arguments: [applicationKey, messageId]).map(SentMessage.init)
        }
    }

    /// Every stored message of a bulk, in request order (rejected ones included).
    public func messages(bulkId: String) throws -> [SentMessage] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sent WHERE bulkId = ? ORDER BY position", arguments: [bulkId])
                .map(SentMessage.init)
        }
    }

    /// The carrier status of a stored message now.
    public func deliveryStatus(applicationKey: String, messageId: String) throws -> DeliveryStatus? {
        try sentMessage(applicationKey: applicationKey, messageId: messageId).map { status(of: $0, at: clock.now()) }
    }

    // MARK: - Delivery infos

    func deliveryInfos(_ request: APIRequest, _ p: [String: String]) throws -> APIResponse {
        let app = try authenticateSecret(request)
        let bulkId = p["bulkId"] ?? ""
        let now = clock.now()
        let rows = try pool.read { db -> [SentMessage]? in
            guard try Row.fetchOne(db, sql: "SELECT 1 FROM bulk WHERE id = ? AND applicationKey = ?",
                                   arguments: [bulkId, app.key]) != nil else { return nil }
            return try Row.fetchAll(db, sql: "SELECT * FROM sent WHERE bulkId = ? AND accepted = 1 ORDER BY position",
                                    arguments: [bulkId]).map(SentMessage.init)
        }
        guard let rows else { throw APIError.notFound(GetDeliveryInfos.unknownBulkText) }
        let infos = rows.map {
            DeliveryInfo(address: $0.address, messageId: $0.messageId, clientCorrelator: bulkId,
                         deliveryStatus: status(of: $0, at: now), price: $0.price)
        }
        return try Self.json(DeliveryInfosResponse(resourceURL: request.path, deliveryInfo: infos))
    }
}
