import Crypto
import Foundation
import HeraldAPI
import HeraldHTTP
import Logging

/// Mobile Messaging's inbox (fetch and seen) over HTTP, as the public SDKs call it: the request's own
/// `Authorization` (`App <application code>` or `Bearer <jwt>`) plus the `applicationcode` header (the first 10
/// hex digits of the SHA-256 of the application code, never the code itself). When an
/// answer carries `New-Base-URL`, later requests go there, and the URL is kept in `memory` for next runs.
public actor MobileMessagingTransport: PlatformTransport {
    public private(set) var baseURL: URL
    let applicationCode: String?
    let memory: URL?
    let log = Logger(label: "herald.infobip")

    /// `memory`: a file keeping a base URL Infobip moved the application to (read now, written when it moves).
    public init(baseURL: URL, applicationCode: String?, memory: URL?) {
        self.applicationCode = applicationCode
        self.memory = memory
        self.baseURL = Self.keptBaseURL(in: memory) ?? baseURL
    }

    /// The base URL kept in `memory`; nil when there is none. A file there that cannot be read is logged
    /// (the configured base URL is used, and Infobip's redirect moves it again).
    private static func keptBaseURL(in memory: URL?) -> URL? {
        guard let memory, FileManager.default.fileExists(atPath: memory.path) else { return nil }
        do {
            return baseURL(try String(contentsOf: memory, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
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
        let response = try await HTTPTransport(baseURL: baseURL).send(request)
        if let moved = response.header("New-Base-URL").flatMap(Self.baseURL), moved != baseURL {
            log.info("Mobile Messaging moved the application", metadata: ["to": "\(moved.absoluteString)"])
            baseURL = moved
            if let memory {
                do { try Data((moved.absoluteString + "\n").utf8).write(to: memory, options: .atomic) } catch {
                    log.warning("cannot keep the new Mobile Messaging base URL", metadata: ["cause": "\(error)"])
                }
            }
        }
        return response
    }

    static let missingCode = """
        no Infobip Mobile Messaging application code: set [infobip] application_code in config.toml \
        or HERALD_INFOBIP_APP_CODE to read the inbox
        """

    /// The `applicationcode` header's value: the first 10 hex digits of the SHA-256 of the application code.
    public static func codeHash(_ code: String) -> String {
        String(SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined().prefix(10))
    }

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
