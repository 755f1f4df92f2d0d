import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore

/// Why a message (template) could not be read or changed.
public enum TemplateError: Error, Sendable, Hashable, UserFacingError {
    case emptyText
    case unknownFields([String])
    case editingDisabled(key: String)
    case notFound(key: String)
    case noDefault
    case platform(APIError)

    public var userMessage: String {
        switch self {
        case .emptyText:
            return "the message text is empty: pass --text with the invitation text (use <> where the link goes)"
        case .unknownFields(let keys):
            let known = ClientField.allCases.map(\.placeholder).joined(separator: " ")
            return "unknown placeholders \(keys.map { "{\($0)}" }.joined(separator: " ")): messages may use \(known)"
        case .editingDisabled(let key):
            return "message \"\(key)\" cannot be changed: this application does not allow message editing "
                + "(turn it on with `herald templates editing on`, or create a new message with `herald templates create`)"
        case .notFound(let key):
            return "no message \"\(key)\": list messages with `herald templates list`"
        case .noDefault:
            return "the application has no default message: create one with `herald templates create --text …`"
        case .platform(let error):
            return error.description
        }
    }
}

/// The application's messages: the default one and custom ones, read and written through the
/// platform and cached in the store (the cache answers when the platform cannot be reached).
public actor TemplateService {
    private let platform: any MessagingPlatform
    private let cache: TemplateCacheStore
    private let clock: any HeraldClock
    private let applicationKey: String
    private var settingsCache: ApplicationSettings?

    public init(platform: any MessagingPlatform, cache: TemplateCacheStore, applicationKey: String,
                clock: any HeraldClock = SystemClock()) {
        self.platform = platform
        self.cache = cache
        self.applicationKey = applicationKey
        self.clock = clock
    }

    /// The application's settings (editing toggle, default message), fetched once then kept.
    public func applicationSettings(refresh: Bool = false) async throws(TemplateError) -> ApplicationSettings {
        if !refresh, let settingsCache { return settingsCache }
        do {
            let s = try await platform.applicationSettings()
            settingsCache = s
            return s
        } catch {
            throw .platform(error)
        }
    }

    /// Whether the application lets its messages be changed.
    public func isEditingAllowed() async throws(TemplateError) -> Bool {
        try await applicationSettings(refresh: true).messageEditingAllowed
    }

    /// Turns message editing on or off for the application; answers with the settings as changed.
    @discardableResult
    public func setEditingAllowed(_ allowed: Bool) async throws(TemplateError) -> ApplicationSettings {
        do {
            let s = try await platform.updateApplicationSettings(ApplicationSettingsBody(messageEditingAllowed: allowed))
            settingsCache = s
            return s
        } catch {
            throw .platform(error)
        }
    }

    /// The key of the application's default message.
    public func defaultMessageKey() async throws(TemplateError) -> String {
        guard let key = try await applicationSettings().defaultMessageKey else { throw .noDefault }
        return key
    }

    /// The default message.
    public func defaultMessage() async throws(TemplateError) -> ApplicationMessage {
        try await message(key: try await defaultMessageKey())
    }

    /// One message, fresh from the platform; from the cache when the platform cannot be reached.
    public func message(key: String) async throws(TemplateError) -> ApplicationMessage {
        guard !key.trimmingCharacters(in: .whitespaces).isEmpty else { throw .notFound(key: key) }
        do {
            let m = try await platform.getMessage(key: key)
            save(m)
            return m
        } catch {
            if case .notFound = error {
                try? cache.remove(key: key)
                throw .notFound(key: key)
            }
            if error.isRetryable, let cached = try? cache.template(key: key) {
                return Self.message(cached, applicationKey: applicationKey)
            }
            throw .platform(error)
        }
    }

    /// Every message this client knows (the cache), with the default first; refreshed from the
    /// platform when it answers. The platform has no "list" call: messages come from this client's
    /// creates and reads.
    public func list() async -> [ApplicationMessage] {
        var keys = (try? cache.all().map(\.messageKey)) ?? []
        if let d = try? await defaultMessageKey() {
            keys.removeAll { $0 == d }
            keys.insert(d, at: 0)
        }
        var out: [ApplicationMessage] = []
        for key in keys {
            if let m = try? await message(key: key) { out.append(m) }
        }
        return out
    }

    /// Messages in the cache, without asking the platform.
    public func cached() -> [ApplicationMessage] {
        ((try? cache.all()) ?? []).map { Self.message($0, applicationKey: applicationKey) }
    }

    /// Creates a custom message.
    public func create(text: String, placeholder: String? = nil, key: String? = nil) async throws(TemplateError) -> ApplicationMessage {
        try Self.validate(text: text, placeholder: placeholder)
        do {
            let m = try await platform.createMessage(ApplicationMessageBody(key: key, text: text, placeholder: placeholder))
            save(m)
            return m
        } catch {
            throw .platform(error)
        }
    }

    /// Changes a message's text or placeholder; refused when the application does not allow editing.
    public func update(key: String, text: String?, placeholder: String? = nil) async throws(TemplateError) -> ApplicationMessage {
        if let text { try Self.validate(text: text, placeholder: placeholder) }
        guard try await isEditingAllowed() else { throw .editingDisabled(key: key) }
        do {
            let m = try await platform.updateMessage(key: key, ApplicationMessageBody(text: text, placeholder: placeholder))
            save(m)
            return m
        } catch {
            switch error {
            case .forbidden: throw .editingDisabled(key: key)
            case .notFound: throw .notFound(key: key)
            default: throw .platform(error)
            }
        }
    }

    /// Checks a text before it is sent to the platform.
    public static func validate(text: String, placeholder: String?) throws(TemplateError) {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyText }
        let template = MessageTemplate(text: text, linkPlaceholder: placeholder ?? MessageTemplate.defaultLinkPlaceholder)
        let unknown = template.unknownFields
        guard unknown.isEmpty else { throw .unknownFields(unknown) }
    }

    private func save(_ m: ApplicationMessage) {
        try? cache.save(CachedTemplate(messageKey: m.key, applicationKey: m.clientMobileApplicationKey, text: m.text,
                                       placeholder: m.placeholder, clientPlaceholder: m.clientPlaceholder,
                                       fetchedAt: clock.now()))
    }

    static func message(_ c: CachedTemplate, applicationKey: String) -> ApplicationMessage {
        ApplicationMessage(key: c.messageKey, clientMobileApplicationKey: c.applicationKey ?? applicationKey, text: c.text,
                           placeholder: c.placeholder ?? MessageTemplate.defaultLinkPlaceholder,
                           clientPlaceholder: c.clientPlaceholder)
    }
}
