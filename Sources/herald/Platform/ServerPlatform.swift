import Foundation
import HeraldAPI
import HeraldCore
import HeraldHTTP
import HeraldServices

/// A Herald server (`herald serve`) as the platform: wire requests over HTTP, its event stream followed.
/// The key names the application (`/herald/1/session`); when the server cannot be reached the credentials
/// kept from the last session let the workspace open anyway, and sends wait queued in the ledger.
struct ServerPlatform: PlatformConnector {
    let url: URL
    let key: String
    /// A PEM file of CA certificates trusted besides the system's (`[platform] ca_file`, `HERALD_PLATFORM_CA_FILE`).
    var caFile: String?
    /// Where the warning about a server older than the wire this terminal needs goes (stderr; the UI shows a toast).
    var warn: @Sendable (String) -> Void = { Output.warn($0) }

    func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection {
        let transport: HTTPTransport
        let events: EventStreamClient
        do {
            transport = try HTTPTransport(baseURL: url, caFile: caFile)
            events = try EventStreamClient(baseURL: url, key: key, caFile: caFile)
        } catch {
            throw WorkspaceError.platform(error.description)
        }
        let credentials: PlatformCredentials
        var linkExample: String?
        var readOnly: String?
        switch await session(over: transport) {
        case .success(let session):
            linkExample = session.linkExample
            if let warning = HeraldVersion.olderServerWarning(url: url.absoluteString, serverVersion: session.version,
                                                              announcedWire: session.wire), OlderServerWarning.first(for: url) {
                warn(warning)
            }
            if !session.role.maySend {
                readOnly = "this is a viewer key (\(session.name)): it reads and watches, it cannot send; ask for a sender key"
            }
            credentials = PlatformCredentials(applicationKey: session.applicationKey, applicationSecret: key, applicationCode: key)
            try saved.keep(credentials)
        case .failure(.unauthorized):
            throw WorkspaceError.platform("""
                the Herald server at \(url.absoluteString) refused the key: check [platform] api_key or HERALD_PLATFORM_KEY \
                (make one on the server with `herald serve keys create --role sender`)
                """)
        case .failure(let error) where error.isRetryable:
            guard let kept = try saved.credentials(), kept.applicationSecret == key else {
                throw WorkspaceError.platform("""
                    cannot reach the Herald server at \(url.absoluteString) (\(error.description)): start it with `herald serve`, \
                    or check [platform] url and HERALD_PLATFORM_URL
                    """)
            }
            credentials = kept      // offline: sends stay queued until the server is back
        case .failure(let error):
            throw WorkspaceError.platform("the Herald server at \(url.absoluteString) answered oddly: \(error.description)")
        }
        return PlatformConnection(kind: .server(url), transport: transport, credentials: credentials,
                                  events: events, linkExample: linkExample, readOnlyReason: readOnly)
    }

    private func session(over transport: HTTPTransport) async -> Result<ServerSession, APIError> {
        do {
            let endpoint = GetServerSession(key: key)
            return .success(try endpoint.decode(try await transport.send(try endpoint.request())))
        } catch {
            return .failure(error)
        }
    }
}

/// The servers this process has warned about already: once each, however often a workspace connects.
private final class OlderServerWarning: @unchecked Sendable {
    private static let shared = OlderServerWarning()
    private let lock = NSLock()
    private var warned: Set<URL> = []

    static func first(for url: URL) -> Bool {
        shared.lock.withLock { shared.warned.insert(url).inserted }
    }
}
