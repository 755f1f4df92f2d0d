import Crypto
import Foundation
import HeraldAPI
import HeraldHTTP
import Logging

/// Mobile Messaging's inbox (fetch and seen) over HTTP, as the public SDKs call it: the request's own
/// `Authorization` (`App <application code>` or `Bearer <jwt>`) plus the `applicationcode` header (the first 10
/// hex digits of the SHA-256 of the application code, never the code itself). When an
/// answer carries `New-Base-URL`, later requests go there, and the URL is kept in `memory` for next runs — for a day, as
/// the SDKs keep it: then the configured base URL is asked again (and may move it again). When the new host cannot be
/// reached, the request goes to the configured one at once, and the kept URL is forgotten.
public actor MobileMessagingTransport: PlatformTransport {
    public private(set) var baseURL: URL
    /// The base URL of the configuration, where a move started and where it falls back to.
    let configuredBaseURL: URL
    /// When Infobip moved the application (nil: it has not).
    private var movedAt: Date?
    let applicationCode: String?
    let memory: URL?
    let clock: @Sendable () -> Date
    let log = Logger(label: "herald.infobip")
    /// How long a move is kept before the configured base URL is asked again.
    static let moveKeptFor: TimeInterval = 24 * 3600

    /// `memory`: a file keeping a base URL Infobip moved the application to, and when (read now, written when it moves).
    public init(baseURL: URL, applicationCode: String?, memory: URL?, clock: @escaping @Sendable () -> Date = Date.init) {
        self.applicationCode = applicationCode
        self.memory = memory
        self.clock = clock
        configuredBaseURL = baseURL
        if let kept = Self.keptMove(in: memory, configured: baseURL), clock().timeIntervalSince(kept.at) < Self.moveKeptFor {
            self.baseURL = kept.url
            movedAt = kept.at
        } else {
            self.baseURL = baseURL
        }
    }

    /// The base URL kept in `memory` and when it was kept; nil when there is none. A file there that cannot be read is
    /// logged (the configured base URL is used, and Infobip's redirect moves it again). A file of an older Herald has
    /// no time: it counts as kept now.
    private static func keptMove(in memory: URL?, configured: URL) -> (url: URL, at: Date)? {
        guard let memory, FileManager.default.fileExists(atPath: memory.path) else { return nil }
        do {
            let lines = try String(contentsOf: memory, encoding: .utf8).split(whereSeparator: \.isNewline).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let url = lines.first.flatMap(baseURL) else { return nil }
            guard acceptsMove(to: url, from: configured) else {
                Logger(label: "herald.infobip").warning("a kept Mobile Messaging base URL is not one of Infobip's: ignored",
                                                        metadata: ["file": "\(memory.path)", "url": "\(url.absoluteString)"])
                return nil
            }
            let at = lines.dropFirst().first.flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
            return (url, at)
        } catch {
            Logger(label: "herald.infobip").warning("could not read the kept base URL", metadata: ["file": "\(memory.path)", "cause": "\(error)"])
            return nil
        }
    }

    public func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        if applicationCode == nil, request.credential.map({ if case .app = $0 { true } else { false } }) ?? true {
            return APIError.badRequest(Self.missingCode, validationErrors: ["application_code": ["not configured"]]).response
        }
        var request = request
        if let applicationCode, request.header("applicationcode") == nil {
            request.headers["applicationcode"] = Self.codeHash(applicationCode)
        }
        request.headers["Accept"] = "application/json"
        if let movedAt, clock().timeIntervalSince(movedAt) >= Self.moveKeptFor { forgetMove(why: "a day has passed") }
        let response: APIResponse
        do {
            response = try await HTTPTransport(baseURL: baseURL).send(request)
        } catch {
            guard baseURL != configuredBaseURL, case .transport = error else { throw error }
            // The host Infobip moved the application to does not answer: back to the configured one, at once.
            forgetMove(why: "the new host cannot be reached: \(error.description)")
            response = try await HTTPTransport(baseURL: baseURL).send(request)
        }
        if let header = response.header("New-Base-URL"), !Self.acceptsMove(header, from: configuredBaseURL) {
            log.warning("Mobile Messaging's New-Base-URL is not https on one of Infobip's hosts: ignored",
                        metadata: ["url": "\(String(header.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }.prefix(200)))"])
        } else if let moved = response.header("New-Base-URL").flatMap(Self.baseURL), moved != baseURL {
            log.info("Mobile Messaging moved the application", metadata: ["to": "\(moved.absoluteString)"])
            baseURL = moved
            let now = clock()
            movedAt = now
            if let memory {
                let kept = moved.absoluteString + "\n" + String(Int(now.timeIntervalSince1970)) + "\n"
                do { try Data(kept.utf8).write(to: memory, options: .atomic) } catch {
                    log.warning("cannot keep the new Mobile Messaging base URL", metadata: ["cause": "\(error)"])
                }
            }
        }
        return response
    }

    /// Goes back to the configured base URL and forgets the kept move.
    private func forgetMove(why: String) {
        log.notice("Mobile Messaging: back to the configured base URL", metadata: ["from": "\(baseURL.absoluteString)", "why": "\(why)"])
        baseURL = configuredBaseURL
        movedAt = nil
        if let memory, FileManager.default.fileExists(atPath: memory.path) {
            do { try FileManager.default.removeItem(at: memory) } catch {
                log.warning("cannot forget the kept Mobile Messaging base URL", metadata: ["cause": "\(error)"])
            }
        }
    }

    static let missingCode = """
        no Infobip Mobile Messaging application code: set [infobip] application_code in config.toml \
        or HERALD_INFOBIP_APP_CODE to read the inbox
        """

    /// The `applicationcode` header's value: the first 10 hex digits of the SHA-256 of the application code.
    public static func codeHash(_ code: String) -> String {
        String(SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined().prefix(10))
    }

    /// Whether a `New-Base-URL` may be followed: https on Infobip's own hosts (`infobip.com` and below it, as its docs give
    /// `api.infobip.com`, `*.api.infobip.com` and `mobile.infobip.com`), never a credential in the URL. A base URL the
    /// operator configured outside Infobip (a proxy, the stand-in) may move within its own scheme and host only. Anyone
    /// able to answer once (a proxy, a forged answer) could otherwise send every later inbox read, with the user's token,
    /// anywhere and in clear.
    static func acceptsMove(_ text: String, from configured: URL) -> Bool {
        baseURL(text).map { acceptsMove(to: $0, from: configured) } ?? false
    }

    static func acceptsMove(to url: URL, from configured: URL) -> Bool {
        guard url.user == nil, url.password == nil, let host = url.host?.lowercased(), let scheme = url.scheme?.lowercased() else {
            return false
        }
        if scheme == "https", isInfobipHost(host) { return true }
        guard let configuredHost = configured.host?.lowercased(), !isInfobipHost(configuredHost) else { return false }
        return host == configuredHost && scheme == configured.scheme?.lowercased()
    }

    static func isInfobipHost(_ host: String) -> Bool { host == "infobip.com" || host.hasSuffix(".infobip.com") }

    /// An http(s) URL with a host; nil otherwise.
    static func baseURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host != nil else { return nil }
        return url
    }
}

/// The transport of an Infobip workspace: inbox requests (`/mobile/…`) go to Mobile Messaging, everything
/// else to the local engine whose carrier is Infobip's SMS API.
public struct InfobipTransport: PlatformTransport {
    let local: any PlatformTransport
    let mobile: MobileMessagingTransport

    public init(local: any PlatformTransport, mobile: MobileMessagingTransport) {
        self.local = local
        self.mobile = mobile
    }

    public func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        if request.path.hasPrefix("/mobile/") { return try await mobile.send(request) }
        return try await local.send(request)
    }
}
