import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore
import Logging

/// Why a message (template) could not be read or changed.
public enum TemplateError: Error, Sendable, Hashable, UserFacingError {
    case emptyText
    case editingDisabled(key: String)
    /// A new message is an edit too: with editing off, invitations say what the application's messages say.
    case creatingDisabled
    case notFound(key: String)
    case noDefault
    case platform(APIError)

    public var userMessage: String {
        switch self {
        case .emptyText:
            return "the message text is empty: pass --text with the invitation text (use <> where the link goes)"
        case .editingDisabled(let key):
            return "message \"\(key)\" cannot be changed: this application does not allow message editing "
                + "(an admin turns it on with `herald templates editing on`)"
        case .creatingDisabled:
            return "no new message can be made: this application does not allow message editing, and a message of your "
                + "own is an edit too (an admin turns it on with `herald templates editing on`)"
        case .notFound(let key):
            return "no message \"\(key)\": list messages with `herald templates list`"
        case .noDefault:
            return "the application has no default message: create one with `herald templates create --text …`"
        case .platform(let error):
            return error.description
        }
    }
}

/// What `TemplateService.listing()` could read, and what it could not (the causes are logged).
public struct TemplateListing: Sendable {
    public var messages: [ApplicationMessage] = []
    /// The key of the default message; nil when the application has none or it could not be asked.
    public var defaultKey: String?
    /// Why the default message is not known, when the platform could not be asked.
    public var defaultUnknown: String?
    /// One "could not read …" sentence per message (or the local copy) that could not be read.
    public var unreadable: [String] = []
}

/// The application's messages: the default one and custom ones, read and written through the
/// platform and cached in the store (the cache answers when the platform cannot be reached).
public actor TemplateService {
    private static let log = Logger(label: "herald.templates")
    private let platform: any MessagingPlatform
    private let cache: TemplateCacheStore
    private let clock: any HeraldClock
    private let applicationKey: String
    private var settingsCache: ApplicationSettings?

    /// Keeps the last settings read, so a send can pick the default message while the platform is away.
    private let kept: SettingsStore?
    static let keptSettingsKey = "platform.application_settings"

    public init(platform: any MessagingPlatform, cache: TemplateCacheStore, applicationKey: String,
                clock: any HeraldClock = SystemClock(), settings: SettingsStore? = nil) {
        self.platform = platform
        self.cache = cache
        self.kept = settings
        self.applicationKey = applicationKey
        self.clock = clock
    }

    /// The application's settings (editing toggle, default message), fetched once then kept. When the platform
    /// cannot be reached, the copy kept from the last read answers (so sends wait queued instead of failing).
    public func applicationSettings(refresh: Bool = false) async throws(TemplateError) -> ApplicationSettings {
        if !refresh, let settingsCache { return settingsCache }
        do {
            let s = try await platform.applicationSettings()
            settingsCache = s
            keep(s)
            return s
        } catch {
            if error.isRetryable, let copy = keptSettings() {
                Self.log.info("platform unreachable: using the application settings kept from the last read",
                              metadata: ["cause": "\(error.description)"])
                return copy
            }
            throw .platform(error)
        }
    }

    private func keep(_ s: ApplicationSettings) {
        guard let kept else { return }
        do {
            try kept.set(Self.keptSettingsKey, String(decoding: try HeraldJSON.encode(s), as: UTF8.self))
        } catch {
            Self.log.warning("could not keep the application settings", metadata: ["cause": "\(error)"])
        }
    }

    private func keptSettings() -> ApplicationSettings? {
        do {
            guard let text = try kept?.string(Self.keptSettingsKey) else { return nil }
            let s = try HeraldJSON.decode(ApplicationSettings.self, from: Data(text.utf8))
            return s.applicationKey == applicationKey ? s : nil
        } catch {
            Self.log.warning("could not read the kept application settings", metadata: ["cause": "\(error)"])
            return nil
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
                do { try cache.remove(key: key) } catch let local {
                    Self.log.warning("could not drop a deleted message from the local copy",
                                     metadata: ["key": "\(key)", "error": "\(logCause(local))"])
                }
                throw .notFound(key: key)
            }
            if error.isRetryable {
                // An unreadable local copy answers nothing: the platform's failure is reported.
                do {
                    if let cached = try cache.template(key: key) { return Self.message(cached, applicationKey: applicationKey) }
                } catch let local {
                    Self.log.error("could not read the local copy of a message", metadata: ["key": "\(key)", "error": "\(logCause(local))"])
                }
            }
            throw .platform(error)
        }
    }

    /// Every message this client knows (the cache), with the default first; refreshed from the
    /// platform when it answers. What could not be read is logged and left out: `listing()` says what.
    public func list() async -> [ApplicationMessage] {
        await listing().messages
    }

    /// Every message this client knows (the cache), with the default first, refreshed from the
    /// platform when it answers, and what could not be read. The platform has no "list" call:
    /// messages come from this client's creates and reads. A message deleted on the platform is left out.
    public func listing() async -> TemplateListing {
        var out = TemplateListing()
        var keys: [String] = []
        do { keys = try cache.all().map(\.messageKey) } catch {
            out.unreadable.append(Self.problem("could not read the local copy of the messages", error))
        }
        do {
            let d = try await defaultMessageKey()
            out.defaultKey = d
            keys.removeAll { $0 == d }
            keys.insert(d, at: 0)
        } catch TemplateError.noDefault {
            // The application has no default message: nothing is missing.
        } catch {
            out.defaultUnknown = Self.problem("could not ask the platform for the default message", error)
        }
        for key in keys {
            do {
                let m = try await message(key: key)
                out.messages.append(m)
            } catch TemplateError.notFound {
                // Deleted on the platform (and dropped from the local copy).
            } catch {
                out.unreadable.append(Self.problem("could not read message \"\(key)\"", error))
            }
        }
        return out
    }

    /// Messages in the cache, without asking the platform.
    public func cached() throws -> [ApplicationMessage] {
        try cache.all().map { Self.message($0, applicationKey: applicationKey) }
    }

    /// "`what`: why", with the cause logged.
    private static func problem(_ what: String, _ error: any Error) -> String {
        log.error("\(what)", metadata: ["error": "\(logCause(error))"])
        return "\(what): \(userMessage(for: error))"
    }

    /// Creates a custom message.
    public func create(text: String, placeholder: String? = nil, key: String? = nil) async throws(TemplateError) -> ApplicationMessage {
        try Self.validate(text: text, placeholder: placeholder)
        do {
            let m = try await platform.createMessage(ApplicationMessageBody(key: key, text: text, placeholder: placeholder))
            save(m)
            return m
        } catch {
            if case .forbidden = error { throw .creatingDisabled }
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

    /// Checks a text before it is sent to the platform. Any `{FIELD}` may stand in it: beyond the five client fields
    /// it is a personal field (`{FIRST_NAME}`, a custom field), filled per recipient when a send is made, where a field
    /// nobody has is named before anything is queued.
    public static func validate(text: String, placeholder: String?) throws(TemplateError) {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw .emptyText }
    }

    /// Keeps the platform's answer locally; when that fails the answer still stands (the cause is logged).
    private func save(_ m: ApplicationMessage) {
        do {
            try cache.save(CachedTemplate(messageKey: m.key, applicationKey: m.clientMobileApplicationKey, text: m.text,
                                          placeholder: m.placeholder, clientPlaceholder: m.clientPlaceholder,
                                          fetchedAt: clock.now()))
        } catch {
            Self.log.warning("could not keep a message in the local copy", metadata: ["key": "\(m.key)", "error": "\(logCause(error))"])
        }
    }

    static func message(_ c: CachedTemplate, applicationKey: String) -> ApplicationMessage {
        ApplicationMessage(key: c.messageKey, clientMobileApplicationKey: c.applicationKey ?? applicationKey, text: c.text,
                           placeholder: c.placeholder ?? MessageTemplate.defaultLinkPlaceholder,
                           clientPlaceholder: c.clientPlaceholder)
    }
}
