import Foundation
import HeraldAPI
import HeraldCore

struct MessageRecord: Sendable {
    var key: String
    var applicationKey: String
    var text: String
    var placeholder: String

    init(row: SQLRow) {
        key = row["key"]
        applicationKey = row["applicationKey"]
        text = row["text"]
        placeholder = row["placeholder"]
    }

    static func find(_ db: any EngineSQL, applicationKey: String, key: String) throws -> MessageRecord? {
        try db.row("SELECT * FROM message WHERE applicationKey = ? AND key = ?", [applicationKey, key]).map(MessageRecord.init)
    }

    var template: MessageTemplate { MessageTemplate(text: text, linkPlaceholder: placeholder) }

    var wire: ApplicationMessage {
        let fields = template.fields
        return ApplicationMessage(key: key, clientMobileApplicationKey: applicationKey, text: text, placeholder: placeholder,
                                  clientPlaceholder: fields.isEmpty ? nil : fields.joined(separator: ","))
    }
}

extension PlatformEngine {
    static let maxMessageLength = 1600
    static let maxPlaceholderLength = 16
    static let maxKeyLength = 100

    func getMessage(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request, applicationKey: p["applicationKey"])
        let key = p["messageId"] ?? ""
        guard let message = try await store.read({ db in try MessageRecord.find(db, applicationKey: app.key, key: key) }) else {
            throw APIError.notFound("Message \(key) not found")
        }
        return try Self.json(message.wire)
    }

    func createMessage(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request, applicationKey: p["applicationKey"])
        // A message of one's own is an edit too: with editing off, invitations say what the admin's messages say.
        guard app.messageEditingAllowed else { throw Self.editingOff }
        let body = try decodeBody(request, as: ApplicationMessageBody.self)
        let key = body.key ?? Identifiers.hex(bytes: 16).uppercased()
        let text = body.text ?? ""
        var input = Self.validate(text: text, placeholder: body.placeholder)
        input.identifier("key", key, maxLength: Self.maxKeyLength)
        try input.check("the message is not valid")
        let now = nowMs
        let placeholder = body.placeholder ?? MessageTemplate.defaultLinkPlaceholder
        let message = try await store.write { db -> MessageRecord in
            if try db.row("SELECT 1 FROM message WHERE key = ?", [key]) != nil {
                throw APIError.badRequest("a message with key \(key) already exists", validationErrors: ["key": ["already exists"]])
            }
            try db.execute("""
                INSERT INTO message(key, applicationKey, text, placeholder, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
                """, [key, app.key, text, placeholder, now, now])
            guard let m = try MessageRecord.find(db, applicationKey: app.key, key: key) else {
                throw APIError.server(status: 500, text: "message vanished after insert")
            }
            return m
        }
        return try Self.json(message.wire, status: 201)
    }

    func updateMessage(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request, applicationKey: p["applicationKey"])
        guard app.messageEditingAllowed else { throw Self.editingOff }
        let body = try decodeBody(request, as: ApplicationMessageBody.self)
        let key = p["messageId"] ?? ""
        let now = nowMs
        let message = try await store.write { db -> MessageRecord in
            guard var m = try MessageRecord.find(db, applicationKey: app.key, key: key) else {
                throw APIError.notFound("Message \(key) not found")
            }
            if let text = body.text { m.text = text }
            if let placeholder = body.placeholder { m.placeholder = placeholder }
            try Self.validate(text: m.text, placeholder: m.placeholder).check("the message is not valid")
            try db.execute("UPDATE message SET text = ?, placeholder = ?, updatedAt = ? WHERE key = ?",
                           [m.text, m.placeholder, now, key])
            return m
        }
        return try Self.json(message.wire)
    }

    static let editingOff = APIError.forbidden("message editing is not allowed for this application")

    static func validate(text: String, placeholder: String?) -> WireInput {
        var input = WireInput()
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { input.refuse("text", "must not be empty") }
        input.text("text", text, maxLength: maxMessageLength)
        input.identifier("placeholder", placeholder, maxLength: maxPlaceholderLength)
        return input
    }

    // MARK: - Settings

    func getSettings(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        try Self.json(try await authenticateSecret(request, applicationKey: p["applicationKey"]).settings)
    }

    func updateSettings(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request, applicationKey: p["applicationKey"])
        let body = try decodeBody(request, as: ApplicationSettingsBody.self)
        let updated = try await store.write { db -> ApplicationRecord in
            if let key = body.defaultMessageKey, try MessageRecord.find(db, applicationKey: app.key, key: key) == nil {
                throw APIError.badRequest("no message \(key) in this application",
                                          validationErrors: ["defaultMessageKey": ["unknown message"]])
            }
            try db.execute("""
                UPDATE application SET messageEditingAllowed = COALESCE(?, messageEditingAllowed),
                    inboxAuthMode = COALESCE(?, inboxAuthMode), defaultMessageKey = COALESCE(?, defaultMessageKey)
                WHERE key = ?
                """, [body.messageEditingAllowed, body.inboxAuthMode?.rawValue, body.defaultMessageKey, app.key])
            guard let a = try ApplicationRecord.find(db, key: app.key) else { throw APIError.unauthorized }
            return a
        }
        return try Self.json(updated.settings)
    }
}
