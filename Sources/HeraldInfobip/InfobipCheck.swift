import Foundation
import HeraldAPI
import HeraldHTTP

/// `herald platform check` on Infobip: which base URLs answer, whether the API key and the application code
/// are accepted, whether the key may send, read logs and take back held sends (each scope apart), and how to fix what
/// is not. Sends nothing:
/// sending is probed with a request of no messages, which Infobip refuses as invalid only once the key may send.
public enum InfobipCheck {
    public struct Finding: Sendable, Hashable, Encodable {
        public init(subject: String, ok: Bool, detail: String, fix: String?) {
            self.subject = subject
            self.ok = ok
            self.detail = detail
            self.fix = fix
        }

        public var subject: String
        public var ok: Bool
        public var detail: String
        /// What to do when not ok.
        public var fix: String?
    }

    /// The user id the inbox is read for: any id works for checking the application code.
    static let probeUser = "herald-platform-check"

    /// `inbox: false` leaves Mobile Messaging out (a server that uses Infobip as its carrier only). `inboxToken` mints a
    /// user's JWT when the application uses JWT (`[inbox] jwt_key_id`): the inbox is then probed as Herald reads it, since
    /// the bare application code opens only a sandbox application's inbox.
    public static func run(_ settings: InfobipSettings, inbox: Bool = true,
                           inboxToken: (@Sendable (String) async throws -> String)? = nil) async -> [Finding] {
        var findings: [Finding] = []
        let sms = InfobipHTTP(baseURL: settings.baseURL, authorization: "App \(settings.apiKey)", keySource: settings.apiKeySource,
                              attempts: 1, maxRetryWait: 0)
        // Sending, probed without sending: a request with no messages is refused as invalid (400) only after the key
        // and its scope were accepted.
        do {
            _ = try await sms.call(.post, "/sms/3/messages", body: Data(#"{"messages":[]}"#.utf8), repeatable: false)
            findings.append(Finding(subject: "SMS sending \(settings.baseURL.absoluteString)", ok: true,
                                    detail: "answers; the API key may send", fix: nil))
        } catch InfobipError.rejected(400, _) {
            findings.append(Finding(subject: "SMS sending \(settings.baseURL.absoluteString)", ok: true,
                                    detail: "answers; the API key may send", fix: nil))
        } catch {
            findings.append(smsFinding(error, settings, what: "SMS sending"))
        }
        do {
            _ = try await sms.call(.get, "/sms/3/logs", query: [("limit", "1")])
            findings.append(Finding(subject: "SMS logs \(settings.baseURL.absoluteString)", ok: true,
                                    detail: "answers; the API key may read delivery logs", fix: nil))
        } catch {
            findings.append(smsFinding(error, settings, what: "SMS logs"))
        }
        // Taking back and moving held sends (scheduled bulks), probed on a bulk that does not exist: Infobip answers
        // 404 once the key and its scope were accepted, and nothing changes.
        do {
            _ = try await sms.setStatus(bulkId: "herald-platform-check-\(UUID().uuidString.lowercased())", status: .canceled)
            findings.append(Finding(subject: "SMS scheduled bulks \(settings.baseURL.absoluteString)", ok: true,
                                    detail: "answers; the API key may take back and move held sends", fix: nil))
        } catch InfobipError.rejected(404, _) {
            findings.append(Finding(subject: "SMS scheduled bulks \(settings.baseURL.absoluteString)", ok: true,
                                    detail: "answers; the API key may take back and move held sends", fix: nil))
        } catch {
            findings.append(smsFinding(error, settings, what: "SMS scheduled bulks"))
        }
        if inbox { findings.append(await inboxFinding(settings, token: inboxToken)) }
        if let link = settings.link {
            findings.append(Finding(subject: "invitation link", ok: true, detail: link, fix: nil))
        }
        return findings
    }

    private static func smsFinding(_ error: InfobipError, _ settings: InfobipSettings, what: String) -> Finding {
        let subject = "\(what) \(settings.baseURL.absoluteString)"
        switch error {
        case .refusedKey:
            return Finding(subject: subject, ok: false, detail: error.description,
                           fix: "create an API key with the SMS scopes on the Infobip portal and set it in \(settings.apiKeySource)")
        case .missingScope(_, let needs, _):
            return Finding(subject: subject, ok: false, detail: error.description,
                           fix: "\(needs): add it to the key on the Infobip portal, or use a key that has it")
        case .unreachable, .unavailable:
            return Finding(subject: subject, ok: false, detail: error.description,
                           fix: "check [infobip] base_url (or HERALD_INFOBIP_BASE_URL): it is the address shown on your account's home page")
        default:
            return Finding(subject: subject, ok: false, detail: error.description, fix: nil)
        }
    }

    private static func inboxFinding(_ settings: InfobipSettings, token: (@Sendable (String) async throws -> String)?) async -> Finding {
        let subject = "Mobile Messaging \(settings.mobileBaseURL.absoluteString)"
        guard let code = settings.applicationCode else {
            return Finding(subject: subject, ok: false, detail: "no application code: the inbox cannot be read",
                           fix: "set [infobip] application_code or HERALD_INFOBIP_APP_CODE (the Mobile Messaging application's code)")
        }
        let credential: Credential
        if let token {
            do { credential = .bearer(try await token(probeUser)) } catch {
                return Finding(subject: subject, ok: false, detail: "no JWT could be made: \(error)",
                               fix: "check [inbox] jwt_key_id and jwt_secret (or HERALD_INBOX_JWT_KEY_ID and HERALD_INBOX_JWT_SECRET)")
            }
        } else {
            credential = .app(code)
        }
        let accepted = token == nil ? "the application code is accepted" : "a user's JWT of [inbox] jwt_key_id is accepted"
        let refusedFix = token == nil
            ? "copy the application code from the Mobile Messaging application on the Infobip portal into [infobip] application_code "
                + "(it opens only a sandbox application's inbox: a production application needs [inbox] jwt_key_id and jwt_secret)"
            : "check that [inbox] jwt_key_id and jwt_secret are a JWT key of this application on the Infobip portal, and the application code"
        let transport = HTTPTransport(baseURL: settings.mobileBaseURL, timeout: 15)
        let fetch = FetchInbox(credential: credential, externalUserId: probeUser, limit: 1)
        do {
            var request = try fetch.request()
            request.headers["applicationcode"] = MobileMessagingTransport.codeHash(code)
            let response = try await transport.send(request)
            switch response.status {
            case 200..<300:
                return Finding(subject: subject, ok: true, detail: "answers; \(accepted)", fix: nil)
            case 401, 403:
                return Finding(subject: subject, ok: false,
                               detail: "\(token == nil ? "the application code" : "the JWT") was refused (HTTP \(response.status))",
                               fix: refusedFix)
            default:
                let detail = InfobipErrorEnvelope.parse(response.body)?.summary ?? "HTTP \(response.status)"
                return Finding(subject: subject, ok: false, detail: detail, fix: nil)
            }
        } catch {
            return Finding(subject: subject, ok: false, detail: "cannot reach it: \(error.description)",
                           fix: "check [infobip] mobile_base_url (or HERALD_INFOBIP_MOBILE_BASE_URL); the default is https://mobile.infobip.com")
        }
    }
}
