import Foundation
import HeraldAPI
import HeraldHTTP

/// `herald platform check` on Infobip: which base URLs answer, whether the API key and the application code
/// are accepted, and how to fix what is not. Reads only (a logs page and an empty inbox); sends nothing.
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

    public static func run(_ settings: InfobipSettings) async -> [Finding] {
        var findings: [Finding] = []
        let sms = InfobipHTTP(baseURL: settings.baseURL, authorization: "App \(settings.apiKey)", keySource: settings.apiKeySource,
                              attempts: 1, maxRetryWait: 0)
        do {
            _ = try await sms.call(.get, "/sms/3/logs", query: [("limit", "1")])
            findings.append(Finding(subject: "SMS API \(settings.baseURL.absoluteString)", ok: true,
                                    detail: "answers; the API key is accepted", fix: nil))
        } catch {
            findings.append(smsFinding(error, settings))
        }
        findings.append(await inboxFinding(settings))
        if let link = settings.link {
            findings.append(Finding(subject: "invitation link", ok: true, detail: link, fix: nil))
        }
        return findings
    }

    private static func smsFinding(_ error: InfobipError, _ settings: InfobipSettings) -> Finding {
        let subject = "SMS API \(settings.baseURL.absoluteString)"
        switch error {
        case .refusedKey:
            return Finding(subject: subject, ok: false, detail: error.description,
                           fix: "create an API key with the SMS scope on the Infobip portal and set it in \(settings.apiKeySource)")
        case .unreachable, .unavailable:
            return Finding(subject: subject, ok: false, detail: error.description,
                           fix: "check [infobip] base_url (or HERALD_INFOBIP_BASE_URL): it is the address shown on your account's home page")
        default:
            return Finding(subject: subject, ok: false, detail: error.description, fix: nil)
        }
    }

    private static func inboxFinding(_ settings: InfobipSettings) async -> Finding {
        let subject = "Mobile Messaging \(settings.mobileBaseURL.absoluteString)"
        guard let code = settings.applicationCode else {
            return Finding(subject: subject, ok: false, detail: "no application code: the inbox cannot be read",
                           fix: "set [infobip] application_code or HERALD_INFOBIP_APP_CODE (the Mobile Messaging application's code)")
        }
        let transport = HTTPTransport(baseURL: settings.mobileBaseURL, timeout: 15)
        let fetch = FetchInbox(credential: .app(code), externalUserId: probeUser, limit: 1)
        do {
            var request = try fetch.request()
            request.headers["applicationcode"] = MobileMessagingTransport.codeHash(code)
            let response = try await transport.send(request)
            switch response.status {
            case 200..<300:
                return Finding(subject: subject, ok: true, detail: "answers; the application code is accepted", fix: nil)
            case 401, 403:
                return Finding(subject: subject, ok: false, detail: "the application code was refused (HTTP \(response.status))",
                               fix: "copy the application code from the Mobile Messaging application on the Infobip portal into [infobip] application_code")
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
