import Foundation
import HeraldAPI
import HeraldCore

struct MessageRecord: Sendable {
    var key: String
    var applicationKey: String
    var text: String
    var placeholder: String

    init(key: String, applicationKey: String, text: String, placeholder: String) {
        self.key = key
        self.applicationKey = applicationKey
        self.text = text
        self.placeholder = placeholder
    }

    init(row: SQLRow) {
        key = row["key"]
        applicationKey = row["applicationKey"]
        text = row["text"]
        placeholder = row["placeholder"]
    }

    var template: MessageTemplate { MessageTemplate(text: text, linkPlaceholder: placeholder) }

    var wire: ApplicationMessage {
        let fields = template.fields
        return ApplicationMessage(key: key, clientMobileApplicationKey: applicationKey, text: text, placeholder: placeholder,
                                  clientPlaceholder: fields.isEmpty ? nil : fields.joined(separator: ","))
    }
}

extension PlatformEngine {
    /// An application's messages and settings.
    static let messageRoutes: [EngineRoute] = [
        EngineRoute(GetApplicationMessage.self, .read) { engine, call in try await engine.getMessage(call) },
        // A message of one's own is an edit too: with editing off, invitations say what the admin's messages say.
        EngineRoute(CreateApplicationMessage.self, .send, status: 201, allows: mayEditMessages) { engine, call in
            try await engine.createMessage(call)
        },
        EngineRoute(UpdateApplicationMessage.self, .send, allows: mayEditMessages) { engine, call in try await engine.updateMessage(call) },
        EngineRoute(GetApplicationSettings.self, .read) { _, call in call.app.settings },
        EngineRoute(UpdateApplicationSettings.self, .admin) { engine, call in try await engine.updateSettings(call) },
    ]

    static let maxMessageLength = 1600
    static let maxPlaceholderLength = 16
    static let maxKeyLength = 100

    nonisolated func getMessage(_ call: EngineCall<GetApplicationMessage>) async throws -> ApplicationMessage {
        let (app, key) = (call.app, call.path.messageId)
        guard let message = try await store.read({ db in try db.applications.message(applicationKey: app.key, key: key) }) else {
            throw APIError.notFound("Message \(key) not found")
        }
        return message.wire
    }

    nonisolated func createMessage(_ call: EngineCall<CreateApplicationMessage>) async throws -> ApplicationMessage {
        let (app, body) = (call.app, call.body)
        let key = body.key ?? Identifiers.hex(bytes: 16).uppercased()
        let text = body.text ?? ""
        var input = Self.validate(text: text, placeholder: body.placeholder)
        input.identifier("key", key, maxLength: Self.maxKeyLength)
        try input.check("the message is not valid")
        let now = nowMs
        let placeholder = body.placeholder ?? MessageTemplate.defaultLinkPlaceholder
        let actor = auditActor(call.request)
        let message = try await store.write { db -> MessageRecord in
            if try db.applications.messageExists(key: key) {
                throw APIError.badRequest("a message with key \(key) already exists", validationErrors: ["key": ["already exists"]])
            }
            try db.applications.addMessage(MessageRecord(key: key, applicationKey: app.key, text: text, placeholder: placeholder), at: now)
            guard let m = try db.applications.message(applicationKey: app.key, key: key) else {
                throw APIError.server(status: 500, text: "message vanished after insert")
            }
            try db.audit.append(AuditRecord(applicationKey: app.key, at: now, actor: actor, action: .messageCreate, subject: key,
                                            what: "message \(Self.auditText(key)) made (\(Self.characters(text.count)))"))
            return m
        }
        return message.wire
    }

    nonisolated func updateMessage(_ call: EngineCall<UpdateApplicationMessage>) async throws -> ApplicationMessage {
        let (app, body, key) = (call.app, call.body, call.path.messageId)
        let now = nowMs
        let actor = auditActor(call.request)
        let message = try await store.write { db -> MessageRecord in
            guard var m = try db.applications.message(applicationKey: app.key, key: key) else {
                throw APIError.notFound("Message \(key) not found")
            }
            if let text = body.text { m.text = text }
            if let placeholder = body.placeholder { m.placeholder = placeholder }
            try Self.validate(text: m.text, placeholder: m.placeholder).check("the message is not valid")
            try db.applications.updateMessage(m, at: now)
            let changed = [body.text.map { _ in "text (\(Self.characters(m.text.count)))" }, body.placeholder.map { "placeholder \(Self.auditText($0))" }]
                .compactMap { $0 }
            try db.audit.append(AuditRecord(applicationKey: app.key, at: now, actor: actor, action: .messageEdit, subject: key,
                                            what: "message \(Self.auditText(key)) changed: " + (changed.isEmpty ? "nothing" : changed.joined(separator: ", "))))
            return m
        }
        return message.wire
    }

    static let editingOff = APIError.forbidden("message editing is not allowed for this application")

    /// 403 when the application does not let its messages be edited.
    @Sendable static func mayEditMessages(_ app: ApplicationRecord) throws {
        guard app.messageEditingAllowed else { throw editingOff }
    }

    static func validate(text: String, placeholder: String?) -> WireInput {
        var input = WireInput()
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { input.refuse("text", "must not be empty") }
        input.text("text", text, maxLength: maxMessageLength)
        input.identifier("placeholder", placeholder, maxLength: maxPlaceholderLength)
        return input
    }

    // MARK: - Settings

    nonisolated func updateSettings(_ call: EngineCall<UpdateApplicationSettings>) async throws -> ApplicationSettings {
        let (app, body) = (call.app, call.body)
        let (actor, now) = (auditActor(call.request), nowMs)
        let updated = try await store.write { db -> ApplicationRecord in
            if let key = body.defaultMessageKey, try db.applications.message(applicationKey: app.key, key: key) == nil {
                throw APIError.badRequest("no message \(key) in this application",
                                          validationErrors: ["defaultMessageKey": ["unknown message"]])
            }
            try db.applications.update(key: app.key, messageEditingAllowed: body.messageEditingAllowed,
                                       inboxAuthMode: body.inboxAuthMode, defaultMessageKey: body.defaultMessageKey)
            guard let a = try db.applications.find(key: app.key) else { throw APIError.unauthorized }
            let changed = [body.messageEditingAllowed.map { "message editing \($0 ? "on" : "off")" },
                           body.inboxAuthMode.map { "inbox auth \($0.rawValue)" },
                           body.defaultMessageKey.map { "default message \(Self.auditText($0))" }].compactMap { $0 }
            try db.audit.append(AuditRecord(applicationKey: app.key, at: now, actor: actor, action: .settingsChange,
                                            what: changed.isEmpty ? "nothing changed" : changed.joined(separator: ", ")))
            return a
        }
        return updated.settings
    }
}
